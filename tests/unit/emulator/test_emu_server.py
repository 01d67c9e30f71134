"""Process, HTTP behaviour, authentication, access control, faults, request log, reset."""

from __future__ import annotations

import datetime as dt
import email.utils
import http.client
import signal
import socket
import ssl
import threading
from pathlib import Path
from typing import Iterator

import pytest

from tests.emulator import server as emulator_server
from tests.emulator.tls import make_test_pki
from tests.emulator.tokens import make_token
from tests.support.fakes import FakeClock

from .conftest import Emulator, start_emulator


def test_ready_line_gives_a_real_port_and_sigterm_stops_cleanly() -> None:
    emulator = start_emulator("seed")
    assert emulator.url.startswith("http://127.0.0.1:") and emulator.port > 0
    assert emulator.call("GET", "/api/groups").status == 200
    emulator.process.send_signal(signal.SIGTERM)
    assert emulator.process.wait(timeout=5) == 0


def test_sigint_also_stops_cleanly() -> None:
    emulator = start_emulator("seed")
    emulator.process.send_signal(signal.SIGINT)
    assert emulator.process.wait(timeout=5) == 0


def test_malformed_owner_token_is_refused_at_startup() -> None:
    with pytest.raises(RuntimeError):
        start_emulator("seed", token="nbp_not-a-token")


def test_missing_or_foreign_authorization_gives_no_valid_authentication(emu: Emulator) -> None:
    for headers in ({}, {"Authorization": "Basic abc"}):
        response = emu.raw("GET", "/api/groups", headers=headers)
        assert response.status == 401
        assert response.body == {"message": "no valid authentication provided", "code": 401}


@pytest.mark.parametrize("value", [
    "Token nbp_9999EUDNdkeusjentDLSJEn1902u84390W6W",  # well formed, unknown
    "Token nbp_9999EUDNdkeusjentDLSJEn1902u84390W6X",  # bad checksum
    "Token short",
    "Bearer eyJhbGciOi.fake.jwt",
])
def test_bad_tokens_give_token_invalid(emu: Emulator, value: str) -> None:
    response = emu.raw("GET", "/api/groups", headers={"Authorization": value})
    assert response.status == 401
    assert response.body == {"message": "token invalid", "code": 401}
    assert response.headers["Content-Type"].startswith("application/json")


def test_double_space_is_token_invalid_and_bearer_pat_is_accepted(emu: Emulator) -> None:
    assert emu.raw("GET", "/api/groups", headers={"Authorization": f"Token  {emu.token}"}).status == 401
    assert emu.raw("GET", "/api/groups", headers={"Authorization": f"bearer {emu.token}"}).status == 200
    assert emu.raw("GET", "/api/groups", headers={"Authorization": f"TOKEN {emu.token}"}).status == 200


def test_unknown_path_is_plain_text_404_without_auth(emu: Emulator) -> None:
    for path in ("/api/nothing", "/api/groups/", "/api/rules"):
        response = emu.raw("GET", path)
        assert response.status == 404
        assert response.raw == b"404 page not found\n"
        assert response.headers["Content-Type"].startswith("text/plain")


def test_wrong_method_is_405_with_empty_body_without_auth(emu: Emulator) -> None:
    for method, path in (("DELETE", "/api/setup-keys/1"), ("GET", "/api/users/x"), ("GET", "/api/accounts/x"),
                         ("POST", "/api/peers")):
        response = emu.raw(method, path)
        assert response.status == 405, (method, path)
        assert response.raw == b""


def test_dirty_path_redirects_and_cors_preflight_skips_auth(emu: Emulator) -> None:
    response = emu.raw("GET", "/api//groups")
    assert response.status == 301 and response.headers["Location"] == "/api/groups"
    preflight = emu.raw("OPTIONS", "/api/groups", headers={"Access-Control-Request-Method": "POST"})
    assert preflight.status == 200
    plain = emu.call("OPTIONS", "/api/groups")
    assert plain.status == 200 and isinstance(plain.body, list)


def test_bad_json_is_400_verbatim(emu: Emulator) -> None:
    response = emu.raw("POST", "/api/groups", b"{not json", {"Authorization": f"Token {emu.token}"})
    assert response.status == 400
    assert response.body == {"message": "couldn't parse JSON request", "code": 400}
    wrong_type = emu.call("POST", "/api/groups", {"name": 5})
    assert wrong_type.status == 400


