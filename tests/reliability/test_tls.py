# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 6: over HTTPS with a test CA, ca_path works, no CA fails clearly, validate_certs=false warns.

The emulator serves HTTPS with a certificate for 127.0.0.1 signed by a throw-away CA, made in
Python by tests/emulator/tls.py (the ``cryptography`` package, a dependency of ansible-core; no
openssl CLI needed). group_info and group run in-process against it. Nothing here skips: a missing
package or a failure to make the certificates is an error of these tests.
"""

from __future__ import annotations

import os
import ssl
import time

import pytest

from tests.emulator import tls
from tests.reliability.conftest import connection_of
from tests.reliability.harness import FIGURES, Emulator, assert_clean_end, describe, run_module
from tests.reliability.secrets import assert_no_secrets


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    base = tmp_path_factory.mktemp("pki")
    good = tls.make_test_pki(str(base / "good"))
    other = tls.make_test_pki(str(base / "other"), name="some other CA")
    return {"good": good, "other": other}


@pytest.fixture(scope="module")
def https_emulator(pki, tmp_path_factory):
    context = ssl.create_default_context(cafile=pki["good"]["ca_cert"])
    try:
        emu = Emulator(str(tmp_path_factory.mktemp("https")), dialect="netbird", ssl_context=context,
                       extra_args=["--tls-cert", pki["good"]["server_cert"], "--tls-key", pki["good"]["server_key"]])
    except RuntimeError as exc:
        pytest.fail("the HTTPS emulator did not start: %s" % exc)
    yield emu
    emu.stop()


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
def test_unknown_ca_fails_clearly_without_retrying(https, pki, ca):
    args = connection_of(https, retries=3)
    if ca == "other":
        args["ca_path"] = pki["other"]["ca_cert"]
    started = time.monotonic()
    result = run_module("group_info", args)
    elapsed = time.monotonic() - started
    assert_clean_end("group_info", args, result)
    assert result.get("failed"), describe(result)
    msg = result["msg"]
    assert msg.startswith("GET /groups failed: TLS error"), describe(result)
    assert "certificate" in msg.lower() and "ca_path" in msg and "validate_certs" in msg, describe(result)
    assert https.requests() == [], "nothing may reach the API without a verified certificate"
    assert elapsed < 2.0, "a certificate failure is not retried (took %.1fs with retries=3)" % elapsed
    assert_no_secrets(describe(result), [https.token])
    FIGURES.setdefault("tls", {})["CA %s" % ca] = "%s (%.2fs)" % (msg[:140], elapsed)


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
