# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 44, item 2: the one masking of what the collection says (_secrets.mask_secrets): a secret is masked as it is
and in every form a server's answer may quote it, and every write-only value of every kind is one it masks (an
option marked no_log). The integration side, real HTTP both ways a module runs: tests/integration/test_secrets_in_errors.py."""

from __future__ import annotations

import html
import json
import time
import urllib.parse

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._kinds import RESOURCES
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import described_secrets
from ansible_collections.nms.overlay.plugins.module_utils._secrets import MASK, mask_secrets
from ansible_collections.nms.overlay.plugins.module_utils._task import TaskContext

SECRET = 'Q7zXwe"K9v/PqT\\M3t\tRyé<B8n&LkU>\U0001F511J2h\'Wc'


def go_html(text):
    """As Go's encoding/json writes < > & (json.Marshal)."""
    return text.replace('<', '\\u003c').replace('>', '\\u003e').replace('&', '\\u0026')


FORMS = {
    'as it is': SECRET,
    'JSON, ASCII only': json.dumps(SECRET)[1:-1],
    'JSON, UTF-8': json.dumps(SECRET, ensure_ascii=False)[1:-1],
    'JSON, upper-case escapes': json.dumps(SECRET)[1:-1].replace('\\u00e9', '\\u00E9').replace('\\ud83d', '\\uD83D'),
    'JSON of JSON': json.dumps(json.dumps(SECRET)[1:-1])[1:-1],
    'JSON of JSON of JSON': json.dumps(json.dumps(json.dumps(SECRET)[1:-1])[1:-1])[1:-1],
    'Go JSON': go_html(json.dumps(SECRET, ensure_ascii=False)[1:-1]),
    'Go JSON of JSON': go_html(json.dumps(json.dumps(SECRET)[1:-1], ensure_ascii=False)[1:-1]),
    'JSON with an escaped slash': json.dumps(SECRET)[1:-1].replace('/', '\\/'),
    'Python repr': repr(SECRET)[1:-1],
    'Python repr, ASCII only': ascii(SECRET)[1:-1],
    'HTML page': html.escape(SECRET),
    'HTML page quoting JSON': html.escape(json.dumps(SECRET)[1:-1]),
    'HTML numeric entities': ''.join(char if char.isascii() and char.isalnum() else '&#%d;' % ord(char) for char in SECRET),
    'HTML hexadecimal entities': ''.join(char if char.isalnum() else '&#x%X;' % ord(char) for char in SECRET),
    'percent-encoded': urllib.parse.quote(SECRET, safe=''),
    'percent-encoded JSON': urllib.parse.quote(json.dumps(SECRET)[1:-1], safe=''),
    'HTML page quoting JSON of JSON': html.escape(json.dumps(json.dumps(SECRET)[1:-1])[1:-1]),
}


def test_a_secret_with_a_space_is_masked_in_a_form_body():
    secret = 'two words&more'
    assert mask_secrets('sent: pin=%s;' % urllib.parse.quote_plus(secret), {secret}) == 'sent: pin=%s;' % MASK


@pytest.mark.parametrize('form', list(FORMS))
def test_a_secret_is_masked_in_every_form_an_answer_may_quote_it(form):
    text = 'PUT failed: {"client_secret": "%s", "name": "x"} and again %s.' % (FORMS[form], FORMS[form])
    masked = mask_secrets(text, {SECRET})
    assert masked == 'PUT failed: {"client_secret": "%s", "name": "x"} and again %s.' % (MASK, MASK), masked


def test_only_the_secrets_are_masked_the_longest_first_and_texts_without_them_stay():
    assert mask_secrets('no secret here \\n "quoted"', {'abc-def-123'}) == 'no secret here \\n "quoted"'
    assert mask_secrets('key abc-def-123-456 and abc-def-123', {'abc-def-123', 'abc-def-123-456'}) == \
        'key %s and %s' % (MASK, MASK)
    assert mask_secrets('', {'x'}) == '' and mask_secrets('text', ()) == 'text' and mask_secrets(None, {'x'}) is None
    assert mask_secrets('abc', {None, ''}) == 'abc'  # no value, nothing to mask


def test_a_secret_cut_by_a_snippet_is_masked_before_the_cut():
    from ansible_collections.nms.overlay.plugins.module_utils._client import _snippet  # pylint: disable=import-outside-toplevel
    text = 'x' * 190 + SECRET + ' tail'
    assert SECRET[:10] not in _snippet(mask_secrets(text, {SECRET}))


def test_the_task_masks_its_warnings_and_progress():
    """The engine's warn and progress (a retry line is both) go through the mask, with the task's no_log values."""
    from tests.support.modules import engine_of  # pylint: disable=import-outside-toplevel
    seen = []
    task = TaskContext({}, on_progress=seen.append, no_log_values={SECRET})
    module = engine_of('group')(task)
    module.warn('quoted: %s' % json.dumps({'v': SECRET}))
    module.progress('quoted: %s' % json.dumps(SECRET))
    assert task.warnings == ['quoted: {"v": "%s"}' % MASK] and seen == ['quoted: "%s"' % MASK] == module.steps


def spec_at(spec, steps):
    for name, dummy_match in steps:
        spec = spec[name]['options']
    return spec


def test_every_write_only_value_of_every_kind_is_an_option_marked_no_log():
    """What the mask masks is the task's no_log values: a write-only field (or member) that is no no_log option would
    show in an error that quotes the request body."""
    checked, missing = [], []
    for cls in RESOURCES:
        for name, field in cls.fields.items():
            if field.write_only:
                checked.append('%s.%s' % (cls.__name__, name))
                if not field.spec.get('no_log'):
                    missing.append(checked[-1])
            for steps, member in field.secret_paths:
                where = '%s.%s.%s' % (cls.__name__, name, '.'.join([step for step, dummy in steps] + [member]))
                checked.append(where)
                if not spec_at(field.spec.get('options') or {}, steps).get(member, {}).get('no_log'):
                    missing.append(where)
    assert len(checked) >= 5 and not missing, missing


def test_network_states_described_write_only_values_are_its_secrets():
    services = [{'name': 'svc', 'auth': {'password_auth': {'enabled': True, 'password': 'pw-3'},
                                         'pin_auth': {'enabled': True, 'pin': '424242'}}}]
    params = {'identity_providers': [{'name': 'sso', 'client_secret': 'idp-secret-1'}],
              'agent_network_providers': [{'name': 'ai', 'api_key': 'ai-key-2'}], 'reverse_proxy_services': services}
    assert described_secrets(params) >= {'idp-secret-1', 'ai-key-2', 'pw-3', '424242'}


def test_a_long_run_of_backslashes_is_scanned_in_linear_time_and_a_four_times_quoted_secret_is_still_masked():
    # unbounded runs of an escape's backslashes made this quadratic: 10,000 backslashes took over 5 s, 30,000 minutes
    quoted = SECRET
    for dummy in range(4):
        quoted = json.dumps(quoted)[1:-1]
    assert SECRET not in mask_secrets(quoted, [SECRET]) and MASK in mask_secrets(quoted, [SECRET])
    started = time.monotonic()
    masked = mask_secrets('\\' * 30000 + 'tail ' + json.dumps(SECRET)[1:-1], [SECRET])
    assert masked == '\\' * 30000 + 'tail ' + MASK
    assert time.monotonic() - started < 3.0  # 0.05 s on the 2-core machine; unbounded: far beyond a minute
