# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 6: over HTTPS with a test CA, ca_path works, no CA fails clearly, validate_certs=false warns.

Issue 18, item 11: TLS failures point at their real cause: a certificate for another name (the URL's
host, not ca_path), a ca_path without a certificate, an https URL on a plain-http server, an http URL
on a TLS server.

The emulator serves HTTPS with a certificate for 127.0.0.1 signed by a throw-away CA, made in
Python by tests/emulator/tls.py (the ``cryptography`` package, a dependency of ansible-core; no
openssl CLI needed). group_info and group run in-process against it. Nothing here skips: a missing
package or a failure to make the certificates is an error of these tests.
"""

from __future__ import annotations

import os
import ssl

import pytest

from tests.emulator import tls
from tests.reliability.conftest import connection_of
from tests.reliability.harness import FIGURES, RawServer
from tests.reliability.secrets import assert_no_secrets
from tests.support.inprocess import assert_clean_end, describe, run_module
from tests.support.emulator import running_emulator


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    base = tmp_path_factory.mktemp("pki")
    good = tls.make_test_pki(str(base / "good"))
    other = tls.make_test_pki(str(base / "other"), name="some other CA")
    elsewhere = tls.make_test_pki(str(base / "elsewhere"), name="a CA of another host", hosts=("nms.example.com",))
    # CAs that OpenSSL accepts but Python 3.13's strict checks refuse
    no_key_usage = tls.make_test_pki(str(base / "no-key-usage"), name="a CA without key usage", ca_key_usage=False)
    not_critical = tls.make_test_pki(str(base / "not-critical"), name="a CA with basicConstraints not critical",
                                     ca_constraints_critical=False)
    return {"good": good, "other": other, "elsewhere": elsewhere, "no key usage": no_key_usage,
            "not critical": not_critical}


@pytest.fixture(scope="module")
def https_emulator(pki, tmp_path_factory):
    context = ssl.create_default_context(cafile=pki["good"]["ca_cert"])
    with running_emulator("netbird", str(tmp_path_factory.mktemp("https")), ssl_context=context,
                          extra_args=["--tls-cert", pki["good"]["server_cert"], "--tls-key", pki["good"]["server_key"]]) as emu:
        yield emu


@pytest.fixture
def https(https_emulator):
    https_emulator.reset()
    return https_emulator


def test_emulator_speaks_https(https):
    assert https.url.startswith("https://127.0.0.1:")


def test_ca_path_makes_requests_succeed(https, pki):
    args = connection_of(https, ca_path=pki["good"]["ca_cert"])
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert not result.get("failed"), describe(result)
    assert [g["name"] for g in result["groups"]] == ["All"]
    assert not result.get("warnings"), describe(result)
    created = run_module("group", dict(args, name="over-tls", peers=[]))
    assert created.get("changed") and not created.get("failed"), describe(created)
    assert [w["method"] for w in https.writes()] == ["POST"]


@pytest.mark.parametrize("ca", ["none", "other"])
def test_unknown_ca_fails_clearly_without_retrying(https, pki, ca, clock):
    args = connection_of(https, retries=3)
    if ca == "other":
        args["ca_path"] = pki["other"]["ca_cert"]
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    msg = result["msg"]
    assert msg.startswith("GET %s/api/groups failed: TLS error" % https.url), describe(result)
    assert "certificate" in msg.lower() and "ca_path" in msg and "validate_certs" in msg, describe(result)
    assert https.requests() == [], "nothing may reach the API without a verified certificate"
    assert clock.waits == [], "a certificate failure is not retried (retries=3 waited %r)" % clock.waits
    assert_no_secrets(describe(result), [https.token])
    FIGURES.setdefault("tls", {})["CA %s" % ca] = msg[:140]


def test_validate_certs_false_works_with_a_warning(https):
    args = connection_of(https, validate_certs=False)
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert not result.get("failed"), describe(result)
    warnings = " ".join(str(w) for w in result.get("warnings") or [])
    assert "validate_certs" in warnings and "not verified" in warnings, describe(result)
    assert "InsecureRequestWarning" not in result.get("_stderr", "")
    FIGURES.setdefault("tls", {})["validate_certs=false"] = warnings[:140]


def test_missing_ca_path_fails_before_any_request(https, tmp_path):
    missing = os.path.join(str(tmp_path), "no-such-ca.pem")
    args = connection_of(https, ca_path=missing)
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed") and "ca_path" in result["msg"] and missing in result["msg"], describe(result)
    assert https.requests() == []


def _empty_list(conn, dummy):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]")


def test_a_certificate_for_another_name_names_the_host_not_ca_path(pki):
    """The CA is right (ca_path), the certificate is for nms.example.com, the URL says 127.0.0.1."""
    elsewhere = pki["elsewhere"]
    with RawServer(_empty_list, cert=elsewhere["server_cert"], key=elsewhere["server_key"]) as server:
        args = dict(api_url="https://127.0.0.1:%d" % server.port, api_token="nbp_" + "0" * 36, timeout=5.0, retries=2,
                    ca_path=elsewhere["ca_cert"])
        result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    assert result["msg"] == (
        "GET https://127.0.0.1:%d/api/groups failed: TLS error: the server certificate is not valid for 127.0.0.1, the "
        "host in api_url; use a host name (or address) the certificate was issued for (ca_path does not change this)"
        % server.port), describe(result)
    assert server.requests == 0
    FIGURES.setdefault("tls", {})["name mismatch"] = result["msg"][:160]


def test_a_ca_path_without_a_certificate_says_so_before_any_request(https, tmp_path):
    not_a_ca = tmp_path / "ca.pem"
    not_a_ca.write_text("# the CA certificate goes here\n")
    args = connection_of(https, ca_path=str(not_a_ca))
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    assert result["msg"].startswith("option ca_path: %s holds no certificate in PEM form" % not_a_ca), describe(result)
    assert "SSLError" not in result["msg"]
    assert https.requests() == []


@pytest.mark.parametrize("validate_certs", [True, False])
def test_https_on_a_plain_http_server_says_it_does_not_speak_tls(emulator, validate_certs):
    plain = emulator.url.replace("http://", "https://")
    args = dict(connection_of(emulator, validate_certs=validate_certs, retries=2), api_url=plain)
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    msg = result["msg"]
    assert msg.startswith("GET %s/api/groups failed: TLS error: the server at %s does not speak TLS (" % (plain, plain)), msg
    assert msg.endswith("if it serves plain http, use an http:// URL in api_url"), msg
    assert "validate_certs" not in msg and "ca_path" not in msg, msg
    FIGURES.setdefault("tls", {})["https on http (validate_certs=%s)" % validate_certs] = msg[:160]


def test_http_on_a_tls_server_hints_at_https(https):
    plain = https.url.replace("https://", "http://")
    args = dict(connection_of(https), api_url=plain)
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    assert result["msg"].startswith("GET %s/api/groups failed: connection failed: " % plain), describe(result)
    assert "use an https:// URL in api_url" in result["msg"], describe(result)
    FIGURES.setdefault("tls", {})["http on https"] = result["msg"][:160]


@pytest.mark.parametrize("ca", ["none", "other"])
def test_the_unknown_ca_hint_depends_on_whether_ca_path_is_set(https, pki, ca):
    """Without ca_path: set it. With a ca_path of another CA: that CA did not sign the certificate (naming the file)."""
    args = connection_of(https, retries=0)
    if ca == "other":
        args["ca_path"] = pki["other"]["ca_cert"]
    result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    msg = result["msg"]
    assert "unable to get local issuer certificate" in msg, msg
    if ca == "none":
        assert "; set ca_path to the CA that signed the server certificate" in msg, msg
    else:
        assert ("the server certificate is not signed by a CA in ca_path (%s): set ca_path to the CA that signed it"
                % pki["other"]["ca_cert"]) in msg, msg
    assert https.requests() == []


@pytest.mark.skipif(not getattr(ssl, "VERIFY_X509_STRICT", 0)
                    or not ssl.create_default_context().verify_flags & ssl.VERIFY_X509_STRICT,
                    reason="this Python does not verify certificates strictly (Python 3.13 and later do)")
@pytest.mark.parametrize("ca, refusal", [
    ("no key usage", "CA cert does not include key usage extension"),
    ("not critical", "Basic Constraints of CA cert not marked critical"),
])
def test_a_ca_python_refuses_strictly_is_named_not_set_ca_path(pki, ca, refusal):
    """ca_path is set and holds the CA that signed the certificate, but the CA breaks the strict checks: the message
    says what the refusal was and that reissuing the CA (not another ca_path) helps."""
    broken = pki[ca]
    with RawServer(_empty_list, cert=broken["server_cert"], key=broken["server_key"]) as server:
        args = dict(api_url="https://127.0.0.1:%d" % server.port, api_token="nbp_" + "0" * 36, timeout=5.0, retries=0,
                    ca_path=broken["ca_cert"])
        result = run_module("group_info", args)
    assert_clean_end("group_info", args, result)
    msg = result["msg"]
    assert result.get("failed") and refusal in msg, describe(result)
    assert ("the CA in ca_path (%s) breaks the strict certificate checks of Python 3.13 and later" % broken["ca_cert"]
            in msg), msg
    assert "reissue the CA certificate" in msg and "another ca_path does not help" in msg, msg
    assert "set ca_path to the CA" not in msg, msg
    assert server.requests == 0
