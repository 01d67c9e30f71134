# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 18, items 7, 14, 15 and 16: the connection under slow and wrong servers, in real HTTP.

* ``timeout`` bounds a whole try, body included: a server that drips its body fails the task near
  the timeout (it used to hold it until the last byte and then succeed).
* every failure names the full URL requested; a 404 that is not the API's hints at ``api_url``.
* retries and Retry-After waits are warnings naming the wait and the cause; the final error counts
  the tries and names ``retries``.
* a missing ``api_url`` or ``api_token`` names its environment variable, like an empty one.
"""

from __future__ import annotations


import pytest

from tests.reliability.conftest import connection_of
from tests.reliability.harness import FIGURES, RawServer, drip_answer
from tests.reliability.secrets import assert_no_secrets
from tests.support.inprocess import assert_clean_end, describe, run_module

TOKEN = "nbp_" + "0" * 36


def _warnings(result):
    return [str(w.get("event", {}).get("msg") if isinstance(w, dict) else w) for w in result.get("warnings") or []]


def test_timeout_bounds_the_whole_request_of_a_server_that_drips_its_body(clock):
    """10 bytes, one every 0.5 s (5 s), against timeout 1 and one retry: two tries, each given up before its body
    came, and a pause of 0.5 s between them (on the fake clock)."""
    with RawServer(drip_answer(b"[        ]", 0.5)) as server:
        args = dict(api_url="http://127.0.0.1:%d" % server.port, api_token=TOKEN, timeout=1, retries=1)
        result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), "a body that took 5 s passed a timeout of 1 s: " + describe(result)
    assert result["msg"] == ("GET http://127.0.0.1:%d/api/groups failed with HTTP 200: the answer did not arrive in full "
                             "within the timeout of 1 s (2 tries, retries=1)" % server.port), describe(result)
    assert server.requests == 2
    assert clock.waits == [0.5], "the pause between the tries: %r" % clock.waits
    FIGURES.setdefault("connection", {})["drip, timeout 1, retries 1"] = result["msg"][:120]


def answering(seen, body=b"[]"):
    """An answer of ``body`` (JSON) to every request; the text of each request is added to ``seen``."""
    def answer(conn, request):
        seen.append(request.decode("latin-1"))
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Connection: close\r\n\r\n%s" % (len(body), body))
    return answer


def test_a_netrc_entry_for_the_server_never_replaces_the_token(tmp_path):
    """requests, left to read the environment itself, would send the login of a ~/.netrc entry for the server (Basic
    auth) in place of the token: the task would fail with a 401 that names neither."""
    netrc = tmp_path / "netrc"
    seen = []
    with RawServer(answering(seen)) as server:
        netrc.write_text("machine 127.0.0.1 login someone password netrc-password\n", encoding="utf-8")
        netrc.chmod(0o600)
        args = dict(api_url="http://127.0.0.1:%d" % server.port, api_token=TOKEN)
        result = run_module("group_info", args, environment={"NETRC": str(netrc)})
    assert_clean_end("group_info", args, result)
    assert not result.get("failed"), describe(result)
    assert seen, "no request reached the server"
    for request in seen:
        headers = request.lower()
        assert "\r\nauthorization: token %s\r\n" % TOKEN in headers and "basic" not in headers, request


def test_the_proxy_of_the_environment_is_used_unless_no_proxy_names_the_server():
    """The session trusts nothing of the environment by itself: the Client takes the proxies requests would take from
    it (the task's environment included), once, so HTTP_PROXY and NO_PROXY work as they always did."""
    direct, proxied = [], []
    with RawServer(answering(direct)) as server, RawServer(answering(proxied)) as proxy:
        url = "http://127.0.0.1:%d" % server.port
        args = dict(api_url=url, api_token=TOKEN)
        through = {name: "http://127.0.0.1:%d" % proxy.port for name in ("HTTP_PROXY", "http_proxy")}
        result = run_module("group_info", args, environment=dict(through, NO_PROXY="", no_proxy=""))
        assert not result.get("failed"), describe(result)
        assert proxied and not direct, (proxied, direct)
        assert proxied[0].startswith("GET %s/api/groups HTTP/1.1\r\n" % url), proxied[0]
        del proxied[:]
        result = run_module("group_info", args, environment=dict(through, NO_PROXY="127.0.0.1", no_proxy="127.0.0.1"))
        assert not result.get("failed"), describe(result)
        assert direct and not proxied, (proxied, direct)
        assert direct[0].startswith("GET /api/groups HTTP/1.1\r\n"), direct[0]


def test_retries_and_waits_are_warnings_and_the_error_counts_the_tries(emulator, clock):
    # the 429 is waited out without counting as a retry: the two 503s after it use up retries=2
    emulator.set_faults({"queue": [{"status": 503}, {"status": 429, "retry_after": 1}, {"status": 503}, {"status": 503}]})
    args = connection_of(emulator, retries=2)
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    url = "%s/api/groups" % emulator.url
    assert result.get("failed"), describe(result)
    assert result["msg"].startswith("GET %s failed with HTTP 503: " % url), describe(result)
    assert result["msg"].endswith(" (4 tries, retries=2)"), describe(result)
    warnings = _warnings(result)
    assert len(warnings) == 3, describe(result)
    assert warnings[0].startswith("GET %s failed with HTTP 503: " % url), warnings
    assert warnings[0].endswith("; trying again in 0.5 s (try 2 of 3, retries=2)"), warnings
    assert warnings[1].startswith("GET %s failed with HTTP 429: " % url), warnings
    assert warnings[1].endswith("; waiting 1 s as the server asked (Retry-After), then sending it again (rate limit: 0 s "
                                "waited for it so far, at most 600 s for one request; a 429 does not count against "
                                "retries)"), warnings
    assert warnings[2].endswith("; trying again in 1 s (try 3 of 3, retries=2)"), warnings
    assert clock.waits == [0.5, 1, 1.0], "the back-off, the server's Retry-After, the back-off: %r" % clock.waits
    assert [entry["status"] for entry in emulator.requests()] == [503, 429, 503, 503]
    assert_no_secrets(describe(result), [emulator.token])
    FIGURES.setdefault("connection", {})["retry warning"] = warnings[1][:160]


def test_a_create_sent_again_after_429_warns_of_the_wait(emulator):
    emulator.set_faults({"queue": [{"delay": 0.01}, {"status": 429, "retry_after": 1}]})  # the list passes, the POST not
    args = dict(connection_of(emulator, retries=1), name="after-429", peers=[])
    result = run_module("group", args)
    assert_clean_end("group", args, result)
    assert result.get("changed") and not result.get("failed"), describe(result)
    warnings = _warnings(result)
    assert any(w.startswith("POST %s/api/groups failed with HTTP 429: " % emulator.url)
               and "waiting 1 s as the server asked (Retry-After), then sending it again" in w for w in warnings), describe(result)
    assert [w["method"] for w in emulator.writes()] == ["POST", "POST"]


def test_an_api_url_without_the_api_behind_it_names_the_url_and_hints_at_api_url(emulator):
    wrong = emulator.url + "/dashboard"
    args = dict(connection_of(emulator), api_url=wrong)
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    assert result["msg"] == ("GET %s/api/groups failed with HTTP 404: 404 page not found (there is no API at this URL: "
                             "check api_url, the server's address such as https://nms.example.com, with or without /api)"
                             % wrong), describe(result)
    assert emulator.token not in result["msg"]


@pytest.mark.parametrize("option, variable", [("api_url", "NMS_API_URL"), ("api_token", "NMS_API_TOKEN")])
@pytest.mark.parametrize("how", ["missing", "empty"])
def test_a_missing_or_empty_url_or_token_names_its_environment_variable(emulator, monkeypatch, option, variable, how):
    monkeypatch.delenv("NMS_API_URL", raising=False)
    monkeypatch.delenv("NMS_API_TOKEN", raising=False)
    args = connection_of(emulator)
    if how == "missing":
        del args[option]
    else:
        args[option] = ""
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    assert result["msg"] == "option %s: it is not set or empty (set %s or the environment variable %s)" % (
        option, option, variable), describe(result)
    assert emulator.requests() == []
