# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Conformance with the spec where real servers differ: the ``seed`` dialect, in process.

No deployed server speaks the spec literally, but a server that did must work as well: the modules read both
shapes. The integration tests run against what v0.27.6 and v0.77.1 servers send (``netbird``, ``current``);
this file holds what only the spec's shapes show (they used to run the whole integration suite a third time):

* DNS settings wrapped in ``items``;
* setup key ids and event ids as integers (the modules return them as strings, as real servers send them);
* a created token's ``plain_token`` as an object (``{"token": ...}``);
* the cities of a country as one object, a country without cities as 404, countries as bare codes;
* a posture check's network ranges nested in a list on read;
* a port range in a rule's ``ports`` (what the access view and the access report show of it);
* event ``meta`` values as JSON booleans (the modules return text, as real servers send it);
* empty answers to deletes;
* network_state over DNS settings, setup keys and posture checks in these shapes.

Each test first checks that the emulator answers in the spec's shape (so the test cannot pass without it),
then what the module makes of it. Modules run as tests/support/inprocess.py ``run_module`` runs them: through
the entry the action plugin uses in the controller.
"""

from __future__ import annotations

import pytest

from tests.reliability.conftest import connection_of
from tests.support.inprocess import assert_clean_end, describe, run_module


@pytest.fixture
def seed(seed_emulator_session):
    seed_emulator_session.reset()
    return seed_emulator_session


def ok(emu, module, diff=False, **args):
    """The result of ``module`` with ``args`` and the connection to ``emu``: a clean end, not failed."""
    full = dict(connection_of(emu), **args)
    result = run_module(module, full, diff=diff)
    assert_clean_end(module, full, result)
    assert not result.get('failed'), describe(result)
    return result


def writes(emu):
    return [w['method'] + ' ' + w['path'] for w in emu.writes()]


# -- DNS settings: the items wrapper ------------------------------------------------------------------------
def test_dns_settings_wrapped_in_items(seed):
    raw = seed.ok('GET', '/api/dns/settings')
    assert raw == {'items': {'disabled_management_groups': []}}  # the spec; real servers send the settings bare
    unmanaged = seed.ok('POST', '/api/groups', {'name': 'unmanaged', 'peers': []})
    seed.clear_log()

    read = ok(seed, 'dns_settings_info')
    assert read['dns_settings'] == {'disabled_management_groups': []}
    assert read['changed'] is False

    changed = ok(seed, 'dns_settings', diff=True, disabled_management_groups=['unmanaged'])
    assert changed['changed'] is True
    assert changed['diff'] == {'before': {'disabled_management_groups': []},
                               'after': {'disabled_management_groups': ['unmanaged']}}
    assert changed['dns_settings'] == {'disabled_management_groups': [unmanaged['id']]}
    assert writes(seed) == ['PUT /api/dns/settings']
    assert seed.ok('GET', '/api/dns/settings') == {'items': {'disabled_management_groups': [unmanaged['id']]}}

    seed.clear_log()
    again = ok(seed, 'dns_settings', disabled_management_groups=[unmanaged['id']])
    assert again['changed'] is False and seed.writes() == []
    assert ok(seed, 'dns_settings_info')['dns_settings'] == {'disabled_management_groups': [unmanaged['id']]}


# -- setup keys and events: integer ids ---------------------------------------------------------------------
def test_setup_key_integer_ids_come_back_as_strings(seed):
    made = seed.ok('POST', '/api/setup-keys', {'name': 'made', 'type': 'reusable', 'expires_in': 86400,
                                               'revoked': False, 'auto_groups': [], 'usage_limit': 0})
    assert isinstance(made['id'], int)  # the spec; real servers send a string
    seed.clear_log()

    created = ok(seed, 'setup_key', name='servers', type='reusable', expires_in='30d')
    assert created['changed'] is True
    key = created['setup_key']
    assert isinstance(key['id'], str) and key['id'].isdigit()
    assert len(key['key']) == 36 and key['state'] == 'valid'
    (listed,) = [k for k in seed.ok('GET', '/api/setup-keys') if k['name'] == 'servers']
    assert key['id'] == str(listed['id']) and isinstance(listed['id'], int)

    seed.clear_log()
    again = ok(seed, 'setup_key', name='servers', type='reusable')
    assert again['changed'] is False and again['setup_key']['id'] == key['id'] and seed.writes() == []

    info = ok(seed, 'setup_key_info')
    assert sorted(k['id'] for k in info['setup_keys']) == sorted([str(made['id']), key['id']])
    assert all(isinstance(k['id'], str) for k in info['setup_keys'])
    by_id = ok(seed, 'setup_key_info', id=str(made['id']))
    assert [k['name'] for k in by_id['setup_keys']] == ['made']

    # a key found by its integer id is updated and revoked through it
    seed.clear_log()
    revoked = ok(seed, 'setup_key', id=str(made['id']), revoked=True)
    assert revoked['changed'] is True and revoked['setup_key']['id'] == str(made['id'])
    assert writes(seed) == ['PUT /api/setup-keys/%s' % made['id']]

    # replace_invalid names the replaced key by its id as a string
    replaced = ok(seed, 'setup_key', name='made', type='one-off', replace_invalid=True)
    assert replaced['changed'] is True and replaced['replaced_id'] == str(made['id'])
    assert isinstance(replaced['setup_key']['id'], str)


def test_event_integer_ids_and_boolean_meta_come_back_as_strings(seed):
    robot = seed.ok('POST', '/api/users', {'name': 'robot', 'role': 'admin', 'is_service_user': True,
                                           'auto_groups': []})
    seed.ok('POST', '/api/users/%s/tokens' % robot['id'], {'name': 'ci', 'expires_in': 30})
    for name in ('servers', 'backup'):
        seed.ok('POST', '/api/groups', {'name': name, 'peers': []})
    server = seed.ok('GET', '/api/events')
    assert server and all(isinstance(event['id'], int) for event in server)  # the spec; real servers: strings
    (token_event,) = [e for e in server if e['activity_code'] == 'personal.access.token.create']
    assert token_event['meta']['is_service_user'] is True  # the spec's JSON boolean; real servers send "true"
    seed.clear_log()

    events = ok(seed, 'event_info')['events']
    assert [e['id'] for e in events] == [str(e['id']) for e in server]
    assert all(isinstance(e['id'], str) and isinstance(e['meta'], dict) for e in events)
    stamps = [e['timestamp'] for e in events]
    assert stamps == sorted(stamps, reverse=True)
    assert ok(seed, 'event_info', limit=2)['events'] == events[:2]

    (token,) = ok(seed, 'event_info', activity_code=['personal.access.token.create'])['events']
    assert token['meta']['is_service_user'] == 'true'
    assert token['meta']['name'] == 'ci' and token['meta']['user_name'] == 'robot'
    assert all(isinstance(value, str) for event in events for value in event['meta'].values())


# -- tokens: plain_token as an object -----------------------------------------------------------------------
def test_plain_token_as_an_object(seed):
    robot = seed.ok('POST', '/api/users', {'name': 'ci-bot', 'role': 'admin', 'is_service_user': True,
                                           'auto_groups': []})
    answer = seed.ok('POST', '/api/users/%s/tokens' % robot['id'], {'name': 'probe', 'expires_in': 1})
    assert isinstance(answer['plain_token'], dict) and answer['plain_token']['token'].startswith('nbp_')  # the spec
    seed.clear_log()

    created = ok(seed, 'token', user='ci-bot', name='pipeline', expires_in=30)
    assert created['changed'] is True
    plain = created['plain_token']
    assert isinstance(plain, str) and plain.startswith('nbp_') and len(plain) == 40
    assert 'plain_token' not in created['token']
    assert seed.api('GET', '/api/groups', token=plain)[0] == 200  # the value works

    rotated = ok(seed, 'token', user='ci-bot', name='pipeline', rotate=True)
    new_plain = rotated['plain_token']
    assert isinstance(new_plain, str) and new_plain.startswith('nbp_') and new_plain != plain
    assert rotated['replaced_id'] == created['token']['id']
    assert seed.api('GET', '/api/groups', token=plain)[0] == 401
    assert seed.api('GET', '/api/groups', token=new_plain)[0] == 200

    # the owner's own token, by the owner's id
    own = ok(seed, 'token', user='owner-user', name='mine', expires_in=7)
    assert isinstance(own['plain_token'], str) and own['plain_token'].startswith('nbp_')


# -- locations: countries as codes, cities as one object, none as 404 ---------------------------------------
def test_locations_as_the_spec_shows_them(seed):
    assert seed.ok('GET', '/api/locations/countries') == ['FR', 'DE', 'NL', 'GB', 'US']  # the spec: bare codes
    one = seed.ok('GET', '/api/locations/countries/DE/cities')
    assert one == {'geoname_id': 2950159, 'city_name': 'Berlin'}  # the spec's sample: one object, not a list
    assert seed.api('GET', '/api/locations/countries/ZZ/cities')[0] == 404
    seed.clear_log()

    countries = ok(seed, 'location_info')['countries']
    assert [c['country_code'] for c in countries] == ['FR', 'DE', 'NL', 'GB', 'US']
    cities = ok(seed, 'location_info', country='de')
    assert cities['country'] == 'DE'
    assert cities['cities'] == [{'geoname_id': 2950159, 'city_name': 'Berlin'}]
    none = ok(seed, 'location_info', country='ZZ')
    assert none['cities'] == [] and none['country'] == 'ZZ'
    assert [r['path'] for r in seed.requests()] == [
        '/api/locations/countries', '/api/locations/countries/DE/cities', '/api/locations/countries/ZZ/cities']


# -- posture checks: nested ranges --------------------------------------------------------------------------
def test_posture_check_ranges_read_nested(seed):
    seed.ok('POST', '/api/posture-checks', {'name': 'nets', 'description': '', 'checks': {
        'peer_network_range_check': {'action': 'allow', 'ranges': ['10.0.0.0/8', '172.16.0.0/12']}}})
    (raw,) = seed.ok('GET', '/api/posture-checks')
    assert raw['checks']['peer_network_range_check']['ranges'] == [['10.0.0.0/8', '172.16.0.0/12']]  # the spec's sample
    seed.clear_log()

    same = ok(seed, 'posture_check', name='nets', checks={
        'peer_network_range_check': {'action': 'allow', 'ranges': ['172.16.0.0/12', '10.0.0.0/8']}})
    assert same['changed'] is False and seed.writes() == []
    assert same['posture_check']['checks']['peer_network_range_check']['ranges'] == ['10.0.0.0/8', '172.16.0.0/12']
    info = ok(seed, 'posture_check_info', name='nets')
    assert info['posture_checks'][0]['checks']['peer_network_range_check']['ranges'] == ['10.0.0.0/8', '172.16.0.0/12']

    fewer = ok(seed, 'posture_check', name='nets', diff=True, checks={
        'peer_network_range_check': {'action': 'allow', 'ranges': ['10.0.0.0/8']}})
    assert fewer['changed'] is True
    assert fewer['diff']['before']['checks']['peer_network_range_check']['ranges'] == ['10.0.0.0/8', '172.16.0.0/12']
    (put,) = seed.writes()
    assert put['body']['checks']['peer_network_range_check']['ranges'] == ['10.0.0.0/8']  # sent flat


# -- policies: a port range in a rule's ports ---------------------------------------------------------------
def test_a_port_range_in_ports_reaches_the_access_view_and_the_report(seed):
    """The spec lets a rule's ports hold a range; v0.27 servers refuse one, v0.77 servers hold ranges in port_ranges
    (the access report's integration test covers those). What the access_report playbook reads and renders."""
    # pylint: disable=import-outside-toplevel
    from ansible_collections.nms.overlay.plugins.filter.access_matrix import access_matrix
    groups = {name: seed.ok('POST', '/api/groups', {'name': name, 'peers': []})['id'] for name in ('office', 'servers')}
    seed.ok('POST', '/api/policies', {'name': 'web', 'description': '', 'enabled': True, 'rules': [{
        'name': 'web', 'description': '', 'enabled': True, 'action': 'accept', 'bidirectional': False, 'protocol': 'tcp',
        'ports': ['8000-8100', '443'], 'sources': [groups['office']], 'destinations': [groups['servers']]}]})
    (stored,) = [p for p in seed.ok('GET', '/api/policies') if p['name'] == 'web']
    assert stored['rules'][0]['ports'] == ['8000-8100', '443'] and 'port_ranges' not in stored['rules'][0]

    access = ok(seed, 'policy_info', view='access')['access']
    assert [(r['source'], r['destination'], r['protocol'], r['ports']) for r in access if r['policy'] == 'web'] == [
        ('office', 'servers', 'tcp', ['443', '8000-8100'])]
    matrix = access_matrix(ok(seed, 'policy_info')['policies'], ok(seed, 'group_info')['groups'])
    assert [line['text'] for line in matrix['in_force'] if line['policy'] == 'web'] == ['tcp 443, 8000-8100']


# -- network_state: the same shapes through the description ----------------------------------------------------
def test_network_state_builds_and_settles_on_the_spec_shapes(seed):
    """DNS settings in items, a setup key's integer id and nested posture check ranges, read by network_state: it
    builds, reports the key's id as a string, and a re-run is unchanged with no write."""
    description = {
        'groups': [{'name': 'unmanaged'}, {'name': 'servers'}],
        'posture_checks': [{'name': 'office', 'checks': {
            'peer_network_range_check': {'action': 'allow', 'ranges': ['172.16.0.0/12', '10.0.0.0/8']}}}],
        'dns_settings': {'disabled_management_groups': ['unmanaged']},
        'setup_keys': [{'name': 'servers', 'type': 'reusable', 'expires_in': 86400, 'auto_groups': ['servers']}],
    }
    built = ok(seed, 'network_state', **description)
    assert built['changed'] is True
    (key,) = [c for c in built['changes'] if c['kind'] == 'setup_keys']
    assert isinstance(key['id'], str) and key['id'].isdigit()
    assert [k['id'] for k in seed.ok('GET', '/api/setup-keys') if k['name'] == 'servers'] == [int(key['id'])]
    assert 'items' in seed.ok('GET', '/api/dns/settings')
    (check,) = seed.ok('GET', '/api/posture-checks')
    assert isinstance(check['checks']['peer_network_range_check']['ranges'][0], list)

    seed.clear_log()
    again = ok(seed, 'network_state', **description)
    assert again['changed'] is False and again['changes'] == [], again['changes']
    assert seed.writes() == []


# -- deletes: an empty answer -------------------------------------------------------------------------------
def test_deletes_answered_with_no_body(seed):
    group = seed.ok('POST', '/api/groups', {'name': 'short-lived', 'peers': []})
    status, body = seed.api('DELETE', '/api/groups/%s' % seed.ok('POST', '/api/groups', {'name': 'probe'})['id'])
    assert (status, body) == (200, None)  # the spec; real servers answer {}
    seed.clear_log()
    gone = ok(seed, 'group', name='short-lived', state='absent')
    assert gone['changed'] is True and writes(seed) == ['DELETE /api/groups/%s' % group['id']]
    assert ok(seed, 'group', name='short-lived', state='absent')['changed'] is False
