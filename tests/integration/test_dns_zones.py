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
REFUSED = ('this server (v0.27: it has no GET /api/instance/version) does not have DNS zones, which came with NetBird '
           'v0.63.0; upgrade the server to v0.64.2 or later (the first release that answers GET /api/instance/version) '
           'to manage them')


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


def test_a_zone_on_the_peers_domain_is_refused_before_any_write(current, run):
    """v0.77.1 refuses, at write time (422), a zone on the peers' own DNS domain: the server's (netbird.selfhosted,
    as the peers' names show) or the account's dns_domain setting. The task refuses it first, in check mode too."""
    servers = make_group(current, 'servers')
    current.add_peers(peers=[{'hostname': 'web-1'}])
    zone = {'name': 'Peers', 'distribution_groups': ['servers']}
    for check in (True, False):
        current.clear_log()
        result = run([zone_task('peers', domain='netbird.selfhosted', **zone)], check=check)
        assert result['peers']['msg'] == (
            "option domain: 'netbird.selfhosted' is the peers' own DNS domain (the server's, as the peers' names show), "
            "and the server refuses a zone on it, whose names would conflict with the peers' names; give the zone "
            "another domain, such as a subdomain of it")
        assert current.writes() == []
    # network_state refuses it before its first write (the group it would create first included)
    current.clear_log()
    state = run([{'name': 'n', 'nms.overlay.network_state': {
        'groups': [{'name': 'peers'}], 'dns_zones': [dict(zone, domain='netbird.selfhosted', distribution_groups=['peers'])]}}])
    assert state['n']['msg'] == ("nothing was changed: dns_zones[0] (netbird.selfhosted): option domain: 'netbird.selfhosted' "
                                 "is the peers' own DNS domain (the server's, as the peers' names show), and the server "
                                 "refuses a zone on it, whose names would conflict with the peers' names; give the zone "
                                 "another domain, such as a subdomain of it")
    assert current.writes() == []
    status, answer = current.api('POST', '/api/dns/zones', dict(zone, domain='netbird.selfhosted',
                                                                distribution_groups=[servers['id']]))
    assert (status, answer['message']) == (422, 'zone domain netbird.selfhosted conflicts with peer dns domain')

    current.ok('PUT', '/api/accounts/%s' % current.ok('GET', '/api/accounts')[0]['id'], {'settings': dict(
        current.ok('GET', '/api/accounts')[0]['settings'], dns_domain='peers.example.com')})
    current.clear_log()
    result = run([dict(zone_task('account', domain='peers.example.com', **zone), ignore_errors=True),
                  zone_task('server', domain='netbird.selfhosted', **zone)], check=True)
    assert result['account']['msg'].startswith(
        "option domain: 'peers.example.com' is the peers' own DNS domain (the account's dns_domain setting)")
    # the server's own domain is not shown while the account's setting names the peers: NetBird's default is only
    # warned about (a server may run with another --dns-domain); v0.77.1 refuses it at write time (below)
    assert result['server']['changed'] is True and "is NetBird's default DNS domain of the peers" in \
        result['server']['warnings'][0]
    assert current.writes() == []
    for domain in ('peers.example.com', 'netbird.selfhosted'):
        status, answer = current.api('POST', '/api/dns/zones', dict(zone, domain=domain, distribution_groups=[servers['id']]))
        assert (status, answer['message']) == (422, 'zone domain %s conflicts with peer dns domain' % domain)
    result = run([zone_task('subdomain', domain='lab.peers.example.com', **zone)])
    assert result['subdomain']['changed'] is True


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

    # Check mode: a planned update (replace_content: the one A record of the name gets the new content) and a planned
    # record, no write.
    current.clear_log()
    planned = run([record_task(**{**wanted, 'content': '10.0.0.6', 'replace_content': True}),
                   record_task('new record', name='web.%s' % DOMAIN, type='CNAME', content='db.%s' % DOMAIN, ttl=60)],
                  check=True, diff=True)
    assert planned.rc == 0, planned
    assert planned['record']['dns_record']['content'] == '10.0.0.6'
    assert planned['new record']['changed'] is True and planned['new record']['diff']['before'] == {}
    assert current.writes() == []

    # Update with --diff.
    current.clear_log()
    update = run([record_task(name=wanted['name'], type='A', content='10.0.0.6', ttl=60, replace_content=True)], diff=True)
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


