# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 4: secrets stay out of output (except the one create result) and out of URLs.

* the checker itself (tests/reliability/secrets.py) finds plain, encoded and cut-off secrets;
* a new setup key and a new token value appear only in the result of their create (in
  ``setup_key.key`` / ``plain_token``, never in its diff); later runs of every module that reads
  them (unchanged re-run, info modules, revoke, rotate-free reads) never show them, nor the API token;
* no request of any of those runs carries the API token, a key or a token value in its path or query;
* a failed argument check (a malformed list of suboptions) does not show the API token in the
  result's ``invocation`` (what ``ansible-playbook -vvv`` prints).
"""

from __future__ import annotations

import json

import pytest

from tests.reliability.conftest import connection_of
from tests.reliability.harness import FIGURES, module_names, module_spec, seed_world
from tests.reliability.secrets import assert_no_secrets, find_secrets
from tests.support.inprocess import describe, run_module

TOKEN = "nbp_9999EUDNdkeusjentDLSJEn1902u84390W6W"


# -- the checker ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "token=%s" % TOKEN, "Authorization: Token %s\n" % TOKEN, "u=%s" % TOKEN.replace("_", "%5F"),
    "cut: %s..." % TOKEN[:20], "end ...%s" % TOKEN[-14:], json.dumps({"t": TOKEN}),
])
def test_checker_finds_secrets(text):
    with pytest.raises(AssertionError) as err:
        assert_no_secrets(text, [TOKEN])
    assert TOKEN not in str(err.value), "the checker must not print the secret it found"


def test_checker_allows_the_expected_result_and_ignores_other_text():
    created = json.dumps({"plain_token": TOKEN})
    assert_no_secrets("before %s after" % created, [TOKEN], allowed=[created])
    assert_no_secrets("nbp_ and ******** and VALUE_SPECIFIED_IN_NO_LOG_PARAMETER", [TOKEN])
    assert find_secrets("x %s y %s" % (created, TOKEN), [TOKEN], allowed=[created])


# -- secrets of the API ---------------------------------------------------------------------------


def _present(*names):
    missing = [name for name in names if name not in module_names()]
    if missing:
        pytest.skip("modules not there yet: %s" % ", ".join(missing))


def test_created_secrets_show_once_and_travel_in_no_url(any_emulator):
    _present("setup_key", "setup_key_info", "token", "token_info")
    emu = any_emulator
    seed_world(emu)
    conn = connection_of(emu)
    key_task = dict(conn, name="servers", type="reusable", expires_in="30d", auto_groups=["servers"])
    token_task = dict(conn, user="ci-bot", name="pipeline", expires_in=90)

    created_key = run_module("setup_key", key_task, diff=True)
    created_token = run_module("token", token_task, diff=True)
    assert created_key.get("changed") and created_token.get("changed"), describe(created_key) + describe(created_token)
    key = created_key["setup_key"]["key"]
    plain = created_token["plain_token"]
    if isinstance(plain, dict):
        plain = plain.get("token")
    secrets = [emu.token, key, plain]
    for result, field in ((created_key, json.dumps(created_key["setup_key"]["key"])),
                          (created_token, json.dumps(created_token["plain_token"]))):
        # the secret is in its one field, and nowhere else of the create result (diff, warnings, invocation)
        assert_no_secrets(result["_stdout"], secrets, allowed=[field])
        assert result["_stdout"].count(field) == 1, describe(result)

    later = [
        ("setup_key", key_task, {}), ("setup_key", key_task, {"check_mode": True}),
        ("setup_key_info", conn, {}), ("setup_key_info", dict(conn, name="servers"), {}),
        ("token", token_task, {}), ("token_info", dict(conn, user="ci-bot"), {}),
        ("token_info", dict(conn, user="ci-bot", name="pipeline"), {}),
        ("setup_key", dict(key_task, state="absent"), {"diff": True}),
        ("token", dict(token_task, state="absent"), {"diff": True}),
    ]
    ran = 0
    for name, args, options in later:
        if name not in module_names():
            continue
        result = run_module(name, args, **options)
        assert not result.get("failed"), "%s %r: %s" % (name, args, describe(result))
        assert_no_secrets(result["_stdout"] + result.get("_stderr", ""), secrets)
        ran += 1
    urls = "\n".join("%s %s?%s" % (r["method"], r["path"], r.get("query") or "") for r in emu.requests())
    assert_no_secrets(urls, secrets)
    FIGURES.setdefault("secrets", {})[emu.dialect] = "2 creates + %d later runs clean, %d request URLs clean" % (
        ran, len(emu.requests()))


def _suboption_lists():
    found = []
    for name in module_names():
        spec = module_spec(name)["argument_spec"]
        for option, opts in sorted(spec.items()):
            if (opts or {}).get("options"):
                found.append((name, option))
    return found


@pytest.mark.parametrize("name,option", _suboption_lists())
def test_token_never_in_invocation(name, option, emulator):
    """ansible-core loses every no_log value when a suboption list has a non-dict element."""
    args = dict(connection_of(emulator), name="x")
    args[option] = ["a", "list"]
    if "name" not in module_spec(name)["argument_spec"]:
        del args["name"]
    result = run_module(name, args)
    assert result.get("failed") and "uncaught" not in result, describe(result)
    assert_no_secrets(result["_stdout"], [emulator.token])
    assert emulator.requests() == []