def test_roles_blocked_and_regular_users(emu: Emulator) -> None:
    blocked = emu.add_user(email="b@example.com", name="B", role="admin", is_blocked=True, token=True)
    response = emu.call("GET", "/api/groups", token=blocked["token"])
    assert response.status == 403
    assert response.body["message"] == "the user has no access to the api or is blocked"
    regular = emu.add_user(email="r@example.com", name="R", role="user", token=True)
    response = emu.call("POST", "/api/groups", {"name": "x"}, token=regular["token"])
    assert response.status == 403
    assert response.body["message"] == "only users with admin power can perform this operation"
    # token paths are exempt for the user's own tokens
    own = emu.call("POST", f"/api/users/{regular['user']['id']}/tokens", {"name": "t", "expires_in": 1},
                   token=regular["token"])
    assert own.status == 200
    # view blocked by default account settings
    assert emu.call("GET", "/api/groups", token=regular["token"]).status == 403
    assert emu.call("GET", "/api/peers", token=regular["token"]).body == []
    assert emu.call("GET", "/api/setup-keys", token=regular["token"]).status == 401
    assert emu.call("GET", "/api/policies", token=regular["token"]).status == 403
    assert emu.call("GET", "/api/accounts", token=regular["token"]).status == 403
    users = emu.ok("GET", "/api/users", token=regular["token"])
    assert [u["id"] for u in users] == [regular["user"]["id"]] and users[0]["is_current"]


def test_service_user_with_role_user_reads_but_not_posture_or_locations(emu: Emulator) -> None:
    svc = emu.add_user(name="svc", role="user", is_service_user=True, token=True)
    assert emu.call("GET", "/api/groups", token=svc["token"]).status == 200
    assert emu.call("GET", "/api/setup-keys", token=svc["token"]).status == 200
    assert emu.call("GET", "/api/posture-checks", token=svc["token"]).status == 403
    assert emu.call("GET", "/api/locations/countries", token=svc["token"]).status == 403


def test_request_log_records_every_api_call_and_can_be_cleared(emu: Emulator) -> None:
    emu.call("GET", "/api/groups?x=1")
    emu.call("POST", "/api/groups", {"name": "logged"})
    emu.raw("GET", "/api/unknown")
    log = emu.requests()
    assert [(e["method"], e["path"], e["status"]) for e in log] == [
        ("GET", "/api/groups", 200), ("POST", "/api/groups", 200), ("GET", "/api/unknown", 404)]
    assert log[0]["query"] == "x=1" and log[0]["fault"] is None
    assert log[1]["body"] == {"name": "logged"}
    emu.control("DELETE", "requests")
    assert emu.requests() == []


def test_reset_restores_the_initial_state_and_clears_log_and_faults(emu: Emulator) -> None:
    before = emu.ok("GET", "/api/groups")
    emu.group("temp")
    emu.control("POST", "faults", {"queue": [{"status": 503}, {"status": 503}]})
    emu.reset()
    assert emu.requests() == []
    assert emu.control("GET", "faults")["queue"] == []
    after = emu.ok("GET", "/api/groups")
    assert [g["id"] for g in after] == [g["id"] for g in before]


def test_fault_queue_kinds_in_order(emu: Emulator) -> None:
    emu.control("POST", "faults", {"queue": [
        {"status": 503}, {"status": 429, "retry_after": 2},
        {"status": 500, "body": "<html>x</html>", "content_type": "text/html"}, {"drop": True}]})
    first = emu.call("GET", "/api/groups")
    assert first.status == 503 and first.body["code"] == 503
    second = emu.call("GET", "/api/groups")
    assert second.status == 429 and second.headers["Retry-After"] == "2"
    third = emu.call("GET", "/api/groups")
    assert third.status == 500 and third.raw == b"<html>x</html>" and third.headers["Content-Type"] == "text/html"
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
        emu.call("GET", "/api/groups")
    assert emu.call("GET", "/api/groups").status == 200
    log = emu.requests()
    assert [e["fault"] for e in log] == ["503", "429", "500", "drop", None]
    assert [e["status"] for e in log] == [503, 429, 500, None, 200]


def test_a_queued_fault_with_a_method_waits_for_that_method(emu: Emulator) -> None:
    emu.control("POST", "faults", {"queue": [{"status": 429, "method": "POST"}, {"status": 503}]})
    assert emu.call("GET", "/api/groups").status == 200
    assert emu.call("POST", "/api/groups", {"name": "later"}).status == 429
    assert emu.call("GET", "/api/groups").status == 503
    assert [(e["method"], e["fault"]) for e in emu.requests()] == [("GET", None), ("POST", "429"), ("GET", "503")]


