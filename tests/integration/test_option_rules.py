# -*- coding: utf-8 -*-
"""Issue 44, points 8 and 9: the options of the modules added last have the rules the old modules' options have (an
email, a WireGuard key, ports, DNS names, URLs, a lifetime), and a list or a dictionary given for a text option is
refused (ansible-core 2.16 to 2.21 would make it the text "['a@example.com']" silently, and a rule would then check
that text). Each is refused before any request (the emulator logs none, not even the version probe), naming the option
and the rule: in process, through ansible-playbook in the controller (the action plugin, a templated list too) and as
a module process, in both dialects."""

from __future__ import annotations

import pytest

KEY = 'n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA='
TARGET = {'target_id': 'web-1', 'target_type': 'peer', 'protocol': 'http', 'port': 8080}
SERVICE = {'name': 'app', 'domain': 'app.proxy.emulator.test', 'targets': [TARGET]}
PROVIDER = {'name': 'p', 'provider_id': 'custom', 'upstream_url': 'https://llm.example.com', 'api_key': 'k-1'}
SECRET = 'sk-not-shown-7d1f'

# (id, module, options, what the message says)
RULES = [
    ('invite email without @', 'user_invite', {'email': 'nobody', 'name': 'N', 'role': 'user'},
     "option email: 'nobody' is not an email address"),
    ('invite lifetime', 'user_invite', {'email': 'n@example.com', 'name': 'N', 'role': 'user', 'expires_in': 60},
     'option expires_in: must be at least 3600 (one hour, in seconds); 60 was given'),
    ('key not base64', 'peer_temporary_access', {'peer': 'web-1', 'name': 'laptop', 'wg_pub_key': 'not-a-key', 'rules': ['tcp/22']},
     "option wg_pub_key: must be a WireGuard public key (32 bytes in standard base64: 44 characters ending in '=', as wg "
     "pubkey prints it), not 'not-a-key'"),
    ('key of 44 characters not base64', 'peer_temporary_access',
     {'peer': 'web-1', 'name': 'laptop', 'wg_pub_key': '!' * 43 + '=', 'rules': ['tcp/22']}, 'option wg_pub_key: must be a WireGuard'),
    ('key too short', 'peer_temporary_access', {'peer': 'web-1', 'name': 'laptop', 'wg_pub_key': KEY[4:], 'rules': ['tcp/22']},
     'option wg_pub_key: must be a WireGuard'),
    ('listen port', 'reverse_proxy_service',
     dict(SERVICE, mode='tcp', targets=[dict(TARGET, protocol='tcp')], listen_port=70000), 'option listen_port: must be at most 65535'),
    ('target port', 'reverse_proxy_service', dict(SERVICE, targets=[dict(TARGET, port=0)]), 'option targets[0].port: must be at least 1'),
    ('service domain', 'reverse_proxy_service', dict(SERVICE, domain='my app.example.com'),
     "option domain: must be a DNS name such as app.example.com (dot-separated labels of letters, digits, hyphens and "
     "underscores, no trailing dot), not 'my app.example.com'"),
    ('proxy domain', 'reverse_proxy_domain', {'domain': 'apps example.com', 'target_cluster': 'proxy.emulator.test'},
     "option domain: must be a DNS name such as app.example.com"),
    ('proxy cluster', 'reverse_proxy_domain', {'domain': 'apps.example.com', 'target_cluster': 'proxy emulator'},
     "option target_cluster: must be a DNS name"),
    ('proxy token lifetime', 'reverse_proxy_token', {'name': 't', 'expires_in': -1}, 'option expires_in: must be at least 0'),
    ('issuer', 'identity_provider', {'name': 'i', 'type': 'oidc', 'issuer': 'https://', 'client_id': 'c'},
     "option issuer: must be a full http(s) URL such as https://sso.example.com (a scheme and a host), not 'https://'"),
    ('upstream url', 'agent_network_provider', dict(PROVIDER, upstream_url='https://llm example.com'),
     'option upstream_url: must be a full http(s) URL'),
    # a list or a dictionary for a text option: the whole option, a list's element, a suboption, a secret
    ('list for an email', 'user_invite', {'email': ['a@example.com'], 'name': 'N', 'role': 'user'},
     "option email: must be a string, not a list (['a@example.com'])"),
    ('list for a name', 'group', {'name': ['office']}, "option name: must be a string, not a list (['office'])"),
    ('dictionary for a name', 'setup_key', {'name': {'a': 1}, 'type': 'reusable'}, "option name: must be a string, not a dictionary ({'a': 1})"),
    ('list in a list of names', 'user', {'email': 'u@example.com', 'auto_groups': ['All', ['x']]},
     "option auto_groups[1]: must be a string, not a list (['x'])"),
    ('list for a suboption', 'policy', {'name': 'p', 'rules': [{'name': ['r'], 'sources': ['All'], 'destinations': ['All']}]},
     "option rules[0].name: must be a string, not a list (['r'])"),
    ('list for a content', 'dns_record', {'zone': 'z', 'name': 'a.example.com', 'type': 'A', 'content': ['10.0.0.1'], 'ttl': 60},
     "option content: must be a string, not a list (['10.0.0.1'])"),
    ('list for a secret', 'identity_provider', {'name': 'i', 'type': 'oidc', 'issuer': 'https://sso.example.com', 'client_id': 'c',
                                                'client_secret': [SECRET]}, 'option client_secret: must be a string, not a list'),
]


def ready(emulator):
    """On a v0.77 server, what the tasks name exists (the peer web-1, the proxy cluster): without the rules, their
    objects would be made."""
    if emulator.dialect == 'current':
        emulator.add_peers(peers=[{'hostname': 'web-1'}])
        emulator.control('POST', '/_emulator/config', {'proxy_clusters': ['proxy.emulator.test']})
    emulator.clear_log()


def task(label, module, options):
    return {'name': label, 'ignore_errors': True, 'nms.overlay.%s' % module: options}


def check(result, label, expected):
    assert result[label]['failed'] is True, result[label]
    assert expected in result[label]['msg'], result[label]['msg']
    assert SECRET not in str(result[label])


@pytest.mark.parametrize('label,module,options,expected', RULES, ids=[rule[0] for rule in RULES])
def test_refused_before_any_request_in_process(label, module, options, expected, emulator, run):
    ready(emulator)
    result = run([task(label, module, options)])
    assert result.in_process
    check(result, label, expected)
    assert emulator.requests() == []


@pytest.mark.parametrize('in_process', [True, False], ids=['controller', 'module process'])
def test_refused_before_any_request_by_ansible_playbook(in_process, emulator, run):
    """Every rule in one play, through the action plugin in the controller and as module processes; a list made by
    a template is refused as a list given as such."""
    templated = {'name': 'templated', 'ignore_errors': True, 'nms.overlay.user_invite': {
        'email': "{{ ['a@example.com'] }}", 'name': 'N', 'role': 'user'}}
    ready(emulator)
    # the task with the secret last: ansible-core 2.21 shows the playbook's lines before a failed task
    result = run([templated] + [task(*rule[:3]) for rule in RULES], ansible=True,
                 extra_vars={'nms_overlay_in_process': in_process})
    assert result.rc == 0, result
    for label, dummy_module, dummy_options, expected in RULES:
        check(result, label, expected)
    check(result, 'templated', "option email: must be a string, not a list (['a@example.com'])")
    assert emulator.requests() == []
    assert SECRET not in result.stdout
