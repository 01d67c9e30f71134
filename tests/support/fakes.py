# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The unit tests' stand-ins for a running task and for the API, and the one way to build an engine on them.

``engine(cls, client, ...)`` is an engine class (a ResourceModule, InfoModule or network_state) as a module
process runs it, on a :class:`FakeModule` (what the engine uses of AnsibleModule) and talking to ``client``:
a :class:`FakeClient` with scripted answers, or a test's own in-memory server (any ShapedReads). Modules
that talk HTTP to the emulator run through tests/reliability/harness.py ``run_module`` instead.

Every unit test runs on a :class:`FakeClock` (the ``clock`` fixture of tests/unit/conftest.py): the engine's
settle and converge waits and the client's retry and back-off pauses take no time and are recorded.
"""

from __future__ import annotations

import copy

# registers the kinds, as every module does
from ansible_collections.nms.overlay.plugins.module_utils import _kinds  # noqa: F401  pylint: disable=unused-import
from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError, ShapedReads


class FakeClock:
    """The collection's clock (plugins/module_utils/_time.py ``CLOCK``) for tests: time passes only when someone
    waits (``sleep`` moves it on at once and records the wait in ``waits``) or a test says so (``advance``: a
    request that takes a while). ``time()`` starts at a fixed moment, EPOCH. It has what such code asks of the
    time module (monotonic, sleep, time), so it can stand in for that too (the emulator in test_emu_server.py)."""

    EPOCH = 1767225600.0  # 2026-01-01T00:00:00Z

    def __init__(self):
        self.now = 0.0
        self.waits = []

    def monotonic(self):
        return self.now

    def time(self):
        return self.EPOCH + self.now

    def sleep(self, seconds):
        if seconds < 0:  # as time.sleep
            raise ValueError('sleep length must be non-negative, not %r' % (seconds,))
        self.waits.append(seconds)
        self.now += seconds

    def advance(self, seconds):
        """Time passes without a wait (not recorded): the time a request or other work takes."""
        self.now += seconds

    @property
    def waited(self):
        """The seconds waited in all."""
        return sum(self.waits)


class FakeModule:
    """The running task as a module process has it (AnsibleModule): ``params``, ``check_mode`` and ``warn``; no
    live ``progress`` (the controller's TaskContext has that). ``warn_fails``: a warning fails the test."""

    def __init__(self, params, check_mode=False, warn_fails=False):
        self.params = params
        self.check_mode = check_mode
        self.warn_fails = warn_fails
        self.warnings = []

    def warn(self, message):
        if self.warn_fails:
            raise AssertionError(message)
        self.warnings.append(message)


class FakeClient(ShapedReads):
    """A scripted API that records every call as ``(method, path, body)`` (a retry's pause as ``('PAUSE',
    attempt, retry_after)``).

    ``routes`` maps a path to the answer of a GET and ``(method, path)`` to the answer of that method. An answer
    is a value (each call gets a copy), an exception (raised) or a function of the request body. An unrouted
    GET is a 404; an unrouted write is answered as a server answers it: the body with an id (POST: ``new``, PUT:
    the last part of the path), and ``{}`` for a DELETE. A test's in-memory server subclasses it and answers
    ``get``/``post``/``put``/``delete`` itself, recording into ``calls`` (``writes()`` reads them).
    """

    root = 'https://nms.example'  # the server's root, as the client has it (what a membership lock is named by)

    def __init__(self, routes=None):
        self.routes = routes if routes is not None else {}
        self.calls = []

    def answer(self, method, path, body=None):
        self.calls.append((method, path, copy.deepcopy(body)))
        key = (method, path) if (method, path) in self.routes else path if method == 'GET' else None
        if key not in self.routes:
            if method == 'GET':
                raise ApiError(method, path, 404, 'not found')
            if method == 'DELETE':
                return {}
            return dict(body or {}, id='new' if method == 'POST' else path.rsplit('/', 1)[1])
        handler = self.routes[key]
        if isinstance(handler, Exception):
            raise handler
        return handler(body) if callable(handler) else copy.deepcopy(handler)

    def get(self, path, query=None):
        return self.answer('GET', path)

    def post(self, path, body=None):
        return self.answer('POST', path, body)

    def put(self, path, body=None):
        return self.answer('PUT', path, body)

    def delete(self, path):
        return self.answer('DELETE', path)

    def pause(self, attempt, retry_after=None, cause=None):
        self.calls.append(('PAUSE', str(attempt), retry_after))

    def writes(self):
        """The calls that write, in order."""
        return [call for call in self.calls if call[0] not in ('GET', 'PAUSE')]


def defaults(cls):
    """Every option of the engine class ``cls`` with its default, as AnsibleModule fills them."""
    return {name: option.get('default') for name, option in cls.full_argument_spec().items()}


def engine(cls, client, check_mode=False, options=None, module=None, **params):
    """An instance of the engine class ``cls`` that talks to ``client``, ready to ``run()``.

    Its task's options are ``options`` (default: every option with its default) updated with ``params``;
    ``module`` is the running task when a test needs another (a TaskContext), else a FakeModule.
    """
    values = defaults(cls) if options is None else dict(options)
    values.update(params)
    return cls(module if module is not None else FakeModule(values, check_mode), client=client)
