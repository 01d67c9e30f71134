# -*- coding: utf-8 -*-
"""Issue 44, points 8 and 9: the rules of the modules added last (a WireGuard key, an http(s) URL, ports and DNS names
of the reverse-proxy kinds, an invite's email and lifetime), the table of models holding every engine that has one, and
the shape check that refuses a list or a dictionary for a text option, which ansible-core's own validation (2.16 to
2.21) turns into its Python text silently."""

from __future__ import annotations

import pytest
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._kind import load_model
from ansible_collections.nms.overlay.plugins.module_utils._kinds import MODELLED
from ansible_collections.nms.overlay.plugins.module_utils._client import url_problem
from ansible_collections.nms.overlay.plugins.module_utils._models_peers import wireguard_key_problem
from ansible_collections.nms.overlay.plugins.module_utils._resources.user_invite import UserInviteModule
from ansible_collections.nms.overlay.plugins.module_utils._tables import MODEL_OPTIONS
from ansible_collections.nms.overlay.plugins.module_utils._task import shape_problem

KEY = 'n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAAA='


@pytest.mark.parametrize('key', [KEY, 'Lj3eEeyqkORmtn0wLnO1gxB6bJ3lU7MsHlNHvVA8iGk='])
def test_a_wireguard_key_is_32_bytes_in_standard_base64(key):
    assert wireguard_key_problem(key) is None


@pytest.mark.parametrize('key', ['', 'nobody', KEY[:-1], KEY + '=', KEY[:-1] + 'A', '!' * 43 + '=', KEY.replace('n', '-', 1),
                                 KEY.replace('n', '_', 1), 'AAAA' * 10 + 'AA==', ' ' + KEY[1:]])
def test_anything_else_is_no_wireguard_key(key):
    assert wireguard_key_problem(key).startswith("must be a WireGuard public key (32 bytes in standard base64: 44 characters")


@pytest.mark.parametrize('url', ['https://sso.example.com', 'http://127.0.0.1:8080/oauth2', 'https://[2001:db8::1]/x'])
def test_a_url_has_an_http_scheme_and_a_host(url):
    assert url_problem(url) is None


@pytest.mark.parametrize('url', ['https://', 'sso.example.com', 'ftp://sso.example.com', 'https:// sso.example.com',
                                 'https://a b.example.com', 'https://[::1', '', 'https://sso.example.com:0',
                                 'https://sso.example.com:99999', 'https://sso.example.com:x'])
def test_anything_else_is_no_url(url):
    assert url_problem(url, example='https://sso.example.com') == (
        "must be a full http(s) URL such as https://sso.example.com (a scheme and a host), not '%s'" % url)


@pytest.mark.parametrize('url', ['ftp://x', 'https://nms.example.com:0', 'nms.example.com'])
def test_the_connection_and_every_url_option_share_one_rule(url):
    """api_url (the client's check) and a URL option (a model's) are refused by the same rule, each naming its own
    example; and what a model accepts the client accepts."""
    from ansible_collections.nms.overlay.plugins.module_utils._client import Client, ConfigError  # pylint: disable=import-outside-toplevel
    from ansible_collections.nms.overlay.plugins.module_utils._models import validate  # pylint: disable=import-outside-toplevel
    from ansible_collections.nms.overlay.plugins.module_utils._models_identity import IdentityProviderOptions  # pylint: disable=import-outside-toplevel
    with pytest.raises(ConfigError) as connection:
        Client(url, 'nbp_' + 'x' * 36)
    assert str(connection.value) == 'option api_url: %s (set api_url or NMS_API_URL)' % url_problem(url)
    with pytest.raises(OptionsError) as option:
        validate(IdentityProviderOptions, {'issuer': url})
    assert str(option.value) == 'option issuer: %s' % url_problem(url, example='https://sso.example.com')


@pytest.mark.parametrize('model,options,problem', [
    ('proxies.ReverseProxyServiceOptions', {'listen_port': 70000}, 'option listen_port: must be at most 65535'),
    ('proxies.ReverseProxyServiceOptions', {'listen_port': -1}, 'option listen_port: must be at least 0'),
    ('proxies.ReverseProxyServiceOptions', {'targets': [{'target_id': 'p', 'port': 0}]}, 'option targets[0].port: must be at least 1'),
    ('proxies.ReverseProxyServiceOptions', {'targets': [{'target_id': ' ', 'port': 80}]}, 'option targets[0].target_id: must not be empty'),
    ('proxies.ReverseProxyServiceOptions', {'name': 'x' * 256}, 'option name: must be at most 255 characters long'),
    ('proxies.ReverseProxyServiceOptions', {'domain': 'my app.example.com'}, "option domain: must be a DNS name such as app.example.com"),
    ('proxies.ReverseProxyDomainOptions', {'domain': 'a..example.com'}, "option domain: must be a DNS name"),
    ('proxies.ReverseProxyDomainOptions', {'target_cluster': 'proxy example'}, "option target_cluster: must be a DNS name"),
    ('proxies.ReverseProxyTokenOptions', {'expires_in': -1}, 'option expires_in: must be at least 0'),
    ('proxies.AgentNetworkProviderOptions', {'upstream_url': 'api.openai.com'}, 'option upstream_url: must be a full http(s) URL'),
    ('identity.IdentityProviderOptions', {'issuer': 'https://'}, 'option issuer: must be a full http(s) URL'),
    ('identity.UserInviteOptions', {'email': 'nobody'}, "option email: 'nobody' is not an email address"),
    ('identity.UserInviteOptions', {'expires_in': 3599}, 'option expires_in: must be at least 3600 (one hour, in seconds); 3599 was given'),
    ('peers.TemporaryAccessOptions', {'wg_pub_key': 'nobody'}, "option wg_pub_key: must be a WireGuard public key"),
    ('peers.TemporaryAccessOptions', {'name': ' ', 'wg_pub_key': KEY}, 'option name: must not be empty'),
])
def test_each_rule_names_the_option(model, options, problem):
    cls, validate = load_model(model)
    with pytest.raises(OptionsError) as failure:
        validate(cls, options)
    assert str(failure.value).startswith(problem)


