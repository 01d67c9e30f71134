# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Created secrets (setup key values, personal access tokens): the file they are written to, and keeping them out
of what Ansible shows.

The file (the ``created_secrets_file`` option of setup_key, token and network_state) is a JSON object
``{kind: {name: {"id": ..., "key": ...}}}`` readable by its owner only. It is checked before the task's first
request, check mode too; each value is added under an exclusive lock (of the file's directory), so that forks
and parallel runs writing into one file keep every value; the new content goes to a new file of mode 0600 that
replaces the old one, so a reader never sees half a file.

A result that holds a created value is marked ``_ansible_no_log`` by the modules' action plugin, both ways of running
(plugins/plugin_utils/_in_process.py; a module process's own ``_ansible_`` members are dropped by ansible-core):
Ansible then shows the task as changed with its output hidden (screen, log, AWX job events), while ``register`` gets
the whole result, value included. Ansible's own include_vars action marks its results the same way.
"""

from __future__ import annotations

import functools
import json
import os
import re
import tempfile

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no lock (one writer at a time is then the user's)
    fcntl = None

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError

OPTION = 'created_secrets_file'
MASK = '********'  # what ansible-core shows in place of a no_log value
# the characters JSON (and Python's repr) may write as a backslash and a letter
_SHORT_ESCAPES = {'"': '"', '\\': '\\', '/': '/', "'": "'", '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}


def secrets_file_options():
    """The options of a module that creates secrets: where they go, and whether the result carries them."""
    return dict(
        return_created_secrets=dict(type='bool', default=True, no_log=False),
        created_secrets_file=dict(type='path', no_log=False),
    )


class SecretsFileError(Exception):
    """The secrets file cannot be used as it is (the reason, without any value of it)."""


def read_secrets(path):
    """The file's content ({} when it does not exist or is empty); SecretsFileError when it is not ours to extend."""
    if os.path.islink(path):
        raise SecretsFileError('it is a symbolic link (give the path of the file itself)')
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise SecretsFileError('its directory %s does not exist' % directory)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise SecretsFileError('its directory %s is not writable' % directory)
    if not os.path.lexists(path):
        return {}
    if not os.path.isfile(path):
        raise SecretsFileError('it is not a regular file')
    try:
        with open(path, encoding='utf-8') as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise SecretsFileError('it cannot be read (%s)' % (getattr(exc, 'strerror', None) or type(exc).__name__)) from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SecretsFileError('it is not JSON (line %s: %s)' % (getattr(exc, 'lineno', '?'), getattr(exc, 'msg', exc))) from None
    problem = shape_problem(data)
    if problem:
        raise SecretsFileError(problem)
    return data


def shape_problem(data):
    """Why ``data`` is not a secrets file's content ({kind: {name: {"id", "key", ...}}}), or None."""
    if not isinstance(data, dict):
        return 'it holds a JSON %s, not an object of kinds' % type(data).__name__
    for kind, entries in data.items():
        if not isinstance(entries, dict):
            return 'its member %s is not an object of names' % json.dumps(kind)
        for name, entry in entries.items():
            if not isinstance(entry, dict):
                return 'its member %s.%s is not an object with "id" and "key"' % (json.dumps(kind), json.dumps(name))
    return None


def server_root(api_url):
    """``api_url`` without a trailing ``/`` or ``/api``: the server a created value belongs to (the client's root)."""
    url = (api_url or '').strip().rstrip('/')
    return url[:-4] if url.endswith('/api') else url


def check_secrets_file(params):
    """Refuse the task's secrets file (``params[created_secrets_file]``) before the task makes anything (check mode
    too) when the task could not write to it, or when it holds values another server created (``server`` of an
    entry): one of the same name would overwrite that server's value, which is shown only once."""
    path = params.get(OPTION)
    if not path:
        return
    try:
        data = read_secrets(path)
    except SecretsFileError as exc:
        raise TaskError('option %s: %s cannot hold the created values: %s; nothing was changed'
                        % (OPTION, path, exc)) from None
    server = server_root(params.get('api_url'))
    others = sorted({entry.get('server') for entries in data.values() for entry in entries.values()
                     if entry.get('server') and entry.get('server') != server})
    if others:
        raise TaskError('option %s: %s holds values created on another server (%s), and this task\'s server is %s: '
                        'a value of the same name would overwrite one of them; use one file per server; nothing was '
                        'changed' % (OPTION, path, ', '.join(others), server))


def store_secret(path, kind, name, item_id, value, server=''):
    """Add one created value to the file under ``kind`` and ``name``, with the ``server`` that created it, keeping
    every other entry (also those another process adds at the same moment: the read and the write happen under the
    lock). An entry of that name from another server is never replaced (SecretsFileError)."""
    entry = dict({'id': item_id, 'key': value}, **({'server': server} if server else {}))
    directory = os.path.dirname(os.path.abspath(path))
    # the lock is the directory's: a lock file beside the secrets file would stay there, and removing it would let
    # a writer that waits on it and a new one in at once (the file itself is replaced on each write)
    lock = os.open(directory, os.O_RDONLY)
    try:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        data = read_secrets(path)
        held = data.get(kind, {}).get(name) or {}
        if held.get('server') and held['server'] != server:
            raise SecretsFileError('it holds the value of %s %s that %s created' % (kind, json.dumps(name), held['server']))
        data.setdefault(kind, {})[name] = entry
        handle, temporary = tempfile.mkstemp(prefix='.nms-secrets-', dir=directory)  # mode 0600
        try:
            with os.fdopen(handle, 'w', encoding='utf-8') as out:
                os.fchmod(out.fileno(), 0o600)
                json.dump(data, out, indent=2, sort_keys=True)
                out.write('\n')
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
    finally:
        os.close(lock)  # closing releases the lock


def keep_created_secret(task, holder, member, what, section, name, item_id, keep_hint=OPTION):
    """What becomes of a value a task created, ``holder[member]`` (in the result, or a network_state change): written
    to the task's created_secrets_file under ``section`` and ``name``, and left where it is only when
    return_created_secrets is true (the action plugin then hides the result from Ansible's output). ``task`` is the
    engine (params, warn, shown); ``what`` names the object, ``keep_hint`` how to keep the next value."""
    value = holder.get(member)
    if not value:
        return
    path = task.params.get(OPTION)
    if path:
        try:
            store_secret(path, section, name, item_id, value, server_root(task.params.get('api_url')))
        except (OSError, SecretsFileError) as exc:
            holder.pop(member, None)
            raise TaskError('the %s %s was created (id %s), but its value could not be written to %s %s (%s), and '
                            'the value is only ever shown once: delete or revoke it and run again'
                            % (what, task.shown(name, "'%s'"), item_id, OPTION, path,
                               getattr(exc, 'strerror', None) or exc), changed=True) from None
    if task.params.get('return_created_secrets') is False:
        holder.pop(member, None)
        if not path:
            task.warn('the value of the created %s %s (id %s) is not returned (return_created_secrets=false) and no '
                      '%s was given: it is lost; delete or revoke it and set %s to keep the next one'
                      % (what, task.shown(name, "'%s'"), item_id, OPTION, keep_hint))


def no_log_values(spec, value):
    """The values of the options ``spec`` marks no_log in ``value`` (one entry, or a list of them), suboptions too."""
    found = set()
    pending = [(spec, value)]
    while pending:
        options, values = pending.pop()
        for item in values if isinstance(values, list) else [values]:
            for name, option in options.items() if isinstance(item, dict) else ():
                sub = item.get(name)
                if sub in (None, ''):
                    continue
                if option.get('no_log'):
                    found.add(str(sub))
                elif option.get('options'):
                    pending.append((option['options'], sub))
    return found


_HTML_NAMES = {'&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos'}
# a backslash as an answer may quote it: as it is, percent-encoded, or as an HTML entity
_BACKSLASH = r'(?:\\|%5[cC]|&#0*92;|&#[xX]0*5[cC];)'
# an escape's backslashes when JSON is quoted in JSON four times over (1, 3, 7, 15): bounded, so that a long run of
# backslashes in an answer is scanned in linear time (unbounded, 10,000 of them took seconds)
MAX_BACKSLASHES = 16


def _hex(code, digits):
    """A pattern of ``code`` in hexadecimal, of either case."""
    return ''.join('[%s%s]' % (digit, digit.upper()) if digit.isalpha() else digit for digit in '%0*x' % (digits, code))


def _char_pattern(char):
    """A pattern of one character of a secret as it is, or escaped as JSON escapes it (\\u00e9, \\", Go's \\u003c for
    <, a surrogate pair beyond U+FFFF), as Python's repr does (\\xe9), as an HTML page (&quot;, &#34;, &#x22;) or a URL
    (%22) quotes it; an escape's backslashes any number of times, each written any of those ways (a JSON text quoted
    in another's string, or in a page)."""
    code = ord(char)
    escapes = []  # what follows the backslashes of an escape
    if code > 0xFFFF:
        high, low = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
        escapes += ['u%s%s+u%s' % (_hex(high, 4), _BACKSLASH, _hex(low, 4)), 'U%s' % _hex(code, 8)]
    else:
        escapes.append('u%s' % _hex(code, 4))
    if code < 0x100:
        escapes.append('x%s' % _hex(code, 2))
    if char in _SHORT_ESCAPES:
        escapes.append(re.escape(_SHORT_ESCAPES[char]))
    forms = [re.escape(char), '%s{1,%d}(?:%s)' % (_BACKSLASH, MAX_BACKSLASHES, '|'.join(escapes))]
    if not (char.isascii() and char.isalnum()):
        quoted = ['&#0*%d;' % code, '&#[xX]0*%s;' % _hex(code, 1),
                  ''.join('%%%s' % _hex(byte, 2) for byte in char.encode('utf-8'))]
        if char in _HTML_NAMES:
            quoted.append('&%s;' % _HTML_NAMES[char])
        if char == ' ':
            quoted.append(r'\+')
        forms.append('%s{0,%d}(?:%s)' % (_BACKSLASH, MAX_BACKSLASHES, '|'.join(quoted)))
    return '(?:%s)' % '|'.join(forms)


@functools.lru_cache(maxsize=64)
def _secrets_pattern(secrets):
    """One pattern of every secret of ``secrets`` (a frozenset of texts), the longest first, in each form."""
    return re.compile('|'.join(''.join(_char_pattern(char) for char in secret)
                               for secret in sorted(secrets, key=len, reverse=True)))


def mask_values(value, secrets):
    """A copy of ``value`` (a result, options: containers of texts, numbers, booleans) with every secret of ``secrets``
    masked as AnsibleModule masks a result: a text that is a secret becomes VALUE_SPECIFIED_IN_NO_LOG_PARAMETER, a
    secret inside a text ******** (keys are left as they are); a number whose digits hold one
    VALUE_SPECIFIED_IN_NO_LOG_PARAMETER. ansible-core's remove_values() did this for the controller's runs until 2.22
    deprecated it (secrets are masked automatically there only in what a module process returns). One function that
    recurses with the secrets already ordered (a tuple, the longest first), so that a task's count of them stays low."""
    if not isinstance(secrets, tuple):
        secrets = tuple(sorted({str(secret) for secret in secrets or () if secret not in (None, '')}, key=len,
                               reverse=True))
    if not secrets or value is True or value is False or value is None:
        return value
    if isinstance(value, bytes):
        return mask_values(value.decode('utf-8', errors='surrogateescape'), secrets).encode(
            'utf-8', errors='surrogateescape')
    if isinstance(value, str):
        if value in secrets:
            return 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
        for secret in secrets:
            value = value.replace(secret, MASK)
        return value
    if isinstance(value, dict):
        return {key: mask_values(element, secrets) for key, element in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_values(element, secrets) for element in value]
    if isinstance(value, (set, frozenset)):
        return {mask_values(element, secrets) for element in value}
    if isinstance(value, (int, float)):
        digits = str(value)
        return 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER' if any(secret in digits for secret in secrets) else value
    return value


def mask_secrets(text, secrets):
    """``text`` with every secret of ``secrets`` (texts: a task's no_log values and its write-only ones, the token)
    replaced by ********, as it is and in every escaped form an answer may quote it (a server's error that quotes the
    request body: JSON-escaped, once or twice). The one masking of what the collection says (errors, retry lines,
    warnings, progress); ansible-core masks the result besides, the plain values only."""
    secrets = frozenset(str(secret) for secret in secrets or () if secret not in (None, ''))
    if not secrets or not isinstance(text, str) or not text:
        return text
    if not any(mark in text for mark in '\\&%+') and not any(secret in text for secret in secrets):  # nothing to do
        return text
    return _secrets_pattern(secrets).sub(MASK, text)