def test_round_robin_tasks_keep_every_record_and_settle(current, run):
    """Two tasks for one name and type with other addresses make two records (round robin) and a re-run writes
    nothing; content identifies an A record (a new address is another record, never a rewrite of the first), and
    replace_content changes the one record of a name and type, refused where several share them."""
    make_group(current, 'servers')
    zone = run([zone_task(name='Internal', distribution_groups=['servers'])])['zone']['dns_zone']
    name = 'web.%s' % DOMAIN
    pair = [record_task('first', name=name, type='A', content='10.0.0.1', ttl=60),
            record_task('second', name=name, type='A', content='10.0.0.2', ttl=60)]
    current.clear_log()
    planned = run(pair, check=True)
    assert [planned[task]['changed'] for task in ('first', 'second')] == [True, True]
    assert planned['second']['dns_record']['id'] == '(new DNS record %s)' % name
    assert current.writes() == []

    current.clear_log()
    made = run(pair)
    assert made.rc == 0, made
    assert writes_of(current) == ['POST /api/dns/zones/%s/records' % zone['id']] * 2
    assert sorted(r['content'] for r in records_of(current, zone['id'])) == ['10.0.0.1', '10.0.0.2']

    current.clear_log()
    again = run(pair)
    assert [again[task]['changed'] for task in ('first', 'second')] == [False, False]
    assert current.writes() == []

    # replace_content with two records of the name and type, neither with the content: no guess, no write
    current.clear_log()
    which = run([record_task('which', name=name, type='A', content='10.0.0.3', ttl=60, replace_content=True)], check=True)
    ids = sorted(r['id'] for r in records_of(current, zone['id']))
    assert which['which']['msg'] == ("name 'web.internal.example.com' and type A in the DNS zone 'internal.example.com' "
                                     "matches 2 DNS records (ids: %s), none with the content '10.0.0.3'; give the id of "
                                     "the one to change" % ', '.join(ids))
    assert current.writes() == []

    # deleting one address keeps the other
    current.clear_log()
    gone = run([record_task('drop', name=name, type='A', content='10.0.0.2', state='absent'),
                record_task('drop again', name=name, type='A', content='10.0.0.2', state='absent')])
    assert [gone[task]['changed'] for task in ('drop', 'drop again')] == [True, False]
    assert len(current.writes()) == 1
    assert [r['content'] for r in records_of(current, zone['id'])] == ['10.0.0.1']


def test_cname_clashes_are_refused_before_any_write_and_a_cname_changes_in_place(current, run):
    """A name with a CNAME record holds no other record (v0.77.1 refuses at write time: 422): the task refuses it
    first, in check mode too; a CNAME record is found by name and type, so a new target updates it in place."""
    make_group(current, 'servers')
    zone = run([zone_task(name='Internal', distribution_groups=['servers'])])['zone']['dns_zone']
    alias = run([record_task(name='www.%s' % DOMAIN, type='CNAME', content='web.%s' % DOMAIN, ttl=60)])['record']['dns_record']
    run([record_task(name='db.%s' % DOMAIN, type='A', content='10.0.0.5', ttl=60)])
    for check in (True, False):
        current.clear_log()
        result = run([dict(record_task('beside', name='www.%s' % DOMAIN, type='A', content='10.0.0.9', ttl=60),
                           ignore_errors=True),
                      record_task('over', name='db.%s' % DOMAIN, type='CNAME', content='web.%s' % DOMAIN, ttl=60)],
                     check=check)
        assert result['beside']['msg'] == (
            "option type: 'www.internal.example.com' has a record in the DNS zone 'internal.example.com' (CNAME "
            "web.internal.example.com, id %s), and a name with a CNAME record holds no other record; delete it first"
            % alias['id'])
        assert result['over']['msg'].startswith("option type: 'db.internal.example.com' has a record in the DNS zone")
        assert current.writes() == []

    current.clear_log()
    moved = run([record_task(name='www.%s' % DOMAIN, type='CNAME', content='db.%s' % DOMAIN, ttl=60)])
    assert moved['record']['changed'] is True and moved['record']['dns_record']['id'] == alias['id']
    assert writes_of(current) == ['PUT /api/dns/zones/%s/records/%s' % (zone['id'], alias['id'])]


def test_network_state_describes_round_robin_records(current, run):
    """Two records of one name and type in a zone's entry are two resources, not one described twice."""
    make_group(current, 'servers')
    records = [{'name': 'web.%s' % DOMAIN, 'type': 'A', 'content': address, 'ttl': 60}
               for address in ('10.0.0.1', '10.0.0.2')]
    described = {'dns_zones': [{'domain': DOMAIN, 'name': 'Internal', 'distribution_groups': ['servers'],
                                'records': records}]}
    built = run([{'name': 'state', 'nms.overlay.network_state': described}])
    assert built.rc == 0, built
    zone = zones_of(current)[0]
    assert sorted(r['content'] for r in records_of(current, zone['id'])) == ['10.0.0.1', '10.0.0.2']
    current.clear_log()
    again = run([{'name': 'state', 'nms.overlay.network_state': described}])
    assert again['state']['changed'] is False, again['state']
    assert current.writes() == []


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
    assert result['unknown zone']['msg'] == ("zone: no DNS zone with the id or domain or name 'nowhere.example.com'; did you "
                                             "mean 'internal.example.com'?")
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
