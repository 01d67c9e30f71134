# -*- coding: utf-8 -*-
"""nms.overlay.event_info and location_info through ansible-playbook and real HTTP, in both dialects."""

from __future__ import annotations

import pytest

from tests.integration.conftest import DIALECTS, running_emulator
from tests.support.emulator import make_peers
from tests.support.modules import examples_of


def api_events(emulator):
    status, events = emulator.api('GET', '/api/events')
    assert status == 200
    return events


def make_activity(emulator):
    """Groups, enrolled peers and a rename: events from the owner and from a setup key."""
    peers = make_peers(emulator, 'web-1', 'db-1')
    for name in ('servers', 'backup'):
        status, dummy = emulator.api('POST', '/api/groups', {'name': name})
        assert status == 200
    status, dummy = emulator.api('PUT', '/api/peers/%s' % peers['web-1'],
                                 {'name': 'web-1-fra', 'ssh_enabled': False, 'login_expiration_enabled': False})
    assert status == 200
    emulator.clear_log()
    return peers


def run_events(run, **args):
    result = run([{'name': 'events', 'nms.overlay.event_info': args}])
    assert result.rc == 0, result
    return result['events']['events']


def test_all_events_newest_first_with_string_ids(emulator, run):
    make_activity(emulator)
    events = run_events(run)
    # v0.77 keeps the audit log at /api/events/audit (one request); v0.27 answers it with 404, then /api/events
    audit = [('GET /api/events/audit', 200)] if emulator.dialect == 'current' else [
        ('GET /api/events/audit', 404), ('GET /api/events', 200)]
    assert [(r['method'] + ' ' + r['path'], r['status']) for r in emulator.requests()] == audit
    server = api_events(emulator)
    assert [e['id'] for e in events] == [str(e['id']) for e in server]
    assert all(isinstance(e['id'], str) and isinstance(e['meta'], dict) for e in events)
    stamps = [e['timestamp'] for e in events]
    assert stamps == sorted(stamps, reverse=True)
    assert events[0]['activity_code'] == 'peer.rename'


def test_filters(emulator, run):
    peers = make_activity(emulator)
    server = api_events(emulator)
    key_id = str([e for e in server if e['activity_code'] == 'setupkey.add'][0]['target_id'])
    joined = 'peer.setupkey.add' if emulator.dialect == 'current' else 'setupkey.peer.add'  # v0.77 renamed it
    result = run([
        {'name': 'one code', 'nms.overlay.event_info': {'activity_code': ['group.add']}},
        {'name': 'codes', 'nms.overlay.event_info': {'activity_code': ['peer.rename', 'setupkey.*', joined]}},
        {'name': 'by key', 'nms.overlay.event_info': {'initiator_id': key_id}},
        {'name': 'by email', 'nms.overlay.event_info': {'initiator_email': 'OWNER@example.com',
                                                        'activity_code': [joined, 'group.add']}},
        {'name': 'target', 'nms.overlay.event_info': {'target_id': peers['web-1']}},
        {'name': 'limit', 'nms.overlay.event_info': {'limit': 2}},
        {'name': 'recent', 'nms.overlay.event_info': {'since': '-1h', 'until': 'now', 'activity_code': ['group.add']}},
        {'name': 'old', 'nms.overlay.event_info': {'until': '2000-01-01'}},
        {'name': 'future', 'nms.overlay.event_info': {'since': '2999-01-01T00:00:00+02:00'}},
    ])
    assert result.rc == 0, result

    def codes(name):
        return [e['activity_code'] for e in result[name]['events']]

    assert codes('one code') == ['group.add', 'group.add']
    assert [e['meta']['name'] for e in result['one code']['events']] == ['backup', 'servers']
    assert codes('codes') == ['peer.rename', joined, joined, 'setupkey.add']
    assert codes('by key') == [joined, joined]
    assert codes('by email') == ['group.add', 'group.add']
    assert sorted(codes('target')) == sorted(['peer.rename', joined])
    assert [e['id'] for e in result['limit']['events']] == [str(e['id']) for e in server[:2]]
    assert codes('recent') == ['group.add', 'group.add']
    assert result['old']['events'] == [] and result['future']['events'] == []

    # A window with a bound taken from an event: at or after it.
    middle = server[2]
    since = run_events(run, since=middle['timestamp'])
    assert [e['id'] for e in since] == [str(e['id']) for e in server if e['timestamp'] >= middle['timestamp']]
    until = run_events(run, until=middle['timestamp'])
    assert [e['id'] for e in until] == [str(e['id']) for e in server if e['timestamp'] <= middle['timestamp']]


def test_invalid_options_fail_before_any_request(emulator, run):
    emulator.clear_log()
    result = run([
        {'name': 'bad since', 'nms.overlay.event_info': {'since': 'yesterday'}, 'ignore_errors': True},
        {'name': 'reversed', 'nms.overlay.event_info': {'since': '2026-02-01', 'until': '2026-01-01'},
         'ignore_errors': True},
        {'name': 'limit', 'nms.overlay.event_info': {'limit': 0}, 'ignore_errors': True},
        {'name': 'both', 'nms.overlay.event_info': {'initiator_id': 'x', 'initiator_email': 'y'}, 'ignore_errors': True},
    ])
    assert result['bad since']['msg'].startswith("since: 'yesterday' is neither an ISO 8601 timestamp")
    assert result['reversed']['msg'] == 'since (2026-02-01) is later than until (2026-01-01)'
    assert result['limit']['msg'] == 'limit: must be at least 1 (leave it unset for every event)'
    assert 'mutually exclusive' in result['both']['msg']
    assert emulator.requests() == []


