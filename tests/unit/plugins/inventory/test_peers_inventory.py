# -*- coding: utf-8 -*-
"""Unit tests of the peers inventory plugin's pure parts (naming, groups, filters)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.inventory.peers import InventoryModule, SourceFailed

PEER = {'id': 'p1', 'name': 'Web 1', 'dns_label': 'web-1.netbird.selfhosted', 'ip': '100.64.0.10',
        'connection_ip': '<nil>', 'connected': True,
        'groups': [{'id': 'gall', 'name': 'All'}, {'id': 'g1', 'name': 'web servers'}, {'id': 'g2', 'name': 'db-prod'}]}


class Display:
    def __init__(self):
        self.warnings = []

    def warning(self, message):
        self.warnings.append(message)


def plugin(**options):
    values = dict(hostname_source='dns_label', ansible_host_source='ip', group_prefix='', include_all_group=True,
                  connected_only=False, include_groups=None, exclude_groups=None)
    values.update(options)
    instance = InventoryModule()
    instance.get_option = values.get
    instance.display = Display()
    return instance


def test_verify_file_takes_the_nms_suffix_or_a_yaml_file_naming_the_plugin(tmp_path):
    good = tmp_path / 'prod.nms.yml'
    good.write_text('plugin: nms.overlay.peers\n')
    named = tmp_path / 'prod.yml'
    named.write_text('# production\nplugin: "nms.overlay.peers"  # the overlay\n')
    assert InventoryModule().verify_file(str(good))
    assert InventoryModule().verify_file(str(named))
    for name, text in (('hosts.yml', 'all:\n  hosts:\n    web: {}\n'), ('other.yml', 'plugin: amazon.aws.aws_ec2\n'),
                       ('nested.yml', 'group:\n  plugin: nms.overlay.peers\n'), ('peers.json', 'plugin: nms.overlay.peers\n'),
                       ('longer.yaml', 'plugin: nms.overlay.peers_more\n')):
        path = tmp_path / name
        path.write_text(text)
        assert not InventoryModule().verify_file(str(path)), name


def test_host_names_and_duplicates():
    inv = plugin()
    taken = set()
    assert inv.host_name(PEER, taken) == 'web-1.netbird.selfhosted'
    assert inv.host_name(dict(PEER, id='p2'), taken) == 'web-1.netbird.selfhosted_p2'
    assert "several peers are called 'web-1.netbird.selfhosted'" in inv.display.warnings[0]
    assert plugin(hostname_source='name').host_name(PEER, set()) == 'Web 1'
    assert plugin(hostname_source='name').host_name(dict(PEER, name=''), set()) == 'web-1.netbird.selfhosted'


def test_group_names_are_safe_and_prefixed():
    assert plugin().group_names(PEER) == ['All', 'web_servers', 'db_prod']
    assert plugin(group_prefix='nms_', include_all_group=False).group_names(PEER) == ['nms_web_servers', 'nms_db_prod']
    assert plugin().group_names(dict(PEER, groups=None)) == []


def test_a_group_named_all_that_is_not_the_built_in_one_is_an_ansible_group():
    """Issue 28, point 6: include_all_group leaves out the built-in All group (issued by the API, holding every peer),
    not a group that an identity provider synced under the same name."""
    groups = [{'id': 'gall', 'name': 'All', 'peers_count': 5, 'issued': 'api'},
              {'id': 'gidp', 'name': 'All', 'peers_count': 1, 'issued': 'jwt'}, {'id': 'g1', 'name': 'web servers'}]
    assert plugin(include_all_group=False).group_names(dict(PEER, groups=groups)) == ['All', 'web_servers']
    assert plugin(include_all_group=False).group_names(dict(PEER, groups=groups[:1] + groups[2:])) == ['web_servers']


def test_addresses():
    assert plugin().address(dict(PEER, ip='100.64.0.10/16')) == '100.64.0.10'
    assert plugin(ansible_host_source='connection_ip').address(PEER) is None
    assert plugin(ansible_host_source='connection_ip').address(dict(PEER, connection_ip='203.0.113.7')) == '203.0.113.7'


@pytest.mark.parametrize('options, kept', [
    ({}, True),
    ({'connected_only': True}, True),
    ({'include_groups': ['g1']}, True),
    ({'include_groups': ['nope']}, False),
    ({'exclude_groups': ['db-prod']}, False),
])
def test_filters(options, kept):
    assert plugin(**options).keep(PEER) is kept
    assert plugin(connected_only=True).keep(dict(PEER, connected=False)) is False


def test_peer_groups_that_become_the_same_ansible_group_warn_once():
    inv = plugin()
    origins = {}
    other = dict(PEER, id='p2', groups=[{'id': 'g3', 'name': 'web-servers'}, {'id': 'g1', 'name': 'web servers'}])
    assert inv.group_names(PEER, origins) == ['All', 'web_servers', 'db_prod']
    assert inv.display.warnings == []
    assert inv.group_names(other, origins) == ['web_servers', 'web_servers']
    assert inv.group_names(dict(other, id='p3'), origins) == ['web_servers', 'web_servers']
    assert inv.display.warnings == [
        "nms.overlay.peers: the peer groups 'web servers' and 'web-servers' both become the Ansible group "
        "'web_servers', which holds the peers of both"]
    # two groups with the same name are told apart by their ids
    twin = plugin()
    twin.group_names(dict(PEER, groups=[{'id': 'a', 'name': 'x'}, {'id': 'b', 'name': 'x'}]), {})
    assert twin.display.warnings == ["nms.overlay.peers: the peer groups 'x' (id a) and 'x' (id b) both become the "
                                     "Ansible group 'x', which holds the peers of both"]


class Fetching:
    """The plugin with canned peer and group lists instead of a server."""

    def __init__(self, groups, **options):
        self.inv = plugin(cache=False, **options)
        self.reads = []
        self.groups = groups
        self.inv.cache_key = lambda path: 'key'

        def fetch(path, what):
            self.reads.append(path)
            return self.groups

        self.inv.fetch = fetch


def test_unknown_filter_groups_fail_naming_them():
    known = Fetching([{'id': 'g1', 'name': 'web servers'}, {'id': 'g9', 'name': 'empty'}],
                     include_groups=['web servers', 'g2'], exclude_groups=['empty'])
    known.inv.check_group_filters([PEER], 'inv.nms.yml', True)
    assert known.reads == ['/groups']  # 'empty' is in no peer's groups: only the group list can tell
    seen = Fetching([], include_groups=['db-prod', 'All'], exclude_groups=['g1'])
    seen.inv.check_group_filters([PEER], 'inv.nms.yml', True)
    assert seen.reads == []  # every name is a group of a peer: no request
    typo = Fetching([{'id': 'g1', 'name': 'web servers'}], include_groups=['nosuchgroup', 'web servers'],
                    exclude_groups=['dbprod'])
    with pytest.raises(SourceFailed) as error:
        typo.inv.check_group_filters([PEER], 'inv.nms.yml', True)
    assert str(error.value) == ("nms.overlay.peers: include_groups: no group 'nosuchgroup' (by name or id) on the server; "
                                "exclude_groups: no group 'dbprod' (by name or id) on the server")


def test_a_host_is_never_named_like_a_group():
    inv = plugin(hostname_source='name')
    taken = set()
    groups = {'all', 'ungrouped', 'web', 'web_p1'}
    assert inv.host_name(dict(PEER, name='web'), taken, groups) == 'web_p1_2'
    assert inv.host_name(dict(PEER, id='p2', name='all'), taken, groups) == 'all_p2'
    assert inv.host_name(dict(PEER, id='p3', name='db'), taken, groups) == 'db'
    assert inv.display.warnings == [
        "nms.overlay.peers: the peer p1 is called 'web' like the Ansible group 'web'; a host is never named like a "
        "group, so it is the host 'web_p1_2'",
        "nms.overlay.peers: the peer p2 is called 'all' like the Ansible group 'all'; a host is never named like a "
        "group, so it is the host 'all_p2'"]


def test_clean_marks_only_what_could_be_a_template():
    from ansible import template
    from ansible.utils.unsafe_proxy import AnsibleUnsafe
    from ansible_collections.nms.overlay.plugins.inventory.peers import MAX_DEPTH, TooDeep, clean

    def is_trusted_as_template(value):  # before ansible-core 2.19: every string not marked unsafe
        if hasattr(template, 'is_trusted_as_template'):
            return template.is_trusted_as_template(value)
        return not isinstance(value, AnsibleUnsafe)

    hostile = ["{{ lookup('pipe', 'id') }}", '{% raw %}', '{# x #}', "#jinja2:variable_start_string:'[['\n[[ x ]]", '100%']
    for text in hostile:
        assert clean(text) == text and not is_trusted_as_template(clean(text))
    # anything else is imported as it is (ansible-core 2.19 prints untrusted strings as {"__ansible_unsafe": ...})
    assert is_trusted_as_template(clean('100.64.0.11'))
    value = clean({'groups': [{'id': 'g1', 'name': '{{ x }}'}], 'n': 3, 'ok': True, 'none': None})
    assert value == {'groups': [{'id': 'g1', 'name': '{{ x }}'}], 'n': 3, 'ok': True, 'none': None}
    assert is_trusted_as_template(value['groups'][0]['id']) and not is_trusted_as_template(value['groups'][0]['name'])
    deep = 'x'
    for dummy in range(MAX_DEPTH):
        deep = [deep]
    assert clean(deep)
    with pytest.raises(TooDeep, match='nested deeper than %d levels' % MAX_DEPTH):
        clean([deep])


class Inventory:
    """What the plugin adds to; ``broken`` names a method that fails as ansible-core might."""

    def __init__(self, broken=None):
        self.groups = {'all': None, 'ungrouped': None}
        self.hosts = {}
        self.broken = broken

    def _maybe_break(self, name):
        if name == self.broken:
            raise RuntimeError('%s broke' % name)

    def add_host(self, host):
        self._maybe_break('add_host')
        self.hosts.setdefault(host, {})
        return host

    def add_group(self, group):
        self._maybe_break('add_group')
        self.groups.setdefault(group, None)
        return group

    def add_child(self, group, child):
        self._maybe_break('add_child')

    def set_variable(self, host, name, value):
        self._maybe_break('set_variable')
        self.hosts[host][name] = value


@pytest.mark.parametrize('broken, field', [('add_host', 'name'), ('add_child', 'groups'), ('set_variable', 'id')])
def test_any_error_while_adding_a_peer_fails_naming_peer_and_field(capsys, broken, field):
    inv = plugin(api_url='https://nms.example.com')
    inv.inventory = Inventory(broken)
    with pytest.raises(SourceFailed) as error:
        inv.add_peer(PEER, 'web-1', ['All'], 'nms_', None)
    message = ("nms.overlay.peers: cannot read the peers: GET https://nms.example.com:443/api/peers failed with HTTP 200: "
               "the peer 'Web 1' (id p1): %s is not usable (RuntimeError: %s broke)" % (field, broken))
    assert str(error.value) == message
    # a SystemExit with code 1, which ansible-core does not turn into a warning, after the message was shown
    assert isinstance(error.value, SystemExit) and error.value.code == 1
    assert message in ' '.join(capsys.readouterr().err.split())


@pytest.mark.parametrize('option, env, expected', [
    (None, None, None),
    (None, '', None),  # what AWX injects for a credential without a CA certificate: not the current directory
    (None, '/run/ca.pem', '/run/ca.pem'),
    ('/etc/ca.pem', '/run/ca.pem', '/etc/ca.pem'),
])
def test_ca_path_falls_back_to_nms_api_ca_path_unless_empty(monkeypatch, option, env, expected):
    if env is None:
        monkeypatch.delenv('NMS_API_CA_PATH', raising=False)
    else:
        monkeypatch.setenv('NMS_API_CA_PATH', env)
    assert plugin(ca_path=option).ca_path() == expected


def trusted(value):
    """Whether a text would be templated: marked trusted on ansible-core 2.19 and later, not marked unsafe before."""
    from ansible import template
    from ansible.utils.unsafe_proxy import AnsibleUnsafe
    if hasattr(template, 'is_trusted_as_template'):
        return template.is_trusted_as_template(value)
    return not isinstance(value, AnsibleUnsafe)


def marks(value):
    """A value with each text replaced by (text, trusted), to compare how two values are marked."""
    if isinstance(value, dict):
        return {marks(key): marks(item) for key, item in value.items()}
    if isinstance(value, list):
        return [marks(item) for item in value]
    if isinstance(value, str):
        return (str(value), trusted(value))
    return value


def test_clean_with_a_text_cache_marks_every_value_as_without_it():
    """The cache of read_source (texts shared by many peers are marked once) changes no value and no mark."""
    from ansible_collections.nms.overlay.plugins.inventory.peers import clean
    hostile = "{{ lookup('pipe', 'id') }}"
    values = ['linux', hostile, 'linux', '', hostile, 3, True, None,
              [{'id': 'g1', 'name': hostile, '{{ key }}': 'x'}, {'id': 'g1', 'name': 'web'}], {'os': 'linux'}]
    texts = {}
    cached = [clean(value, texts=texts) for value in values]
    assert [marks(value) for value in cached] == [marks(clean(value)) for value in values]
    assert not trusted(cached[1]) and not trusted(cached[4]) and trusted(cached[0])
    assert cached[0] is cached[2] and cached[1] is cached[4]  # one marked text per distinct text
    assert set(texts) == {'linux', hostile, '', 'g1', 'web', 'x'}

    # a text of another type (marked already, as a cache plugin might give it) is cleaned itself, never looked up
    from ansible_collections.nms.overlay.plugins.inventory.peers import trust_as_template
    from ansible.utils.unsafe_proxy import wrap_var
    marked = trust_as_template('linux') if trust_as_template else wrap_var('linux')
    assert type(marked) is not str  # pylint: disable=unidiomatic-typecheck
    sentinel = object()
    assert clean(marked, texts={'linux': sentinel}) == 'linux'


def test_add_peer_with_a_text_cache_sets_what_it_sets_without_it():
    hostile = "{{ lookup('pipe', 'id') }}"
    peers = [dict(PEER, id='p%d' % index, name=hostile if index % 2 else 'web', os='linux', kernel_version='6.1.0')
             for index in range(4)]
    results = []
    for texts in (None, {}):
        inv = plugin(api_url='https://nms.example.com')
        inv.inventory = Inventory()
        for index, peer in enumerate(peers):
            inv.add_peer(peer, 'host%d' % index, ['All', 'web_servers'], 'nms_', None, texts)
        results.append({host: {name: marks(value) for name, value in values.items()} for host, values in inv.inventory.hosts.items()})
    assert results[0] == results[1]
    assert results[0]['host1']['nms_name'] == (hostile, False) and results[0]['host0']['nms_os'] == ('linux', True)


def test_could_be_template_knows_every_template_mark():
    from ansible_collections.nms.overlay.plugins.inventory.peers import TEMPLATE_MARKS, could_be_template
    assert all(could_be_template('a %s b' % mark) for mark in TEMPLATE_MARKS)
    assert not could_be_template('web-1.netbird.selfhosted 100.64.0.10 # jinja2 }')
