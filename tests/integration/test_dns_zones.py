# -*- coding: utf-8 -*-
"""nms.overlay.dns_zone, dns_record and their info modules through ansible-playbook and real HTTP.

DNS zones exist on servers of today only: the ``current`` dialect (a v0.77.1 server) manages them; against a
v0.27 server (``netbird``) every module fails after GET /api/instance/version, before any write.
"""

from __future__ import annotations

import pytest

from tests.support.emulator import make_group, writes_of
from tests.support.modules import examples_of

DOMAIN = 'internal.example.com'
REFUSED = ('this server (v0.27: it has no GET /api/instance/version) does not have DNS zones (they came after '
           'v0.27); upgrade the server to manage them')


@pytest.fixture
def current(emulator):
    if emulator.dialect != 'current':
        pytest.skip('DNS zones are managed on servers of today (the current dialect)')
    return emulator


def zones_of(emulator):
    status, zones = emulator.api('GET', '/api/dns/zones')
    assert status == 200, zones
    return zones


def records_of(emulator, zone_id):
    status, records = emulator.api('GET', '/api/dns/zones/%s/records' % zone_id)
    assert status == 200, records
    return records


def zone_task(label='zone', **options):
    return {'name': label, 'nms.overlay.dns_zone': dict({'domain': DOMAIN}, **options)}


def record_task(label='record', **options):
    return {'name': label, 'nms.overlay.dns_record': dict({'zone': DOMAIN}, **options)}


def test_zone_create_rerun_check_mode_diff_update_delete(current, run):
    developers = make_group(current, 'developers')
    servers = make_group(current, 'servers')
    current.clear_log()
    wanted = dict(name='Internal', distribution_groups=['developers', 'servers'])

    first = run([zone_task(**wanted)])
    assert first.rc == 0, first
    created = first['zone']['dns_zone']
    assert first['zone']['changed'] is True
    assert writes_of(current) == ['POST /api/dns/zones']
    assert sorted(created['distribution_groups']) == sorted([developers['id'], servers['id']])
    assert created['enabled'] is True and created['enable_search_domain'] is False and created['records'] == []

    # The same task again, the groups in another order and one as an id: no change, no write.
    current.clear_log()
    again = run([zone_task(name='Internal', distribution_groups=[servers['id'], 'developers'])])
    assert again['zone']['changed'] is False
    assert current.writes() == []

    # Check mode: a planned update and a planned zone, no write.
    current.clear_log()
    planned = run([zone_task(enable_search_domain=True),
                   zone_task('new zone', domain='lab.example.com', name='Lab', distribution_groups=['servers'])],
                  check=True, diff=True)
    assert planned.rc == 0, planned
    assert planned['zone']['changed'] is True and planned['zone']['dns_zone']['enable_search_domain'] is True
    assert planned['new zone']['dns_zone']['id'] == '(new DNS zone lab.example.com)'
    assert current.writes() == []
    assert [zone['domain'] for zone in zones_of(current)] == [DOMAIN]

    # Update with --diff: groups by name; every other field kept.
    current.clear_log()
    update = run([zone_task(distribution_groups=['servers'], enabled=False)], diff=True)
    assert update['zone']['changed'] is True
    assert update['zone']['diff'] == {'before': {'enabled': True, 'distribution_groups': ['developers', 'servers']},
                                      'after': {'enabled': False, 'distribution_groups': ['servers']}}
    assert writes_of(current) == ['PUT /api/dns/zones/%s' % created['id']]
    stored = zones_of(current)[0]
    assert stored['distribution_groups'] == [servers['id']] and stored['enabled'] is False and stored['name'] == 'Internal'

    # Delete, then delete again.
    current.clear_log()
    gone = run([zone_task('delete', state='absent'), zone_task('delete again', state='absent')])
    assert gone['delete']['changed'] is True and gone['delete again']['changed'] is False
    assert writes_of(current) == ['DELETE /api/dns/zones/%s' % created['id']]
    assert zones_of(current) == []


