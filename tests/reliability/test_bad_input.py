# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 2: generated argument sets for every module end cleanly; invalid ones send nothing.

For every module in plugins/modules that meta/runtime.yml lists, hypothesis draws argument sets
from the module's own argument_spec (as the module hands it to AnsibleModule): plausible values,
wrong types, out-of-range numbers, unknown choices, strange strings, unknown options. Each set is
run in-process against the emulator (reset first). Asserted for every example:

* the run ends in exit_json or fail_json: no exception, no ``exception`` key, exit code 0 or 1;
* a failure has a message that names an option, or is an API failure with method, path and status,
  or names what is wrong in the task's own terms (an option value quoted back);
* when AnsibleModule's validation rejects the set (oracle: ArgumentSpecValidator on the same spec),
  the emulator logged no request; when the module's own check fails (``option X: ...`` anywhere in
  the message, also behind network_state's ``nothing was changed: groups[0] (x): ``), the emulator
  logged no request either, except for the few checks in NEEDS_SERVER that compare an option with
  what the server holds: those may read (GET), never write;
* every module really ran at least EXAMPLES generated argument sets;
* the server never answered a request of the module with 400 or 422 (what the server would reject
  must be rejected by the module first, naming the option);
* the API token appears nowhere in the result.

Examples per module: 50 (``make test``), 200 with NMS_STRESS=1 (``make stress``).
"""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings

from tests.reliability.conftest import connection_of
from tests.reliability.harness import API_ERROR_RE, FIGURES, STRESS, example_args, is_info, module_names, module_spec
from tests.reliability.secrets import assert_no_secrets
from tests.reliability.strategies import NOT_TEXTS, module_args, option_paths, path_text, rule_of, spec_errors
from tests.support.inprocess import assert_clean_end, describe, run_module

EXAMPLES = int(os.environ.get("NMS_BAD_INPUT_EXAMPLES", "200" if STRESS else "50"))
# An option failure, anywhere in the message (network_state puts the entry first: "nothing was
# changed: groups[0] (office): option peers: ..."): "option X: ...", "option X is required ...",
# "option X or option Y is required ...", "options X and Y contradict each other ...".
OPTION_ERROR_RE = re.compile(r"(?<![\w-])options? [\w.\[\]-]+(?:: | is | or option | and )")
# The option checks that cannot be made without the server. A failure of one of these may come after
# reads (GET), never after a write; every other option failure must come before any request.
NEEDS_SERVER = {
    # account_settings state=absent: confirm_account_id must equal the id of the one account, which
    # only GET /api/accounts tells (_identity.py AccountSettings.delete_account).
    "confirm_account_id is the account's id": re.compile(
        r"option confirm_account_id: '.*' is not the id of this account"),
    # Options needed to create but not to update (role/name/email of a user, the _resource.py
    # required_on_create list, peer or peer_groups of a route): whether the resource is created
    # depends on whether it exists, which only a read of the server tells.
    "required to create": re.compile(r"(?:option \S+ (?:or option \S+ )?is|options \S+(?: and \S+)+ are) required to (?:create|invite)"),
    # policy: a rule needs its groups when it is new, and a rule is new when the policy read from the
    # server has no rule of that name (_access.py).
    "required for a new rule": re.compile(r"option rules\[\d+\] \(.*\): .* required for a new rule"),
    # user: nobody can change their own role; which user the token acts as only GET /api/users tells
    "own role": re.compile(r"option role: the user .* is the one this task acts as"),
    # an option of today's servers (a Field's requires, a peer's new ip): whether the server has it only
    # GET /api/instance/version tells (_server.py)
    "server generation": re.compile(r"option \S+: this server \(.*\) (?:does not have it|cannot )"),
}
# ansible-core's own messages that name no option (the collection cannot change them): counted, reported
CORE_MESSAGES_WITHOUT_OPTION = ("dictionary requested, could not parse JSON or key=value",)

# Collect a per-module tally of outcomes (printed in the reliability figures at the end). Every
# example counts in exactly one of OUTCOMES; "core-message" (spec-invalid ones) and "option-invalid
# after reads" (option-invalid ones that read first) are subsets, not counted again.
OUTCOMES = ("ok", "spec-invalid", "option-invalid", "other-failure")
TALLY = {}


def _names_an_option(msg, spec, args):
    names = set(spec["argument_spec"]) | set(args)
    for opts in spec["argument_spec"].values():
        names |= set((opts or {}).get("options") or {})
    # ansible-core masks every occurrence of a no_log option's value in a failure (a password 'a' turns "password"
    # into "p********ssword"): the message as the module wrote it is one of those values put back
    hidden = [str(value) for option, value in args.items() if (spec["argument_spec"].get(option) or {}).get("no_log")
              and isinstance(value, str) and value]
    texts = [msg] + [msg.replace("********", value) for value in hidden]
    return any(re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(n), text) for n in names if n for text in texts)


def _quotes_a_value(msg, args):
    for value in args.values():
        if isinstance(value, str) and len(value.strip()) >= 3 and value in msg:
            return True
    return False


def check_example(name, emulator, args, tally=None):
    """Run one argument set and check it (see the module docstring); return its outcome (OUTCOMES)."""
    spec = module_spec(name)
    emulator.reset()
    result = run_module(name, args)
    log = emulator.requests()
    timeout = args.get("timeout")
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout < 1:
        # a request the client gave up on may still reach the emulator's log after this: let it land now, not in
        # the next example's log (a loaded machine made a later example's "invalid input sent requests" fail)
        time.sleep(0.3)
    assert_clean_end(name, args, result)
    context = "module %s with %r -> %s\nrequests: %r" % (name, args, describe(result), log)
    # (the token in ``invocation`` after a failed suboption check is test_token_never_in_invocation's)
    assert_no_secrets(json.dumps({k: v for k, v in result.items() if k not in ("invocation", "_stdout")}), [emulator.token])
    assert_no_secrets("\n".join("%s?%s" % (e["path"], e.get("query") or "") for e in log), [emulator.token])
    bad = [entry for entry in log if entry.get("status") in (400, 422)]
    assert not bad, "the server rejected what the module sent (the module must validate it first): " + context
    invalid = spec_errors(spec, dict(args))
    tally = TALLY.setdefault(name, {}) if tally is None else tally
    for key in OUTCOMES + ("requests",):
        tally.setdefault(key, 0)
    tally["requests"] += len(log)
    if invalid:
        tally["spec-invalid"] += 1
        assert result.get("failed"), "AnsibleModule would reject %r (%s) but the module succeeded: %s" % (
            args, invalid, context)
        assert not log, "invalid input (%s) sent requests: %s" % (invalid, context)
        if result["msg"] in CORE_MESSAGES_WITHOUT_OPTION:
            tally["core-message"] = tally.get("core-message", 0) + 1
            return "spec-invalid"
        assert _names_an_option(result["msg"], spec, args), "message names no option: " + context
        return "spec-invalid"
    if not result.get("failed"):
        tally["ok"] += 1
        return "ok"
    msg = result["msg"]
    if OPTION_ERROR_RE.search(msg):
        tally["option-invalid"] += 1
        assert _names_an_option(msg, spec, args), "message names no option: " + context
        needs_server = [check for check, pattern in NEEDS_SERVER.items() if pattern.search(msg)]
        if needs_server:
            # compared with what the server holds: reads only, nothing written
            tally["option-invalid after reads"] = tally.get("option-invalid after reads", 0) + bool(log)
            assert not [e for e in log if e["method"] != "GET"], "an option failure (%s) after a write: %s" % (
                needs_server[0], context)
            return "option-invalid"
        # the options model runs before any request: invalid input sends nothing
        assert not log, "an option failure sent %d request(s); invalid input must send none: %s" % (len(log), context)
        return "option-invalid"
    tally["other-failure"] += 1
    assert (API_ERROR_RE.search(msg) or _names_an_option(msg, spec, args) or _quotes_a_value(msg, args)), \
        "the failure message names no option, no value and no API call: " + context
    return "other-failure"


@pytest.mark.stress
@pytest.mark.parametrize("name", module_names())
def test_generated_arguments_end_cleanly(name, emulator):
    module_spec(name)  # fails here, clearly, when the module cannot be imported
    captured = module_spec(name)
    connection = connection_of(emulator)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=not STRESS, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                     HealthCheck.filter_too_much, HealthCheck.data_too_large])
    @given(args=module_args(captured, connection))
    def check(args):
        check_example(name, emulator, args)

    TALLY.pop(name, None)
    started = time.monotonic()
    check()
    tally = TALLY.get(name, {})
    examples = sum(tally.get(k, 0) for k in OUTCOMES)
    FIGURES.setdefault("bad input", {})[name] = "%d examples in %.1fs: %s" % (
        examples, time.monotonic() - started, ", ".join("%s %d" % item for item in sorted(tally.items())))
    assert examples >= EXAMPLES, "only %d generated argument sets ran for %s, %d were asked for" % (
        examples, name, EXAMPLES)


# network_state checks every entry's options before any request, and words a failure with the entry
# first ("nothing was changed: setup_keys[0] (k): option usage_limit: ..."). Generated sets rarely get
# that far (most fail the suboption spec), so these pass the spec and fail an entry's own check.
@pytest.mark.parametrize("entries", [
    {"setup_keys": [{"name": "k", "type": "one-off", "usage_limit": 5}]},
    {"groups": [{"name": "office"}], "policies": [{"name": "p", "rules": []}]},
    {"groups": [{"name": "office"}], "account_settings": {"state": "absent"}},
], ids=["setup_key usage_limit", "policy rules", "account confirm_account_id"])
def test_network_state_option_failures_send_no_request(entries, emulator):
    if "network_state" not in module_names():
        pytest.skip("network_state is not there yet")
    tally = {}
    outcome = check_example("network_state", emulator, dict(connection_of(emulator), **entries), tally=tally)
    assert outcome == "option-invalid", tally


def test_an_id_that_is_another_groups_name_fails_listing_both(any_emulator):
    """Issue 18, point 12, through the API in both dialects: a group named like another group's id makes that id
    ambiguous wherever a group is referred to (here a setup key's auto_groups); the task fails before any write."""
    emu = any_emulator
    status, first = emu.api("POST", "/groups", {"name": "servers", "peers": []})
    assert status == 200, first
    status, second = emu.api("POST", "/groups", {"name": str(first["id"]), "peers": []})
    assert status == 200, second
    emu.clear_log()
    args = dict(connection_of(emu), name="k", type="reusable", auto_groups=[str(first["id"])])
    result = run_module("setup_key", args)
    assert_clean_end("setup_key", args, result)
    assert result.get("failed"), result
    assert "is the id of the group 'servers' (id %s) and the name of the group with id %s" % (
        first["id"], second["id"]) in result["msg"], result["msg"]
    assert emu.writes() == []


def _rule_cases():
    """(module, option path, rule, bad values) for every option of every module whose name has a rule
    (strategies.RULE_BAD_VALUES), at any depth; and (module, option path, 'a string', NOT_TEXTS) for every text option
    and every element of a list of texts (info modules too)."""
    cases = []
    for name in module_names():
        for path, spec in option_paths(module_spec(name)["argument_spec"]):
            rule = rule_of(path[-1])
            if rule and not is_info(name) and spec.get("type", "str") in ("str", "int", "list"):
                cases.append((name, path, rule[0], rule[1]))
            texts = spec.get("type", "str") in ("str", "path") or (spec.get("type") == "list" and spec.get("elements") in ("str", "path"))
            if texts and not spec.get("options"):
                cases.append((name, path + ((0,) if spec.get("type") == "list" else ()), "a string", NOT_TEXTS))
    return cases


RULE_CASES = _rule_cases()


def _with_value(args, path, value):
    """``args`` with ``value`` at ``path`` (a list's first element, a suboption), the steps before it made where
    missing."""
    args = json.loads(json.dumps(args))
    place = args
    for step, following in zip(path[:-1], path[1:]):
        default = [] if isinstance(following, int) else {}
        if isinstance(step, int):
            while len(place) <= step:
                place.append(default)
            place = place[step]
        else:
            if not isinstance(place.get(step), type(default)) or (isinstance(default, list) and not place.get(step)):
                place[step] = [{}] if isinstance(default, list) and not isinstance(following, int) else default
            place = place[step]
    if isinstance(path[-1], int):
        place[:1] = [value]
    else:
        place[path[-1]] = value
    return args


# the argument sets of modules whose documented examples that set the option are templated (a secret from a vault)
TEMPLATED_EXAMPLES = {
    "agent_network_provider": {"name": "p", "provider_id": "custom", "upstream_url": "https://llm.example.com", "api_key": "k"},
    "identity_provider": {"name": "i", "type": "oidc", "issuer": "https://sso.example.com", "client_id": "c",
                          "client_secret": "idp-secret-1"},
    "instance": {"email": "owner@example.com", "name": "Owner", "password": "correct-horse-9"},
    "peer_temporary_access": {"peer": "web-1", "name": "laptop", "wg_pub_key": "n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA=",
                              "rules": ["tcp/22"]},
}


def _base_args(name, path):
    """The first documented example of the module that sets the option's first step (else its first example)."""
    examples = [args for dummy_title, args in example_args(name) if args.get("state") != "absent"]
    if name in TEMPLATED_EXAMPLES:
        examples.insert(0, TEMPLATED_EXAMPLES[name])
    examples = examples or [{}]
    return next((args for args in examples if path[0] in args), examples[0])


@pytest.mark.parametrize("name,path,rule,values", RULE_CASES,
                         ids=["%s %s" % (case[0], path_text(case[1])) for case in RULE_CASES])
def test_every_rule_refuses_its_bad_values_before_any_request(name, path, rule, values, emulator):
    """Issue 44, points 8 and 9, for every module: an option with a rule (an email, a port, a DNS name, a URL, a
    WireGuard key, a lifetime), given a value that rule refuses, in the module's own documented example, fails naming
    the option, with no request sent; so does every text option given a list or a dictionary."""
    base = _base_args(name, path)
    for value in values:
        args = dict(connection_of(emulator), **_with_value(base, path, value))
        emulator.reset()
        result = run_module(name, args)
        assert_clean_end(name, args, result)
        context = "module %s, %s %r (%s) -> %s" % (name, path_text(path), value, rule, describe(result))
        assert result.get("failed"), "accepted: " + context
        shown = path_text(path)
        assert re.search(r"(?<![\w.\[\]])(option |argument ')%s(?![\w\[])" % re.escape(shown), result["msg"]), "names no option: " + context
        assert emulator.requests() == [], "sent requests: " + context
