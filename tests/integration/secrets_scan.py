# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 4, and issue 28, for every play: no secret in the output, not even the create result's; none in a URL.

Used by the ``run`` fixture of conftest.py after every ``ansible-playbook`` run (and by the
``emulator`` fixture for the request log at the end of every test). The search itself is
tests/reliability/secrets.py (plain, URL-quoted, JSON-escaped, base64 and cut-off forms); this
module decides which secret may show where, and words a failure without the secret in it.

Secrets and where they may show:

* the API token (of every emulator of the test, and any ``NMS_API_TOKEN`` given to the run): nowhere;
* a setup key value or a personal access token value that existed before the play (the emulator's
  state dump before the run, what the test's own emulator calls returned, what an earlier run of the
  test created): nowhere;
* a value created by the play: nowhere either. The result of the task that created it (the first task
  whose result is ``changed`` and holds the value: a setup key's ``key``, a token's ``plain_token``, a
  network_state change) is hidden by the action plugin, and only ``register`` gets it; the failure
  names that task;
* a write-only value a request sent (an identity provider's ``client_secret``, an Agent Network provider's
  ``api_key``, a password, a PIN: ``WRITE_ONLY_MEMBERS`` of any body in the emulator's request log): nowhere, in
  no form, whatever the server answered (a server's error that quotes the request body too);
* no secret at all in the path or query of a request the emulator logged.
"""

from __future__ import annotations

import json
import re

from tests.emulator.tokens import is_well_formed
from tests.reliability.secrets import find_secrets

API_TOKEN = "API token"
SETUP_KEY = "setup key value"
PAT = "personal access token value"
INVITE = "invite link token"
WRITE_ONLY = "write-only value a request sent"
# the members of request bodies that hold write-only secrets (the kinds' write-only fields and no_log options)
WRITE_ONLY_MEMBERS = frozenset(("client_secret", "api_key", "password", "old_password", "new_password", "pin"))

PAT_RE = re.compile(r"nbp_[0-9A-Za-z]{36}")
SETUP_KEY_RE = re.compile(r"\A[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\Z")
INVITE_RE = re.compile(r"\Anbi_[0-9A-Za-z]{20,}\Z")  # an invite link's token (v0.77, user_invite)
MIN_LENGTH = 8  # find_secrets refuses shorter ones (and a shorter string is no real secret)


def task_outputs(stdout):
    """``[(task name, its output)]`` of one play run, in output order (a name may come twice).

    The text before the first task is ``(play header)``, from ``PLAY RECAP`` on ``(recap)``.
    """
    parts = []
    current, lines = '(play header)', []
    for line in stdout.splitlines(keepends=True):
        match = re.match(r'^TASK \[(.*)\] \**', line)
        new = match.group(1) if match else ('(recap)' if line.startswith('PLAY RECAP') else None)
        if new is not None:
            parts.append((current, "".join(lines)))
            current, lines = new, []
        lines.append(line)
    parts.append((current, "".join(lines)))
    return [(name, text) for name, text in parts if text]


def sections(stdout):
    """``{task name: the output of that task}`` (a name used twice: both outputs, joined)."""
    parts = {}
    for name, text in task_outputs(stdout):
        parts[name] = parts.get(name, '') + text
    return parts


def pats_in(text):
    """The well-formed personal access tokens in ``text`` (checksum checked, like the server does)."""
    return {match for match in PAT_RE.findall(text or "") if is_well_formed(match)}


def secrets_in(data):
    """``{value: kind}`` of the PATs and setup key values in a JSON-like value (an API answer, a result)."""
    found = {}

    def walk(value, member=None):
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, key)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item, member)
        elif isinstance(value, str):
            if member == "key" and SETUP_KEY_RE.match(value):
                found[value] = SETUP_KEY
            if member == "invite_token" and INVITE_RE.match(value):
                found[value] = INVITE
            for pat in pats_in(value):
                found[pat] = PAT

    walk(data)
    return found


def write_only_in(requests):
    """``{value: WRITE_ONLY}`` of the write-only values the bodies of logged requests sent (see WRITE_ONLY_MEMBERS)."""
    found = {}
    pending = [entry.get("body") for entry in requests]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if key in WRITE_ONLY_MEMBERS and isinstance(item, str) and len(item) >= MIN_LENGTH:
                    found[item] = WRITE_ONLY
                else:
                    pending.append(item)
        elif isinstance(value, list):
            pending.extend(value)
    return found


class Secret:
    """One value to search for; ``creator`` is the task that created it (None: none of the play's)."""

    def __init__(self, kind, value, creator=None):
        self.kind = kind
        self.value = value
        self.creator = creator

    def describe(self):
        if self.creator:
            return "the %s created by task '%s'" % (self.kind, self.creator)
        return "a %s" % self.kind if self.kind != API_TOKEN else "the API token"


def classify(never, known, created_candidates, results):
    """The :class:`Secret` list of one run.

    ``never``: API tokens; ``known``: ``{value: kind}`` that existed before the play;
    ``created_candidates``: ``{value: kind}`` seen after it; ``results``: the recorded task results.
    """
    secrets = {}
    for value in never:
        if value and len(value) >= MIN_LENGTH:
            secrets[value] = Secret(API_TOKEN, value)
    for value, kind in known.items():
        if value not in secrets:
            secrets[value] = Secret(kind, value)
    texts = [(res.get("task"), bool(res.get("changed")), json.dumps(res, default=repr)) for res in results]
    for value, kind in created_candidates.items():
        if value in secrets:
            continue
        creator = next((task for task, changed, text in texts if changed and value in text), None)
        secrets[value] = Secret(kind, value, creator)
    return list(secrets.values())


def _line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def output_leaks(stdout, secrets):
    """Where secrets show in the output: ``["<secret> in the output of task 'T' (line N)", ...]``."""
    leaks = []
    offset = 0  # of the task's output in stdout, to name the line
    for name, text in task_outputs(stdout):
        where = name if name.startswith("(") else "task '%s'" % name
        for secret in secrets:
            found = find_secrets(text, [secret.value])
            if found:
                leaks.append("%s in the output of %s (line %d, %d occurrence(s))" % (
                    secret.describe(), where, _line_of(stdout, offset + min(f[1] for f in found)), len(found)))
        offset += len(text)
    return leaks


def url_leaks(requests, secrets):
    """Where secrets show in the path or query of logged requests (never the URL itself)."""
    leaks = []
    for index, entry in enumerate(requests):
        for part in ("path", "query"):
            text = entry.get(part) or ""
            for secret in secrets:
                if find_secrets(text, [secret.value]):
                    leaks.append("%s in the %s of request #%d (%s, status %s)" % (
                        secret.describe(), part, index, entry.get("method"), entry.get("status")))
    return leaks


def report(test, run_label, leaks):
    """The failure text: the test, the run, every leak (kind and where; the secret itself never)."""
    lines = ["secrets scan of %s, %s: %d leak(s)" % (test, run_label, len(leaks))]
    lines.extend("  " + leak for leak in leaks[:30])
    if len(leaks) > 30:
        lines.append("  ... and %d more" % (len(leaks) - 30))
    return "\n".join(lines)