def test_zone_options_fail_before_any_request_and_the_domain_never_changes(current, run):
    make_group(current, 'servers')
    current.clear_log()
    bad = run([zone_task('bad', name='Internal', distribution_groups=[])])
    assert bad['bad']['failed'] is True
    assert bad['bad']['msg'] == 'option distribution_groups: must list at least 1 item'
    assert current.requests() == []

    made = run([zone_task(name='Internal', distribution_groups=['servers'])])
    zone_id = made['zone']['dns_zone']['id']
    current.clear_log()
    moved = run([{'name': 'move', 'nms.overlay.dns_zone': {'id': zone_id, 'domain': 'other.example.com'}}],
                ansible=True)  # the warning is checked in the output
    assert moved['move']['changed'] is False
    assert "domain cannot change after the DNS zone is created" in moved.text
    assert current.writes() == []


def test_record_create_rerun_check_mode_diff_update_delete(current, run):
    make_group(current, 'servers')
    zone = run([zone_task(name='Internal', distribution_groups=['servers'])])['zone']['dns_zone']
    current.clear_log()
    wanted = dict(name='db.%s' % DOMAIN, type='A', content='10.0.0.5', ttl=300)

    first = run([record_task(**wanted)])
    assert first.rc == 0, first
    record = first['record']['dns_record']
    assert first['record']['changed'] is True and record['content'] == '10.0.0.5'
    assert writes_of(current) == ['POST /api/dns/zones/%s/records' % zone['id']]

    # Again, the zone named by its name this time: no change, no write (one list of zones, one of records).
    current.clear_log()
    again = run([record_task(**dict(wanted, zone='Internal'))])
    assert again['record']['changed'] is False
    assert current.writes() == []
    assert len(current.requests()) == 3  # the server's version, the zones, the zone's records

    # Check mode: a planned update and a planned record, no write.
    current.clear_log()
    planned = run([record_task(**{**wanted, 'content': '10.0.0.6'}),
                   record_task('new record', name='web.%s' % DOMAIN, type='CNAME', content='db.%s' % DOMAIN, ttl=60)],
                  check=True, diff=True)
    assert planned.rc == 0, planned
    assert planned['record']['dns_record']['content'] == '10.0.0.6'
    assert planned['new record']['changed'] is True and planned['new record']['diff']['before'] == {}
    assert current.writes() == []

    # Update with --diff.
    current.clear_log()
    update = run([record_task(name=wanted['name'], type='A', content='10.0.0.6', ttl=60)], diff=True)
    assert update['record']['diff'] == {'before': {'content': '10.0.0.5', 'ttl': 300}, 'after': {'content': '10.0.0.6', 'ttl': 60}}
    assert writes_of(current) == ['PUT /api/dns/zones/%s/records/%s' % (zone['id'], record['id'])]
    assert records_of(current, zone['id']) == [dict(record, content='10.0.0.6', ttl=60)]

    # A record that does not fit its type fails before any write, naming the option.
    current.clear_log()
    bad = run([record_task('bad', name=wanted['name'], type='AAAA', content='10.0.0.7', ttl=60)])
    assert bad['bad']['msg'] == "option content: must be an IPv6 address for a record of type AAAA, not '10.0.0.7'"
    assert current.requests() == []

    # Delete, then delete again; deleting from a zone that does not exist changes nothing.
    current.clear_log()
    gone = run([record_task('delete', name=wanted['name'], type='A', state='absent'),
                record_task('delete again', name=wanted['name'], type='A', state='absent'),
                record_task('no zone', zone='nowhere.example.com', name='a.nowhere.example.com', state='absent')])
    assert [gone[task]['changed'] for task in ('delete', 'delete again', 'no zone')] == [True, False, False]
    assert writes_of(current) == ['DELETE /api/dns/zones/%s/records/%s' % (zone['id'], record['id'])]
    assert records_of(current, zone['id']) == []


