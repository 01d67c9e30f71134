# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``assert_no_secrets(text, secrets, allowed=())``: fail when a secret shows in some output.

Reusable by any test (integration output at -vvvv, module results, request logs)::

    from tests.reliability.secrets import assert_no_secrets
    assert_no_secrets(result.stdout, [emulator.token, setup_key], allowed=[create_result_json])

A secret is found in its plain form, URL-quoted, JSON/repr-escaped, base64-encoded, and as any
fragment of ``FRAGMENT`` characters or more (a cut-off secret is still a leak). ``allowed`` are
exact texts in which a secret may appear by design (e.g. the one create result that returns a
new key): each occurrence of an allowed text is blanked out before the search.
"""

from __future__ import annotations

import base64
import json
import urllib.parse

FRAGMENT = 12
CONTEXT = 60


def _forms(secret):
    forms = {secret, urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret),
             json.dumps(secret)[1:-1], repr(secret)[1:-1]}
    raw = secret.encode("utf-8")
    forms.add(base64.b64encode(raw).decode().rstrip("="))
    forms.add(base64.urlsafe_b64encode(raw).decode().rstrip("="))
    return {form for form in forms if form}


def _fragments(secret):
    if len(secret) <= FRAGMENT:
        return set()
    return {secret[i:i + FRAGMENT] for i in range(len(secret) - FRAGMENT + 1)}


def find_secrets(text, secrets, allowed=()):
    """``[(label, offset, context)]`` for every leak; the context shows the secret masked."""
    text = text or ""
    for sample in sorted((a for a in allowed if a), key=len, reverse=True):
        text = text.replace(sample, " " * len(sample))
    leaks = []
    for index, secret in enumerate(s for s in secrets if s):
        if len(secret) < 8:
            raise ValueError("secret #%d is too short (%d characters) to be searched reliably" % (index, len(secret)))
        label = "secret #%d (%s...)" % (index, secret[:4])
        seen = set()
        for kind, needles in (("whole", _forms(secret)), ("fragment", _fragments(secret))):
            for needle in needles:
                start = text.find(needle)
                while start >= 0:
                    if start not in seen:
                        seen.add(start)
                        around = text[max(0, start - CONTEXT):start + len(needle) + CONTEXT]
                        leaks.append(("%s %s" % (label, kind), start, around.replace(needle, "<SECRET>")))
                    start = text.find(needle, start + 1)
            if seen:
                break
    return leaks


def assert_no_secrets(text, secrets, allowed=()):
    """Fail, showing where (with the secret masked), when any secret appears in ``text``."""
    leaks = find_secrets(text, secrets, allowed)
    if leaks:
        lines = ["%d secret occurrence(s) in the output:" % len(leaks)]
        lines.extend("  %s at offset %d: ...%s..." % leak for leak in leaks[:20])
        raise AssertionError("\n".join(lines))
