# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a module returns must be what its RETURN documents.

Every successful result of an nms.overlay module that an integration test records is checked against
the module's RETURN: each key the module returns is documented (also inside documented dicts and list
elements that list their ``contains``), and each key documented as ``returned: always`` is there. Used
by the ``run`` fixture in conftest.py, so the whole integration suite checks the contract.
"""

from __future__ import annotations

import importlib

import yaml

PREFIX = "nms.overlay."
# Keys that Ansible itself, or the test recorder callback, adds to every result.
ANSIBLE_KEYS = frozenset((
    "changed", "failed", "skipped", "msg", "diff", "invocation", "warnings", "deprecations", "exception",
    "task", "action", "host", "outcome", "unreachable", "attempts", "retries",
    "item", "ansible_loop_var", "ansible_index_var", "ansible_loop", "failed_when_result", "changed_when_result",
))
# Keys that Ansible's async wrapper and async_status add to the result of an async task.
ASYNC_KEYS = frozenset(("ansible_job_id", "started", "finished", "results_file",
                        "stdout", "stdout_lines", "stderr", "stderr_lines"))

_RETURN = {}


def documented_returns(module):
    """RETURN of ``module`` (short name), parsed, cached."""
    if module not in _RETURN:
        code = importlib.import_module("ansible_collections.nms.overlay.plugins.modules.%s" % module)
        _RETURN[module] = yaml.safe_load(getattr(code, "RETURN", "") or "") or {}
    return _RETURN[module]


def module_of(record):
    """The short name of the nms.overlay module a recorded result came from, or None."""
    action = record.get("action") or ""
    if action.startswith(PREFIX):
        return action[len(PREFIX):]
    return None


def _is_always(doc):
    return str(doc.get("returned", "")).strip().lower() == "always"


def _check_value(where, value, doc, problems):
    contains = doc.get("contains")
    if not isinstance(contains, dict) or value is None:
        return
    if isinstance(value, dict):
        _check_mapping(where, value, contains, problems)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                _check_mapping("%s[%d]" % (where, index), item, contains, problems)


def _check_mapping(where, value, docs, problems):
    for key, item in value.items():
        path = "%s.%s" % (where, key) if where else key
        if key not in docs:
            problems.append("%s is returned but not documented" % path)
            continue
        _check_value(path, item, docs[key] or {}, problems)


def violations(record, module=None):
    """What in one recorded result breaks its module's RETURN (empty when it keeps it)."""
    module = module or module_of(record)
    if module is None or record.get("failed") or record.get("skipped") or "censored" in record:
        return []  # censored: a no_log task, whose result Ansible replaces
    if "failed_when_result" in record and record.get("msg"):
        return []  # a module failure that the task's failed_when accepted: not a successful result
    if isinstance(record.get("results"), list):  # a loop: one result per item
        return [problem for item in record["results"] if isinstance(item, dict)
                for problem in violations(dict(item, task=record.get("task")), module)]
    docs = documented_returns(module)
    problems = []
    ansible_keys = ANSIBLE_KEYS | ASYNC_KEYS if "ansible_job_id" in record else ANSIBLE_KEYS
    returned = {key: value for key, value in record.items()
                if key not in ansible_keys and not key.startswith("_ansible")}
    _check_mapping("", returned, docs, problems)
    for key, doc in docs.items():
        if _is_always(doc or {}) and key not in record:
            problems.append("%s is documented as returned always but missing" % key)
    return ["%s (task %r): %s" % (module, record.get("task"), problem) for problem in problems]


def report(nodeid, label, problems):
    unique = sorted(set(problems))
    return "%s: %s: results differ from RETURN:\n  %s" % (nodeid, label, "\n  ".join(unique))