def test_round_robin_records_are_chosen_by_content(current, run):
    make_group(current, 'servers')
    zone = run([zone_task(name='Internal', distribution_groups=['servers'])])['zone']['dns_zone']
    name = 'web.%s' % DOMAIN
    for address in ('10.0.0.1', '10.0.0.2'):
        current.ok('POST', '/api/dns/zones/%s/records' % zone['id'], {'name': name, 'type': 'A', 'content': address, 'ttl': 300})
    current.clear_log()
    result = run([record_task('second', name=name, type='A', content='10.0.0.2', ttl=30),
                  record_task('ambiguous', name=name, type='A', ttl=30)])
    assert result['second']['changed'] is True and result['second']['dns_record']['content'] == '10.0.0.2'
    assert result['ambiguous']['failed'] is True
    assert "matches 2 DNS records" in result['ambiguous']['msg'] and 'give the content or the id' in result['ambiguous']['msg']
    assert len(current.writes()) == 1
    assert sorted((r['content'], r['ttl']) for r in records_of(current, zone['id'])) == [('10.0.0.1', 300), ('10.0.0.2', 30)]


def test_info_modules(current, run):
    make_group(current, 'servers')
    zone = run([zone_task(name='Internal', distribution_groups=['servers']),
                record_task(name='db.%s' % DOMAIN, type='A', content='10.0.0.5', ttl=300),
                record_task('v6', name='db.%s' % DOMAIN, type='AAAA', content='2001:db8::5', ttl=300)])['zone']['dns_zone']
    current.clear_log()
    result = run([
        {'name': 'all zones', 'nms.overlay.dns_zone_info': {}},
        {'name': 'by domain', 'nms.overlay.dns_zone_info': {'domain': DOMAIN}},
        {'name': 'by name', 'nms.overlay.dns_zone_info': {'name': 'nothing'}},
        {'name': 'records', 'nms.overlay.dns_record_info': {'zone': 'Internal'}},
        {'name': 'aaaa', 'nms.overlay.dns_record_info': {'zone': zone['id'], 'type': 'AAAA'}},
        {'name': 'unknown zone', 'nms.overlay.dns_record_info': {'zone': 'nowhere.example.com'}, 'ignore_errors': True},
    ], check=True)
    assert [z['domain'] for z in result['all zones']['dns_zones']] == [DOMAIN]
    assert len(result['by domain']['dns_zones'][0]['records']) == 2
    assert result['by name']['dns_zones'] == []
    assert sorted(r['type'] for r in result['records']['dns_records']) == ['A', 'AAAA']
    assert [r['content'] for r in result['aaaa']['dns_records']] == ['2001:db8::5']
    assert result['unknown zone']['msg'] == "zone: no DNS zone with the id or domain or name 'nowhere.example.com'"
    assert current.writes() == []


def test_examples_run_unchanged(current, run):
    """Every task of the four modules' EXAMPLES runs against a v0.77 server as written (the zone's deletion last)."""
    make_group(current, 'developers')
    make_group(current, 'servers')
    zone_examples = examples_of('dns_zone')
    tasks = (zone_examples[:-1] + examples_of('dns_record') + examples_of('dns_record_info') + examples_of('dns_zone_info')
             + zone_examples[-1:])
    assert zone_examples[-1]['nms.overlay.dns_zone']['state'] == 'absent'
    result = run(tasks)
    assert result.rc == 0, result
    assert not result.failed
    assert len(result.results) == len(tasks)
    assert result['Read the A records of one name']['dns_records'][0]['content'] == '10.0.0.6'
    assert zones_of(current) == []


@pytest.mark.parametrize('task', [
    zone_task(name='Internal', distribution_groups=['All']),
    record_task(name='db.%s' % DOMAIN, type='A', content='10.0.0.5', ttl=300),
    {'nms.overlay.dns_zone_info': {}},
    {'nms.overlay.dns_record_info': {'zone': DOMAIN}},
], ids=['dns_zone', 'dns_record', 'dns_zone_info', 'dns_record_info'])
def test_a_v027_server_refuses_every_module_after_one_request(emulator, run, task):
    if emulator.dialect == 'current':
        pytest.skip('a v0.27 server (the netbird dialect)')
    emulator.clear_log()
    result = run([dict(task, name='refused')])
    assert result['refused']['failed'] is True
    assert result['refused']['msg'] == REFUSED
    assert [(r['method'], r['path']) for r in emulator.requests()] == [('GET', '/api/instance/version')]
