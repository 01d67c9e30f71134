# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 18, point 13: a task with no_log stays quiet. Ansible prints a task's warnings even when no_log hides its
result, so a warning names the option but never quotes a value the task gave (nor the server's value it is
compared with). Each case runs once with no_log (no value in any warning) and once without (the values are
quoted, so the case does produce the warning), in both dialects."""

from __future__ import annotations

import pytest

from tests.reliability.conftest import connection_of
from tests.support.inprocess import assert_clean_end, run_module

SECRET_NAME = "quiet-Zq81"


def _existing_key(emu):
    status, key = emu.api("POST", "/setup-keys", {"name": SECRET_NAME, "type": "reusable", "expires_in": 2592000,
                                                  "auto_groups": [], "usage_limit": 0, "revoked": False})
    assert status == 200, key


def _existing_token(emu):
    status, token = emu.api("POST", "/users/owner-user/tokens", {"name": SECRET_NAME, "expires_in": 30})
    assert status == 200, token


CASES = {
    # module, prepare, task arguments, the option the warning names, values it must not quote under no_log
    "setup_key type": ("setup_key", _existing_key, dict(name=SECRET_NAME, type="one-off"), "type",
                       ["one-off", "reusable"]),
    "setup_key expires_in": ("setup_key", _existing_key, dict(name=SECRET_NAME, expires_in=172800), "expires_in",
                             ["172800"]),
    "token expires_in": ("token", _existing_token, dict(user="owner@example.com", name=SECRET_NAME, expires_in=7),
                         "expires_in", ["7", "30"]),
    "network_state entry": ("network_state", _existing_key, dict(setup_keys=[dict(name=SECRET_NAME, type="one-off")]),
                            "type", ["one-off", "reusable", SECRET_NAME]),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("no_log", [True, False])
def test_warnings_of_a_no_log_task_quote_no_value(any_emulator, case, no_log):
    name, prepare, task, option, values = CASES[case]
    prepare(any_emulator)
    args = dict(connection_of(any_emulator), **task)
    result = run_module(name, args, no_log=no_log)
    assert_clean_end(name, args, result)
    assert not result.get("failed"), result
    texts = [w["event"]["msg"] if isinstance(w, dict) else w for w in result.get("warnings") or []]  # 2.19: summaries
    warnings = [w for w in texts if option in w]
    assert warnings, "no warning names %s: %r" % (option, result.get("warnings"))
    quoted = [value for value in values for w in warnings if value in w.replace(option, "")]
    if no_log:
        assert not quoted, "a no_log task's warning quotes %r: %r" % (quoted, warnings)
    else:
        assert quoted, "the case does not quote values at all, so it proves nothing: %r" % warnings