def test_event_info_needs_admin_power(emulator, run):
    seeded = emulator.add_user('dev@example.com', role='user', token=True)
    result = run([{'name': 'events', 'nms.overlay.event_info': {}}], env={'NMS_API_TOKEN': seeded['token']},
                 ansible=True)  # the output is checked
    assert result['events']['failed'] is True
    path = '/api/events/audit' if emulator.dialect == 'current' else '/api/events'
    assert result['events']['msg'].startswith('GET %s%s failed with HTTP 403' % (emulator.url, path))
    assert seeded['token'] not in result.stdout


def test_locations(emulator, run):
    emulator.clear_log()
    result = run([
        {'name': 'countries', 'nms.overlay.location_info': {}},
        {'name': 'cities', 'nms.overlay.location_info': {'country': 'de'}},
        {'name': 'none', 'nms.overlay.location_info': {'country': 'ZZ'}},
        {'name': 'bad', 'nms.overlay.location_info': {'country': 'DEU'}, 'ignore_errors': True},
    ])
    countries = result['countries']['countries']
    assert [c['country_code'] for c in countries] == ['FR', 'DE', 'NL', 'GB', 'US']  # by name, as servers send them
    # (the spec's shapes, bare country codes and one city object: tests/reliability/test_seed_conformance.py)
    assert countries[1] == {'country_code': 'DE', 'country_name': 'Germany'}
    cities = result['cities']
    assert cities['country'] == 'DE'
    assert {'geoname_id': 2950159, 'city_name': 'Berlin'} in cities['cities']
    assert [c['city_name'] for c in cities['cities']] == ['Berlin', 'Frankfurt am Main', 'Munich']
    assert result['none']['cities'] == [] and result['none']['country'] == 'ZZ'
    assert result['bad']['msg'] == "country: 'DEU' is not a two-letter ISO 3166-1 alpha-2 code (for example DE)"
    assert [r['path'] for r in emulator.requests()] == [
        '/api/locations/countries', '/api/locations/countries/DE/cities', '/api/locations/countries/ZZ/cities']


@pytest.fixture(scope='module', params=DIALECTS)
def no_geo_emulator(request, tmp_path_factory):
    with running_emulator(request.param, str(tmp_path_factory.mktemp('no-geo')), extra_args=['--no-geo']) as emu:
        yield emu


def test_locations_without_geo_database(no_geo_emulator, run):
    env = {'NMS_API_URL': no_geo_emulator.url, 'NMS_API_TOKEN': no_geo_emulator.token}
    result = run([
        {'name': 'countries', 'nms.overlay.location_info': {}, 'ignore_errors': True},
        {'name': 'cities', 'nms.overlay.location_info': {'country': 'DE'}, 'ignore_errors': True},
    ], env=env, ansible=True)  # the output is checked
    for name, path in (('countries', '/locations/countries'), ('cities', '/locations/countries/DE/cities')):
        assert result[name]['failed'] is True
        assert result[name]['msg'] == (
            'the server has no geo-location database, so it knows no countries or cities (GET %s failed with HTTP 412: '
            'geo location database is not initialized); install the database on the server or leave geo-location out'
            % (no_geo_emulator.url + '/api' + path))
    assert no_geo_emulator.token not in result.stdout


def test_examples_run_unchanged(emulator, run):
    make_activity(emulator)
    # an example marked for today's servers is refused by a v0.27 one (as its docs say)
    examples = [task for task in examples_of('event_info') if emulator.dialect == 'current' or '(v0.77 servers)' not in task['name']]
    result = run(examples + examples_of('location_info'))
    assert result.rc == 0, result
    assert not result.failed


def test_meta_values_are_strings_in_both_dialects(emulator, run):
    """Real servers send meta values as Go's text, and the module returns text (the spec's JSON booleans, which the
    module turns into text too: tests/reliability/test_seed_conformance.py)."""
    status, robot = emulator.api('POST', '/api/users', {
        'name': 'robot', 'role': 'admin', 'is_service_user': True, 'auto_groups': []})
    assert status == 200, robot
    status, token = emulator.api('POST', '/api/users/%s/tokens' % robot['id'], {'name': 'ci', 'expires_in': 30})
    assert status == 200, token
    sent = [e for e in api_events(emulator) if e['activity_code'] == 'personal.access.token.create']
    assert len(sent) == 1
    assert sent[0]['meta']['is_service_user'] == 'true'  # Go's text (the spec's JSON boolean: the seed conformance)
    events = run_events(run, activity_code=['personal.access.token.create'])
    assert len(events) == 1
    meta = events[0]['meta']
    assert meta['is_service_user'] == 'true' and meta['name'] == 'ci' and meta['user_name'] == 'robot'
    assert all(isinstance(value, str) for event in run_events(run) for value in event['meta'].values())