@pytest.mark.parametrize('model,options', [
    ('proxies.ReverseProxyServiceOptions', {'listen_port': 0, 'targets': [{'target_id': 'p', 'port': 65535}], 'domain': 'a.example.com'}),
    ('proxies.ReverseProxyTokenOptions', {'expires_in': 0}),
    ('identity.UserInviteOptions', {'email': 'n@example.com', 'expires_in': 3600}),
])
def test_the_bounds_themselves_pass(model, options):
    cls, validate = load_model(model)
    validate(cls, options)


def test_the_table_of_models_holds_every_engine_that_has_one():
    assert sorted(MODEL_OPTIONS) == sorted({cls.model for cls in MODELLED if cls.model})
    assert 'peers.TemporaryAccessOptions' in MODEL_OPTIONS and 'identity.InstanceOptions' in MODEL_OPTIONS


def test_an_option_that_is_no_field_is_checked_by_the_model_it_is_in():
    """An invite's expires_in is an option, not a request field: the model checks it all the same."""
    assert 'expires_in' not in UserInviteModule.fields and 'expires_in' in MODEL_OPTIONS[UserInviteModule.model][1]


SPEC = dict(email=dict(type='str'), token=dict(type='str', no_log=True), groups=dict(type='list', elements='str'),
            where=dict(type='path'), count=dict(type='int'), free=dict(type='raw'), alias=dict(type='str', aliases=['other']),
            rules=dict(type='list', elements='dict', options=dict(name=dict(type='str'), ports=dict(type='list', elements='str'))))


def test_ansible_core_turns_a_list_for_a_text_option_into_its_text_silently():
    """Why the shape check exists: ansible-core's validation (the one AnsibleModule and the action plugin use) gives no
    error and no warning for it, on every release the collection supports."""
    result = ArgumentSpecValidator(SPEC).validate({'email': ['a@example.com'], 'groups': [['x']]})
    assert result.error_messages == []
    assert result.validated_parameters['email'] == "['a@example.com']" and result.validated_parameters['groups'] == ["['x']"]


@pytest.mark.parametrize('params,problem', [
    ({'email': ['a@example.com']}, "option email: must be a string, not a list (['a@example.com'])"),
    ({'email': {'a': 1}}, "option email: must be a string, not a dictionary ({'a': 1})"),
    ({'groups': ['ok', ['x']]}, "option groups[1]: must be a string, not a list (['x'])"),
    ({'where': ['/tmp']}, "option where: must be a string, not a list (['/tmp'])"),
    ({'other': ['x']}, "option alias: must be a string, not a list (['x'])"),
    ({'rules': [{'name': 'r'}, {'name': ['r']}]}, "option rules[1].name: must be a string, not a list (['r'])"),
    ({'rules': [{'ports': [{'a': 1}]}]}, "option rules[0].ports[0]: must be a string, not a dictionary ({'a': 1})"),
    ({'token': ['hidden-value']}, 'option token: must be a string, not a list'),  # a secret's value is never shown
])
def test_a_list_or_a_dictionary_for_a_text_option_is_refused_naming_it(params, problem):
    assert shape_problem(SPEC, params) == problem


@pytest.mark.parametrize('params', [{'email': 'a@example.com'}, {'email': 2024}, {'email': True}, {'groups': 'a,b'},
                                    {'groups': ['a', 5]}, {'count': 3}, {'free': ['anything']}, {'email': None}])
def test_texts_numbers_and_other_types_pass(params):
    assert shape_problem(SPEC, params) is None


@pytest.mark.parametrize('params,problem', [
    ({'token': 83}, 'option token: must be a string, not a number (quote a value YAML reads as another type)'),
    ({'token': 1e10}, 'option token: must be a string, not a number (quote a value YAML reads as another type)'),
    ({'token': True}, 'option token: must be a string, not true or false (quote a value YAML reads as another type)'),
])
def test_a_secret_yaml_reads_as_a_number_or_a_boolean_is_refused_unshown(params, problem):
    """A no_log text YAML reads as another type would be sent changed (``pin: 0123`` is 83 in YAML 1.1, ``1e10`` the text
    ``10000000000.0``): refused, the value never shown; a plain text keeps ansible-core's conversion (``name: 2024``)."""
    assert shape_problem(SPEC, params) == problem
    assert shape_problem(SPEC, {'email': 2024}) is None


@pytest.mark.parametrize('params,problem', [
    ({'email': 2024}, 'option email: must be a string, not a number (quote a value YAML reads as another type)'),
    ({'other': False}, 'option alias: must be a string, not true or false (quote a value YAML reads as another type)'),
    ({'rules': [{'name': 5}]}, 'option rules[0].name: must be a string, not a number (quote a value YAML reads as another type)'),
])
def test_a_strict_module_refuses_a_number_or_a_boolean_for_any_text(params, problem):
    """``strict_texts`` (the instance): every text option, under its aliases too and at any depth."""
    assert shape_problem(SPEC, params, strict=True) == problem


def test_a_refused_url_never_shows_its_user_and_password():
    problem = url_problem('ftp://svc:sk-Secret99@api.example.com/v1')
    assert 'sk-Secret99' not in problem and 'svc' not in problem and "not 'ftp://***@api.example.com/v1'" in problem
