# -*- coding: utf-8 -*-
"""A server of today's generation that is older than a feature refuses that feature's modules by name and release,
after the version probe and before any other request, and serves the features its release has (issue 31). The
emulator's `current` dialect plays a v0.40.0 server (POST /_emulator/config {"version"})."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.dialects('current')

OLD = '0.40.0'  # after Networks (v0.35.0), before the Agent Network (v0.74.0)


@pytest.fixture(name='old_server')
def fixture_old_server(emulator):
    assert emulator.control('POST', '/_emulator/config', {'version': OLD})['version'] == OLD
    emulator.clear_log()
    return emulator


@pytest.mark.parametrize('module, options', [
    ('agent_network_provider', {'name': 'OpenAI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
                                'api_key': 'sk-release-test-1'}),
    ('agent_network_settings', {'proxy_address': 'eu.proxy.example.com'}),
    ('agent_network_report_info', {'report': 'access_logs'}),
])
def test_an_older_server_refuses_the_agent_network_after_the_probe_only(old_server, run, module, options):
    result = run([{'name': 't', 'nms.overlay.%s' % module: options, 'ignore_errors': True}])
    assert result['t']['failed'] is True
    assert result['t']['msg'] == ('this server (%s) does not have Agent Network resources, which came with NetBird v0.74.0; '
                                  'upgrade the server to v0.74.0 or later to manage them' % OLD)
    assert [(r['method'], r['path']) for r in old_server.requests()] == [('GET', '/api/instance/version')]


def test_an_older_server_serves_the_features_its_release_has(old_server, run):
    created = run([{'name': 'net', 'nms.overlay.network': {'name': 'release-test', 'description': 'on v0.40'}}])
    assert created.rc == 0, created
    assert created['net']['changed'] is True
    assert [(r['method'], r['path']) for r in old_server.requests()][:1] == [('GET', '/api/instance/version')]
    assert ('POST', '/api/networks') in [(r['method'], r['path']) for r in old_server.requests()]


def test_an_option_newer_than_the_servers_release_is_refused_before_any_write(old_server, run):
    refused = run([{'name': 'r', 'ignore_errors': True, 'nms.overlay.route': {
        'network_id': 'release-test', 'network': '10.77.0.0/16', 'peer_groups': ['All'], 'groups': ['All'],
        'skip_auto_apply': True}}])
    assert refused['r']['msg'] == 'option skip_auto_apply: this server (%s) does not have it (servers have it from v0.55.0 on)' % OLD
    assert old_server.writes() == []


def test_the_emulators_version_is_back_to_its_dialects_after_a_reset(emulator, run):
    emulator.control('POST', '/_emulator/config', {'version': OLD})
    emulator.control('POST', '/_emulator/reset')
    emulator.clear_log()
    result = run([{'name': 's', 'nms.overlay.agent_network_settings_info': {}}])
    assert result.rc == 0, result