def test_faulted_write_is_not_applied_but_drop_after_is(emu: Emulator) -> None:
    emu.control("POST", "faults", {"queue": [{"status": 503}]})
    assert emu.call("POST", "/api/groups", {"name": "never"}).status == 503
    assert "never" not in [g["name"] for g in emu.ok("GET", "/api/groups")]
    emu.control("POST", "faults", {"queue": [{"drop": True, "after": True}]})
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
        emu.call("POST", "/api/groups", {"name": "applied"})
    assert "applied" in [g["name"] for g in emu.ok("GET", "/api/groups")]


@pytest.fixture(params=["seed", "netbird"])
def on_clock(request: pytest.FixtureRequest, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    """An emulator served in this process (not a process of its own) whose waits are on the tests' fake clock
    (``clock``): a slow answer is held back for its delay on that clock, at once, and the wait is recorded."""
    monkeypatch.setattr(emulator_server, "time", clock)
    app = emulator_server.App(make_token(), dialect=request.param)
    httpd = emulator_server.EmulatorServer(app)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield Emulator(None, httpd.url, app.token, request.param, None, None)
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_slow_and_truncated_faults(on_clock: Emulator, clock: FakeClock) -> None:
    emu = on_clock
    emu.control("POST", "faults", {"queue": [{"delay": 0.4}, {"truncated": True}]})
    assert emu.call("GET", "/api/groups").status == 200
    assert clock.waits == [0.4]  # the answer was held back for the delay before it was sent
    with pytest.raises(http.client.IncompleteRead):
        emu.call("GET", "/api/groups")
    assert [e["fault"] for e in emu.requests()] == ["slow", "truncated"]
    assert clock.waits == [0.4]  # only the slow fault waits


def test_random_fault_rate_is_seeded_and_reproducible(emu: Emulator) -> None:
    def run() -> list[int]:
        emu.control("POST", "faults", {"rate": 0.5, "kinds": ["503", "429"], "seed": 7})
        return [emu.call("GET", "/api/groups").status for _call in range(20)]

    first, second = run(), run()
    assert first == second
    assert {200, 503, 429} == set(first)


def test_a_duplicate_fault_lists_one_item_of_a_list_answer_twice(emu: Emulator) -> None:
    for name in ("a", "b"):
        assert emu.call("POST", "/api/groups", {"name": name, "peers": []}).status == 200
    plain = emu.call("GET", "/api/groups").body
    emu.control("POST", "faults", {"queue": [{"duplicate": True, "index": -1, "method": "GET"}, {"kind": "duplicate"}]})
    assert emu.call("POST", "/api/groups", {"name": "c", "peers": []}).status == 200  # waits for a GET
    twice = emu.call("GET", "/api/groups").body
    assert twice[-1] == twice[-2] and len(twice) == len(plain) + 2  # c added, the last one listed twice
    assert emu.call("GET", "/api/groups/%s" % plain[0]["id"]).body["id"] == plain[0]["id"]  # no list: as it is
    assert [e["fault"] for e in emu.requests()][-3:] == [None, "duplicate", "duplicate"]
    assert emu.raw("POST", "/_emulator/faults", b'{"queue": [{"duplicate": true, "index": "x"}]}').status == 400


def test_the_server_clock_can_be_set_behind_or_ahead(emu: Emulator) -> None:
    answer = emu.control("POST", "config", {"clock_offset": -90})
    assert answer["clock_offset"] == -90.0 and emu.control("POST", "config", {})["clock_offset"] == -90.0
    assert emu.call("POST", "/api/groups", {"name": "behind", "peers": []}).status == 200
    answer = emu.call("GET", "/api/events")
    stamp = dt.datetime.fromisoformat(answer.body[0]["timestamp"][:19] + "+00:00")
    machine = dt.datetime.now(dt.timezone.utc)
    assert dt.timedelta(seconds=85) < machine - stamp < dt.timedelta(seconds=120), (machine, stamp)
    date = email.utils.parsedate_to_datetime(answer.headers["Date"])
    assert dt.timedelta(seconds=85) < machine - date < dt.timedelta(seconds=120), (machine, date)
    assert emu.raw("POST", "/_emulator/config", b'{"clock_offset": "soon"}').status == 400
    emu.reset()  # the machine's clock again
    assert "clock_offset" not in emu.control("POST", "config", {})


def test_bad_fault_config_is_rejected(emu: Emulator) -> None:
    response = emu.raw("POST", "/_emulator/faults", b'{"kinds": ["boom"]}')
    assert response.status == 400


def test_cli_faults_option() -> None:
    emulator = start_emulator("seed", "--faults", "rate=1.0,kinds=503,seed=1")
    try:
        assert emulator.call("GET", "/api/groups").status == 503
        assert emulator.control("GET", "faults")["rate"] == 1.0
    finally:
        emulator.stop()


def test_no_geo_and_no_idp_flags() -> None:
    emulator = start_emulator("netbird", "--no-geo", "--no-idp")
    try:
        response = emulator.call("GET", "/api/locations/countries")
        assert response.status == 412
        assert response.body["message"] == "geo location database is not initialized"
        invite = emulator.call("POST", "/api/users", {"email": "a@b.c", "name": "A", "role": "user",
                                                      "auto_groups": [], "is_service_user": False})
        assert invite.status == 412
        check = emulator.call("POST", "/api/posture-checks", {"name": "geo", "description": "", "checks": {
            "geo_location_check": {"action": "allow", "locations": [{"country_code": "DE"}]}}})
        assert check.status == 412
    finally:
        emulator.stop()


INVITE = {"email": "a@b.c", "name": "A", "role": "user", "auto_groups": [], "is_service_user": False}


@pytest.mark.parametrize("dialect, extra, invites", [
    ("netbird", (), False),       # a self-hosted v0.27.6 server has no identity provider unless configured
    ("netbird", ("--idp",), True),
    ("seed", (), True),
    ("seed", ("--no-idp",), False),
])
def test_identity_provider_by_dialect(dialect: str, extra: tuple[str, ...], invites: bool) -> None:
    emulator = start_emulator(dialect, *extra)
    try:
        response = emulator.call("POST", "/api/users", INVITE)
        if invites:
            assert response.status == 200, response
        else:
            assert response.status == 412 and response.body["message"] == "idp manager must be enabled to send user invites"
        # switched for a test until the next reset
        assert emulator.control("POST", "config", {"idp": not invites}) == {"idp": not invites}
        again = emulator.call("POST", "/api/users", dict(INVITE, email="b@b.c"))
        assert again.status == (200 if not invites else 412)
        emulator.reset()
        third = emulator.call("POST", "/api/users", dict(INVITE, email="c@b.c"))
        assert third.status == (200 if invites else 412)
    finally:
        emulator.stop()


def test_tls(tmp_path: Path) -> None:
    pki = make_test_pki(str(tmp_path))
    emulator = start_emulator("seed", "--tls-cert", pki["server_cert"], "--tls-key", pki["server_key"])
    try:
        assert emulator.url.startswith("https://127.0.0.1:")
        context = ssl.create_default_context(cafile=pki["ca_cert"])
        connection = http.client.HTTPSConnection(emulator.host, emulator.port, context=context, timeout=10)
        connection.request("GET", "/api/groups", headers={"Authorization": f"Token {emulator.token}"})
        assert connection.getresponse().status == 200
        # a silent client must not block others
        silent = socket.create_connection((emulator.host, emulator.port))
        connection = http.client.HTTPSConnection(emulator.host, emulator.port, context=context, timeout=10)
        connection.request("GET", "/api/groups", headers={"Authorization": f"Token {emulator.token}"})
        assert connection.getresponse().status == 200
        silent.close()
    finally:
        emulator.stop()


@pytest.mark.parametrize("size,peers,groups", [("S", 100, 6), ("XL", 25000, 51)])
def test_seed_sizes_start_and_list_in_full(size: str, peers: int, groups: int) -> None:
    """Each seed size starts (a ready line within the start timeout, tests/support/emulator.py) and its lists answer
    in full (within the HTTP timeout). How fast is measured by ``make bench`` (tests/bench), not asserted here."""
    emulator = start_emulator("netbird", "--seed-size", size, token=make_token())
    try:
        assert emulator.process.poll() is None
        listed = emulator.ok("GET", "/api/peers")
        assert len(listed) == peers
        assert all(p["accessible_peers_count"] == peers - 1 for p in listed[:50])
        assert len(emulator.ok("GET", "/api/groups")) == groups
    finally:
        emulator.stop()
