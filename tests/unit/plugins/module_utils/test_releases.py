# -*- coding: utf-8 -*-
"""Which NetBird release brought each feature and option: the table, and a server older than it refused by name and
release before any request but the version probe (issue 31)."""

from __future__ import annotations

import importlib
import inspect
import os

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _server
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_provider import AgentNetworkProviderModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NetworkModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule
from tests.support import compatibility
from tests.support.fakes import FakeClient, engine
from tests.support.modules import engine_of

RESOURCES_DIR = os.path.join(os.path.dirname(compatibility.MODULES_DIR), 'module_utils', '_resources')
PROBE = ('GET', '/instance/version', None)


def engine_classes():
    """Every engine class the collection declares: the kinds of _resources and the modules' own classes."""
    found = {}
    for name in sorted(os.listdir(RESOURCES_DIR)):
        if name.endswith('.py') and not name.startswith('__'):
            module = importlib.import_module('ansible_collections.nms.overlay.plugins.module_utils._resources.' + name[:-3])
            for dummy, cls in inspect.getmembers(module, inspect.isclass):
                if issubclass(cls, NmsModule):
                    found[cls.__module__ + '.' + cls.__qualname__] = cls
    for module in compatibility.module_names():
        cls = engine_of(module)
        found[cls.__module__ + '.' + cls.__qualname__] = cls
    return found


def test_every_feature_a_kind_or_module_requires_has_its_release():
    missing = sorted('%s: %r' % (name, cls.requires) for name, cls in engine_classes().items()
                     if cls.requires and cls.requires not in _server.FEATURE_RELEASES)
    assert not missing, 'add these to FEATURE_RELEASES (plugins/module_utils/_server.py): %s' % missing


def test_every_option_of_newer_servers_has_its_release():
    """A Field's ``requires`` and ``options_requiring``: by option name, or the feature the declaration names.
    network_state's sections are its kinds, each refused by its own kind's release (the test above)."""
    missing = []
    for module in compatibility.module_names():
        if module == 'network_state':
            continue
        for option, generation in compatibility.option_requires(module).items():
            if _server.option_release(option, generation) is None:
                missing.append('%s: %s' % (module, option))
    assert not missing, 'add these to OPTION_RELEASES (plugins/module_utils/_server.py): %s' % missing


def test_each_option_release_belongs_to_one_module_option():
    """The table is keyed by option name alone: each name must be one module's (user_info's current is asked by the
    module itself, with refuse_newer_options)."""
    owners = {}
    for module in compatibility.module_names():
        if module != 'network_state':
            for option in compatibility.option_requires(module):
                owners.setdefault(option, []).append(module)
    for option in _server.OPTION_RELEASES:
        assert len(owners.get(option, ['user_info'] if option == 'current' else [])) == 1, (option, owners.get(option))


def test_the_releases_are_releases_newer_than_v027():
    for release in list(_server.FEATURE_RELEASES.values()) + list(_server.OPTION_RELEASES.values()) + [_server.PROBE_RELEASE]:
        assert _server.release_tuple(release) > (0, 27, 6) and release.startswith('v'), release


@pytest.mark.parametrize('text, expected', [
    ('0.77.1', (0, 77, 1)), ('v0.64.2', (0, 64, 2)), ('0.75.0-rc.1', (0, 75, 0)),
    ('development', None), ('', None), (None, None), ('v0.77', None),
])
def test_release_tuple(text, expected):
    assert _server.release_tuple(text) == expected


def server(version, **routes):
    """A current server that names ``version`` (None: a v0.27 server, without the version probe)."""
    if version is not None:
        routes['/instance/version'] = {'management_current_version': version, 'management_update_available': False}
    return FakeClient(routes)


def test_a_v027_server_is_refused_with_the_release_that_brought_the_feature():
    fake = server(None, **{'/agent-network/providers': []})
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkProviderModule, fake, name='x').run()
    assert str(failure.value) == ('this server (v0.27: it has no GET /api/instance/version) does not have Agent Network '
                                  'resources, which came with NetBird v0.74.0; upgrade the server to v0.74.0 or later '
                                  'to manage them')
    assert fake.calls == [PROBE]


def test_a_feature_older_than_the_probe_asks_a_v027_server_for_the_release_that_has_both():
    fake = server(None, **{'/networks': []})
    with pytest.raises(TaskError) as failure:
        engine(NetworkModule, fake, name='office').run()
    assert str(failure.value).endswith('does not have Networks, which came with NetBird v0.35.0; upgrade the server to '
                                       'v0.64.2 or later (the first release that answers GET /api/instance/version) to '
                                       'manage them')
    assert fake.calls == [PROBE]


def test_a_current_server_older_than_the_feature_is_refused_after_the_probe_only():
    fake = server('0.70.3', **{'/agent-network/providers': []})
    with pytest.raises(TaskError) as failure:
        engine(AgentNetworkProviderModule, fake, name='x').run()
    assert str(failure.value) == ('this server (0.70.3) does not have Agent Network resources, which came with NetBird '
                                  'v0.74.0; upgrade the server to v0.74.0 or later to manage them')
    assert fake.calls == [PROBE]


@pytest.mark.parametrize('version', ['0.74.0', '0.77.1', 'v1.2.3', 'development'])
def test_a_server_of_the_features_release_or_later_or_a_development_build_is_served(version):
    fake = server(version, **{'/agent-network/providers': []})
    result = engine(AgentNetworkProviderModule, fake, name='x', state='absent').run()
    assert result['changed'] is False and fake.calls == [PROBE, ('GET', '/agent-network/providers', None)]


def test_an_option_newer_than_a_current_servers_release_is_refused_before_any_write():
    old = server('0.54.2', **{'/routes': []})
    with pytest.raises(TaskError) as failure:
        engine(RouteModule, old, network_id='lan', network='10.1.0.0/16', peer_groups=['routers'], groups=['office'],
               skip_auto_apply=True).run()
    assert str(failure.value) == 'option skip_auto_apply: this server (0.54.2) does not have it (servers have it from v0.55.0 on)'
    assert old.writes() == []
    # the same option on the release that brought it passes the check (and fails later only for the names it resolves)
    recent = server('0.55.0', **{'/routes': [], '/groups': [{'id': 'g1', 'name': 'office'}, {'id': 'g2', 'name': 'routers'}]})
    engine(RouteModule, recent, network_id='lan', network='10.1.0.0/16', peer_groups=['routers'], groups=['office'],
           skip_auto_apply=True).run()
    assert [call[0] for call in recent.writes()] == ['POST']
