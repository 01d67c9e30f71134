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
  the emulator logged no request; when the module's own check fails (``option X: ...``), nothing
  was written (its options model runs before any request; a value compared with the server's,
  like account_settings' confirm_account_id, fails after the read);
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
from tests.reliability.harness import API_ERROR_RE, FIGURES, STRESS, assert_clean_end, describe, module_names, module_spec, run_module
from tests.reliability.secrets import assert_no_secrets
from tests.reliability.strategies import module_args, spec_errors

EXAMPLES = int(os.environ.get("NMS_BAD_INPUT_EXAMPLES", "200" if STRESS else "50"))
OPTION_ERROR_RE = re.compile(r"(^|; )option \S+: ")
# ansible-core's own messages that name no option (the collection cannot change them): counted, reported
CORE_MESSAGES_WITHOUT_OPTION = ("dictionary requested, could not parse JSON or key=value",)

# Collect a per-module tally of outcomes (printed by the summary test at the end).
TALLY = {}


def _names_an_option(msg, spec, args):
    names = set(spec["argument_spec"]) | set(args)
    for opts in spec["argument_spec"].values():
        names |= set((opts or {}).get("options") or {})
    return any(re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(n), msg) for n in names if n)


def _quotes_a_value(msg, args):
    for value in args.values():
        if isinstance(value, str) and len(value.strip()) >= 3 and value in msg:
            return True
    return False


def check_example(name, emulator, args):
    spec = module_spec(name)
    emulator.reset()
    result = run_module(name, args)
    log = emulator.requests()
    assert_clean_end(name, args, result)
    context = "module %s with %r -> %s\nrequests: %r" % (name, args, describe(result), log)
    # (the token in ``invocation`` after a failed suboption check is test_token_never_in_invocation's)
    assert_no_secrets(json.dumps({k: v for k, v in result.items() if k not in ("invocation", "_stdout")}), [emulator.token])
    assert_no_secrets("\n".join("%s?%s" % (e["path"], e.get("query") or "") for e in log), [emulator.token])
    bad = [entry for entry in log if entry.get("status") in (400, 422)]
    assert not bad, "the server rejected what the module sent (the module must validate it first): " + context
    invalid = spec_errors(spec, dict(args))
    tally = TALLY.setdefault(name, {"ok": 0, "spec-invalid": 0, "option-invalid": 0, "other-failure": 0, "requests": 0})
    tally["requests"] += len(log)
    if invalid:
        tally["spec-invalid"] += 1
        assert result.get("failed"), "AnsibleModule would reject %r (%s) but the module succeeded: %s" % (
            args, invalid, context)
        assert not log, "invalid input (%s) sent requests: %s" % (invalid, context)
        if result["msg"] in CORE_MESSAGES_WITHOUT_OPTION:
            tally["core-message"] = tally.get("core-message", 0) + 1
            return
        assert _names_an_option(result["msg"], spec, args), "message names no option: " + context
        return
    if not result.get("failed"):
        tally["ok"] += 1
        return
    msg = result["msg"]
    if OPTION_ERROR_RE.search(msg):
        # the options model fails before any request; an option compared with the server's value
        # (confirm_account_id) fails after reads: either way nothing may have been written
        tally["option-invalid"] += 1
        assert not [e for e in log if e["method"] != "GET"], "an option failure after a write: " + context
        return
    tally["other-failure"] += 1
    assert (API_ERROR_RE.search(msg) or _names_an_option(msg, spec, args) or _quotes_a_value(msg, args)), \
        "the failure message names no option, no value and no API call: " + context


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

    started = time.monotonic()
    check()
    tally = TALLY.get(name, {})
    FIGURES.setdefault("bad input", {})[name] = "%d examples in %.1fs: %s" % (
        sum(v for k, v in tally.items() if k != "requests"), time.monotonic() - started,
        ", ".join("%s %d" % item for item in sorted(tally.items())))
