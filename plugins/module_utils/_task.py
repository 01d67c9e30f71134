# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How a module meets Ansible: its options (connection options, the shape check made before anything runs), the
running task (an AnsibleModule in a module process, a TaskContext in the controller's worker) and NmsModule, the
base of every module's engine class (client, resolver, warnings, progress, the task's result)."""

from __future__ import annotations

import copy
import difflib
from collections.abc import Mapping

from ansible.module_utils.basic import AnsibleModule, env_fallback, missing_required_lib
from ansible.module_utils.common.validation import check_type_dict

from ansible_collections.nms.overlay.plugins.module_utils._client import HAS_REQUESTS, REQUESTS_IMPORT_ERROR, ApiError, Client
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import Resolver
from ansible_collections.nms.overlay.plugins.module_utils._secrets import mask_secrets
from ansible_collections.nms.overlay.plugins.module_utils._server import option_release, refused_release
from ansible_collections.nms.overlay.plugins.module_utils._tables import ANSWER_TYPES


def connection_argument_spec():
    """The connection options every module takes (documented in the doc fragment nms.overlay.module)."""
    return dict(
        # not required here: the client names the environment variable when one is missing, as when it is empty
        api_url=dict(type='str', fallback=(env_fallback, ['NMS_API_URL'])),
        api_token=dict(type='str', no_log=True, fallback=(env_fallback, ['NMS_API_TOKEN'])),
        validate_certs=dict(type='bool', default=True),
        # an empty value (what AWX injects when the credential has no CA certificate) counts as unset
        ca_path=dict(type='path', fallback=(env_fallback, ['NMS_API_CA_PATH'])),
        timeout=dict(type='float', default=30.0),
        retries=dict(type='int', default=3),
    )


def _readable_as_dict(value):
    try:
        check_type_dict(value)
    except (TypeError, ValueError):
        return False
    return True


TEXT_TYPES = ('str', 'path')


def given(params, name, option):
    """The value a task gives an option, under its name or one of its aliases (None: none)."""
    if not isinstance(params, dict):
        return None
    for key in (name,) + tuple(option.get('aliases') or ()):
        if params.get(key) is not None:
            return params[key]
    return None


def text_shape_problem(option, value, where, strict=False):
    """Why ``value`` is no value of a text option, or of a list of texts, else None: types are checked before content.
    A list or a dictionary in a text's place is refused, quoted unless the option is no_log. A number or a boolean
    stays a text's value, as ansible-core converts it (``name: 2024``), except for a no_log option and where ``strict``
    (the module's ``strict_texts``): a secret YAML reads as a number would be sent changed (``pin: 0123`` is 83, and
    ``password: 1e10`` the text ``10000000000.0``); such a value is never shown."""
    kind = option.get('type', 'str')
    if kind in TEXT_TYPES:
        items = [(where, value)]
    elif kind == 'list' and option.get('elements') in TEXT_TYPES and isinstance(value, (list, tuple)):
        items = [('%s[%d]' % (where, index), item) for index, item in enumerate(value)]
    else:
        return None
    for path, item in items:
        words = _not_text(item)
        if words in ('a list', 'a dictionary'):
            shown = '' if option.get('no_log') else ' (%r)' % (item,)  # a secret's value is never shown
            return 'option %s: must be a string, not %s%s' % (path, words, shown)
        if words and (strict or option.get('no_log')):
            return 'option %s: must be a string, not %s (quote a value YAML reads as another type)' % (path, words)
    return None


def shape_problem(spec, params, prefix='', strict=False):
    """The first option ansible-core's own checks would trip over or let through in a shape it is not, as a message
    naming it (or None).

    Such options are: one with suboptions given something that is not a dictionary (ansible-core's
    check either raises TypeError, ``checks: [1, 2]``, or fails with the connection token unmasked in
    the invocation, ``rules: [a, list]``), a string holding a NUL character (a module process
    fails to log its arguments to syslog, naming nothing), and a text option (``str`` or ``path``, or an element of a
    list of them) given a list or a dictionary, which ansible-core 2.16 to 2.21 turns into its Python text silently
    (``email: [a@example.com]`` would be the text ``['a@example.com']``, and a rule would check that text). The action
    plugin looks first, whichever way the module then runs.
    """
    # the first string, at any depth, that holds a NUL (depth first, in the options' order)
    pending = [(prefix + str(name), value) for name, value in reversed(list(params.items()))] if isinstance(params, dict) else []
    while pending:
        where, value = pending.pop()
        if isinstance(value, str):
            if '\x00' in value:
                return 'option %s: must not contain a NUL character (\\x00)' % where
        elif isinstance(value, dict):
            pending.extend(('%s.%s' % (where, key), item) for key, item in reversed(list(value.items())))
        elif isinstance(value, (list, tuple)):
            pending.extend(('%s[%d]' % (where, index), item) for index, item in reversed(list(enumerate(value))))
    for name, option in spec.items():
        value = given(params, name, option)
        where = prefix + name
        problem = text_shape_problem(option, value, where, strict)
        if problem:
            return problem
        sub_spec = option.get('options')
        if value is None or not sub_spec:
            continue
        if isinstance(value, (list, tuple)) and option.get('type') == 'list':
            items = [('%s[%d]' % (where, index), item) for index, item in enumerate(value)]
        else:
            items = [(where, value)]
        for path, item in items:
            if isinstance(item, dict):
                problem = unknown_option(sub_spec, item, path) or shape_problem(sub_spec, item, path + '.', strict)
                if problem:
                    return problem
            elif not (isinstance(item, str) and _readable_as_dict(item)):
                return 'option %s: must be a dictionary of its suboptions (%s), not %r' % (path, ', '.join(sorted(sub_spec)), item)
    return None


def unknown_option(spec, params, where):
    """The first key of the dictionary ``params`` that ``spec`` knows neither as an option nor as an alias, as
    ``WHERE: unknown option KEY (did you mean CLOSEST?)`` (or the options it takes), else None. ansible-core's own
    message names the whole path and lists every option, which for a nested entry is hard to read."""
    known = set(spec)
    for option in spec.values():
        known.update(option.get('aliases') or ())
    for key in params:
        if key in known:
            continue
        closest = difflib.get_close_matches(str(key), sorted(known), n=1)
        hint = 'did you mean %s?' % closest[0] if closest else 'the options are %s' % ', '.join(sorted(spec))
        return '%s: unknown option %s (%s)' % (where, key, hint)
    return None


def _not_text(value):
    """What ``value`` is in words when it is a list, a dictionary, a number or a boolean; else None (a string, or what
    ansible-core hands over as one: an inline vault value)."""
    for types, words in (((list, tuple, set), 'a list'), (Mapping, 'a dictionary'), (bool, 'true or false'),
                         ((int, float), 'a number')):
        if isinstance(value, types):
            return words
    return None


class TaskContext:
    """What the engine needs of the running task when it runs in the controller's worker (the action plugin
    makes one per task): the validated options, check mode, diff, no_log, and the warnings it gives.

    In a module process, AnsibleModule plays this part; both have ``params``, ``check_mode``, ``no_log``,
    ``no_log_values`` (the values never to show: the no_log options', network_state's described secrets) and
    ``warn``. Only a TaskContext has ``progress``: ``on_progress`` (a function taking a message, the
    action plugin's live display) is told what the engine is doing while the task runs.
    """

    def __init__(self, params, check_mode=False, diff=False, no_log=False, on_progress=None, no_log_values=()):
        self.params = params
        self.check_mode = check_mode
        self.diff = diff
        self.no_log = no_log
        self.no_log_values = set(no_log_values)
        self.warnings = []
        self._on_progress = on_progress

    def warn(self, message):
        self.warnings.append(message)

    def progress(self, message):
        if self._on_progress is not None:
            self._on_progress(message)


def refuse_newer_options(task, requiring):
    """Refuse, naming each, the options of ``requiring`` ({option: generation or feature that has it}) that the task
    sets, when the server is older than the release that brought them (_server.OPTION_RELEASES; the version is asked
    only when one is set)."""
    given = [name for name in requiring if task.params.get(name) is not None]
    if not given:
        return
    server = task.resolver.server
    refused = [(name, refused_release(server, option_release(name, requiring[name]), requiring[name])) for name in given]
    refused = [(name, release) for name, release in refused if release]
    if refused:
        raise TaskError('; '.join('option %s: %s does not have it (servers have it from %s)'
                                  % (name, server.describe(), release) for name, release in refused))


# engine class -> its validation (see NmsModule.validation): the declarations never change while a process runs
_VALIDATIONS = {}


class NmsModule:
    """What resource and info modules share: the running task, the client and error reporting.

    ``module`` is the running task: an AnsibleModule in a module process, a TaskContext in the
    controller's worker (plugins/plugin_utils/_in_process.py). The engine never exits or prints: it
    returns a result or raises TaskError / ApiError, and ``outcome`` turns either into the task's result.
    """

    argument_spec = {}
    # the JSON types of the fields of the answers the module reads besides the kinds' ({name: _client.TEXT, ...}; the
    # kinds declare theirs: see _kinds.answer_types)
    answers = {}
    few_names = True  # the task names a few objects: they may be read by name (see _resolve.Resolver._named)
    mutually_exclusive = ()
    required_one_of = ()
    required_if = ()
    required_together = ()
    requires = None          # what of today's servers the module manages ('Networks'): refused by a v0.27 server
    # options that only today's servers have and that are no request field ({option: generation}, such as a user's
    # approval; request fields say it with Field ``requires``): a v0.27 server refuses a task that sets them
    options_requiring = {}
    # whether the module's calls carry api_token (false only for the instance's setup, which comes before any token)
    authenticated = True

    def __init__(self, module=None, client=None, resolver=None):
        """``client`` and ``resolver`` are given when several resources of one task share them (network_state);
        otherwise they are made when first needed."""
        self.module = module if module is not None else self.ansible_module()
        self.params = self.module.params
        self._client = client
        self._resolver = resolver
        self.warnings = []
        self.steps = []  # what progress() told, for a module to return (a module process shows nothing live)

    @classmethod
    def validation(cls):
        """The options and their constraints, as AnsibleModule and ArgumentSpecValidator take them: derived from the
        declarations once per engine class and process (a controller runs many tasks), each caller given a copy."""
        if cls not in _VALIDATIONS:
            _VALIDATIONS[cls] = dict(
                argument_spec=cls.full_argument_spec(),
                mutually_exclusive=list(cls.mutually_exclusive or ()),
                required_one_of=list(cls.required_one_of),
                required_if=list(cls.required_if),
                required_together=list(cls.required_together),
            )
        return copy.deepcopy(_VALIDATIONS[cls])

    @classmethod
    def ansible_module(cls):
        return AnsibleModule(supports_check_mode=True, **cls.validation())

    @classmethod
    def full_argument_spec(cls):
        spec = connection_argument_spec()
        spec.update(copy.deepcopy(cls.argument_spec))
        return spec

    @property
    def client(self):
        if self._client is None:
            if not HAS_REQUESTS:
                raise TaskError(missing_required_lib('requests'), exception=REQUESTS_IMPORT_ERROR)
            params = self.params
            if not params['validate_certs']:
                self.module.warn('validate_certs is false: the server certificate is not verified')
            self._client = Client(params['api_url'], params['api_token'], validate_certs=params['validate_certs'],
                                  ca_path=params['ca_path'], timeout=params['timeout'], retries=params['retries'],
                                  notify=self.notify, authenticated=self.authenticated,
                                  secrets=getattr(self.module, 'no_log_values', None),  # (see mask)
                                  answer_types=dict(ANSWER_TYPES, **self.answers) if self.answers else ANSWER_TYPES)
        return self._client

    @property
    def resolver(self):
        if self._resolver is None:
            self._resolver = Resolver(self.client, few_names=self.few_names)
        return self._resolver

    def mask(self, message):
        """``message`` with the values the task sends that never show (the running task's ``no_log_values``, see
        TaskContext) masked in every form (_secrets.mask_secrets): what the client says (errors, retry lines), the
        warnings, the progress lines and the failure message all are, both ways a module runs."""
        return mask_secrets(message, getattr(self.module, 'no_log_values', None))

    def warn(self, message):
        self.module.warn(self.mask(message))

    def check_generation(self):
        """Refuse a module whose resources the server does not have (a v0.27 server, or one older than the release
        that brought them: _server.FEATURE_RELEASES), and options it does not have that are no request field
        (``options_requiring``), before any other request (the one request is GET /api/instance/version, shared with
        the rest of the task)."""
        refusal = self.resolver.server.lacks(self.requires) if self.requires else None
        if refusal:
            raise TaskError(refusal)
        if self.options_requiring:
            refuse_newer_options(self, self.options_requiring)

    def progress(self, message):
        """Tell what the task is doing now: shown at once (at -v) when the engine runs in the controller's worker,
        whose TaskContext has a progress hook; kept in ``steps`` too, so that a module can return them (a module
        process can show nothing while it runs)."""
        message = self.mask(message)
        self.steps.append(message)
        hook = getattr(self.module, 'progress', None)
        if callable(hook):
            hook(message)

    def notify(self, message):
        """The client's notice of a retry and the wait before it: a warning in the result, and progress now,
        so that a long wait (a server's Retry-After) says why while it lasts."""
        self.warn(message)
        self.progress(message)

    def shown(self, value, form='%r'):
        """A value for a warning (which Ansible prints even for a task with no_log): quoted as ``form`` says,
        unless the task has no_log, whose values a warning names by their option only."""
        if getattr(self.module, 'no_log', False):
            return '(not shown: no_log)'
        return form % (value,)

    # None, or a classmethod of a module that may create a value the server shows only once (a setup key's, a token's):
    # (result) -> whether the result holds one; the action plugin then hides the result from Ansible's output, which
    # ``register`` still gets whole
    holds_created_secret = None
    # None, or a classmethod of a module whose options hold secrets no option marks no_log (network_state's sections are
    # lists of dictionaries without suboptions): (params) -> those values, masked in the result and the invocation
    secret_values = None
    # whether a text option given a number or a boolean is refused before its content is checked (text_shape_problem)
    # rather than turned into the value's Python text by ansible-core
    strict_texts = False

    def fail(self, message, **extra):
        raise TaskError(message, **extra)

    @classmethod
    def preload(cls):
        """Import now what a run imports lazily (a pydantic model): a process that runs many tasks pays it once."""
        model = getattr(cls, 'model', None)
        if model is not None:
            model()

    @classmethod
    def outcome(cls, module):
        """The task's result: what run() returns, or a failed result naming the problem."""
        try:
            return cls(module).run()
        except ApiError as exc:
            message = str(exc)
            extra = dict(status=exc.status, method=exc.method, path=exc.path)
        except TaskError as exc:
            message, extra = str(exc), exc.details
        return dict(extra, failed=True, msg=mask_secrets(message, getattr(module, 'no_log_values', None)))

    @classmethod
    def main(cls):
        """Run as a module process: options from AnsibleModule, the result through exit_json or fail_json."""
        module = cls.ansible_module()
        if cls.secret_values is not None:  # masked by AnsibleModule in everything it returns, as its no_log options' values
            module.no_log_values.update(cls.secret_values(module.params))
        result = cls.outcome(module)
        if result.pop('failed', False):
            module.fail_json(**result)
        module.exit_json(**result)

    def run(self):
        raise NotImplementedError
