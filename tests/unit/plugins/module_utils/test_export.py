# -*- coding: utf-8 -*-
"""network_state state=gathered (_export.py) with an in-memory v0.27 server: what an export leaves out, how it names
references, and that it never writes."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from tests.unit.plugins.module_utils.test_network import Server, engine, NetworkStateModule, options, reconcile


def gather(server):
    module = engine(NetworkStateModule, server, False, options(state='gathered'))
    result = module.run()
    return result, module.module.warnings


def built():
    server = Server()
    server.items['/accounts'] = [{'id': 'acc-1', 'settings': {'peer_login_expiration_enabled': True, 'peer_login_expiration': 86400}}]
    server.items['/peers'].append({'id': 'p-db', 'name': 'db-1'})
    reconcile(server, groups=[{'name': 'servers', 'peers': ['web-1', 'db-1']}, {'name': 'dev'}],
              policies=[{'name': 'ssh', 'rules': [{'name': 'ssh', 'protocol': 'tcp', 'ports': ['22'], 'sources': ['dev'],
                                                   'destinations': ['servers'], 'bidirectional': False}]}])
    server.calls.clear()
    return server


def test_an_export_names_references_writes_defaults_and_never_writes():
    server = built()
    result, warnings = gather(server)
    assert result['changed'] is False and server.writes() == []
    exported = result['gathered']
    # the All group and a group an identity provider issued are not described; the rest sorted by name
    assert exported['groups'] == [{'name': 'dev', 'peers': []}, {'name': 'servers', 'peers': ['db-1', 'web-1']}]
    # defaults and empty values written too (a rule's action accept, enabled, empty description), so that they are pinned
    assert exported['policies'] == [{'name': 'ssh', 'description': '', 'enabled': True, 'source_posture_checks': [], 'rules': [
        {'name': 'ssh', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp',
         'ports': ['22'], 'sources': ['dev'], 'destinations': ['servers']}]}]
    # the owner is the account itself, not its description
    assert exported['users'] == []
    # the singletons as objects, every setting (no create default applies to them), none a v0.27 server lacks
    settings = exported['account_settings']
    assert settings['peer_login_expiration_enabled'] is True and settings['peer_login_expiration'] == 86400
    assert not set(settings) & {'peer_inactivity_expiration', 'dns_domain', 'lazy_connection_enabled', 'user_approval_required'}
    assert exported['dns_settings'] == {'disabled_management_groups': []}
    assert 'networks' not in exported and 'dns_zones' not in exported  # a v0.27 server has neither
    assert warnings == []
    assert result['msg'].startswith('gathered 2 groups, 0 posture_checks, 1 policies')


def test_keys_that_admit_no_peer_are_left_out_and_no_key_value_is_described():
    server = built()
    live = {'id': 'k1', 'name': 'servers', 'type': 'reusable', 'key': 'A616097E-FCF0-48FA-9354-CA4A61142761',
            'expires': '2099-01-01T00:00:00Z', 'valid': True, 'revoked': False, 'used_times': 0, 'usage_limit': 0,
            'auto_groups': [], 'ephemeral': False, 'state': 'valid'}
    server.items['/setup-keys'] = [live, dict(live, id='k2', name='old', revoked=True, valid=False, state='revoked'),
                                   dict(live, id='k3', name='spent', valid=False, state='overused')]
    result, dummy_warnings = gather(server)
    # every option but the lifetime, which an answer without its updated_at (the creation date) does not tell
    assert result['gathered']['setup_keys'] == [{'name': 'servers', 'type': 'reusable', 'usage_limit': 0, 'ephemeral': False,
                                                 'auto_groups': [], 'revoked': False}]
    server.items['/setup-keys'][0]['updated_at'] = '2098-12-25T00:00:00Z'
    assert gather(server)[0]['gathered']['setup_keys'][0]['expires_in'] == '7d'
    assert 'A616097E' not in repr(result)


def test_a_reference_to_an_object_whose_name_is_not_unique_is_an_id_with_one_warning():
    server = built()
    server.items['/peers'].append({'id': 'p-web2', 'name': 'web-1'})
    group = [g for g in server.items['/groups'] if g['name'] == 'servers'][0]
    group['peers'] = [{'id': 'p-web', 'name': 'web-1'}, {'id': 'p-web2', 'name': 'web-1'}, {'id': 'p-gone', 'name': 'x'}]
    result, warnings = gather(server)
    servers = [g for g in result['gathered']['groups'] if g['name'] == 'servers'][0]
    assert servers['peers'] == ['p-gone', 'p-web', 'p-web2']
    assert sorted(warnings) == sorted([
        "group servers (peers) refers to the peer with id p-web by id: its name 'web-1' is not unique",
        "group servers (peers) refers to the peer with id p-web2 by id: its name 'web-1' is not unique",
        "group servers (peers) refers to the peer with id p-gone, which the server does not list: kept as an id"])


def test_an_object_its_name_does_not_identify_alone_is_described_with_its_id():
    server = built()
    server.items['/users'] += [{'id': 'u-bot1', 'name': 'bot', 'email': '', 'is_service_user': True, 'role': 'user', 'auto_groups': []},
                               {'id': 'u-bot2', 'name': 'bot', 'email': '', 'is_service_user': True, 'role': 'user', 'auto_groups': []}]
    result, warnings = gather(server)
    # an empty email is no option value (a service user has none): left out
    assert result['gathered']['users'] == [
        {'id': 'u-bot1', 'name': 'bot', 'is_service_user': True, 'role': 'user', 'auto_groups': [], 'is_blocked': False},
        {'id': 'u-bot2', 'name': 'bot', 'is_service_user': True, 'role': 'user', 'auto_groups': [], 'is_blocked': False}]
    assert warnings == ['user bot: described by id (u-bot1): its name does not identify it alone',
                        'user bot: described by id (u-bot2): its name does not identify it alone']


@pytest.mark.parametrize('extra, named', [
    (dict(groups=[{'name': 'a'}]), 'option groups'),
    (dict(prune=True), 'option prune'),
    (dict(default_policy='disable'), 'option default_policy'),
])
def test_gathered_takes_no_description(extra, named):
    server = built()
    with pytest.raises(TaskError) as failure:
        engine(NetworkStateModule, server, False, options(state='gathered', **extra)).run()
    assert str(failure.value) == 'state=gathered reads the network and takes no description: remove %s' % named
    assert server.calls == []
