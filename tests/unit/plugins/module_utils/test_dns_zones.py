# -*- coding: utf-8 -*-
"""Unit tests of the DNS zone and DNS record kinds, their info modules and options models (no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._models import OptionsError, validate
from ansible_collections.nms.overlay.plugins.module_utils._models_dns_zones import DnsRecordOptions, DnsZoneOptions
from ansible_collections.nms.overlay.plugins.module_utils._resolve import ResolveError
from ansible_collections.nms.overlay.plugins.module_utils._dns import content_problem, domain_problem
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_record import DnsRecordModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import DnsZoneModule, zone_result
from ansible_collections.nms.overlay.plugins.modules.dns_record_info import DnsRecordInfoModule
from ansible_collections.nms.overlay.plugins.modules.dns_zone_info import DnsZoneInfoModule
from tests.support import fakes
from tests.support.fakes import engine

VERSION = {'management_current_version': '0.77.1'}
GROUPS = [{'id': 'g1', 'name': 'developers'}, {'id': 'g2', 'name': 'servers'}]
RECORDS = '/dns/zones/z1/records'


def zone(**fields):
    base = {'id': 'z1', 'name': 'Internal', 'domain': 'internal.example.com', 'enabled': True,
            'enable_search_domain': False, 'distribution_groups': ['g1'], 'records': []}
    base.update(fields)
    return base


def record(record_id='r1', **fields):
    base = {'id': record_id, 'name': 'db.internal.example.com', 'type': 'A', 'content': '10.0.0.5', 'ttl': 300}
    base.update(fields)
    return base


def server(zones=None, records=None, **routes):
    """A scripted v0.77 server holding ``zones`` (default: one) and the records of zone z1."""
    zones = [zone()] if zones is None else zones
    table = {'/instance/version': VERSION, '/groups': GROUPS, '/dns/zones': zones, RECORDS: records or []}
    table.update(('/dns/zones/%s' % item['id'], item) for item in zones)
    table.update(('%s/%s' % (RECORDS, item['id']), item) for item in records or [])
    table.update(routes)
    return fakes.FakeClient(table)


# -- today's servers only ----------------------------------------------------------------------------
@pytest.mark.parametrize('cls, params', [
    (DnsZoneModule, dict(domain='internal.example.com', name='Internal', distribution_groups=['developers'])),
    (DnsZoneInfoModule, {}),
    (DnsRecordModule, dict(zone='internal.example.com', name='db.internal.example.com', type='A', content='10.0.0.5', ttl=300)),
    (DnsRecordInfoModule, dict(zone='internal.example.com')),
])
def test_every_dns_zone_module_is_refused_by_a_v027_server_after_one_request(cls, params):
    client = fakes.FakeClient({'/dns/zones': [zone()], '/groups': GROUPS})  # GET /instance/version is a 404, as on v0.27
    with pytest.raises(TaskError) as failure:
        engine(cls, client, **params).run()
    assert str(failure.value) == ('this server (v0.27: it has no GET /api/instance/version) does not have DNS zones, '
                                  'which came with NetBird v0.63.0; upgrade the server to v0.64.2 or later (the first '
                                  'release that answers GET /api/instance/version) to manage them')
    assert client.calls == [('GET', '/instance/version', None)]


def test_a_version_answer_of_another_shape_is_an_api_error_not_a_server_of_today():
    """A success answer to GET /instance/version that is no object proves nothing: an API error, nothing else sent."""
    client = fakes.FakeClient({'/instance/version': 'ok', '/dns/zones': [zone()]})
    with pytest.raises(ApiError) as failure:
        engine(DnsZoneInfoModule, client).run()
    assert (failure.value.method, failure.value.path, failure.value.status) == ('GET', '/instance/version', 200)
    assert 'the answer is a string where an object was expected' in str(failure.value)
    assert client.calls == [('GET', '/instance/version', None)]


# -- zones ----------------------------------------------------------------------------------------------
def test_a_zone_is_created_with_group_names_as_ids_and_the_servers_create_defaults():
    client = server(zones=[])
    result = engine(DnsZoneModule, client, domain='internal.example.com', name='Internal',
                    distribution_groups=['servers', 'g1']).run()
    assert client.writes() == [('POST', '/dns/zones', {'name': 'Internal', 'domain': 'internal.example.com', 'enabled': True,
                                                       'enable_search_domain': False, 'distribution_groups': ['g1', 'g2']})]
    assert result['changed'] is True and result['dns_zone']['records'] == []
    # one zone per domain on the server: no second read to converge with concurrent copies
    assert [call for call in client.calls if call[0] == 'GET' and call[1] == '/dns/zones'] == [('GET', '/dns/zones', None)]


def test_an_unchanged_zone_sends_no_write():
    client = server(zones=[zone(distribution_groups=['g2', 'g1'])])
    result = engine(DnsZoneModule, client, domain='internal.example.com', name='Internal', enabled=True,
                    distribution_groups=['developers', 'servers']).run()
    assert result['changed'] is False and client.writes() == []


def test_a_zone_update_keeps_what_the_task_does_not_manage_and_sends_no_answer_only_field():
    client = server(zones=[zone(records=[record()], future_field='kept')])
    result = engine(DnsZoneModule, client, domain='internal.example.com', enable_search_domain=True).run()
    assert client.writes() == [('PUT', '/dns/zones/z1', {
        'name': 'Internal', 'domain': 'internal.example.com', 'enabled': True, 'enable_search_domain': True,
        'distribution_groups': ['g1'], 'future_field': 'kept'})]
    assert result['diff'] == {'before': {'enable_search_domain': False}, 'after': {'enable_search_domain': True}}


def test_the_diff_shows_distribution_groups_by_name():
    client = server()
    result = engine(DnsZoneModule, client, domain='internal.example.com', distribution_groups=['servers']).run()
    assert result['diff'] == {'before': {'distribution_groups': ['developers']}, 'after': {'distribution_groups': ['servers']}}


def test_a_zones_domain_never_changes_a_different_one_is_a_warning():
    client = server()
    task = engine(DnsZoneModule, client, id='z1', domain='other.example.com')
    result = task.run()
    assert result['changed'] is False and client.writes() == []
    assert task.module.warnings == ["domain cannot change after the DNS zone is created: the existing value "
                                    "'internal.example.com' is kept, not 'other.example.com'; replace the DNS zone to change it"]


def test_a_new_zone_needs_its_name_and_groups_and_check_mode_never_writes():
    client = server(zones=[])
    with pytest.raises(TaskError) as failure:
        engine(DnsZoneModule, client, domain='internal.example.com').run()
    assert str(failure.value) == ("options name and distribution_groups are required to create the DNS zone "
                                  "domain 'internal.example.com'")
    planned = engine(DnsZoneModule, client, check_mode=True, domain='internal.example.com', name='Internal',
                     distribution_groups=['developers']).run()
    assert planned['changed'] is True and planned['dns_zone']['id'] == '(new DNS zone internal.example.com)'
    assert planned['dns_zone']['records'] == [] and client.writes() == []


def test_zone_options_are_checked_before_any_request():
    client = server()
    with pytest.raises(OptionsError) as failure:
        engine(DnsZoneModule, client, domain='bad domain', name='x' * 256, distribution_groups=[]).run()
    assert str(failure.value) == (
        "option name: must be at most 255 characters long; option domain: must be a DNS name such as example.com "
        "(dot-separated labels of letters, digits, hyphens and underscores, no trailing dot), not 'bad domain'; "
        "option distribution_groups: must list at least 1 item")
    assert client.calls == []


def test_a_conflicting_create_is_reconciled_with_the_zone_another_run_made():
    """A 409 (one zone per domain) means another run made it meanwhile: the task updates that one."""
    class Racing(fakes.FakeClient):
        def post(self, path, body=None):
            self.calls.append(('POST', path, body))
            self.routes['/dns/zones'] = [zone(name='theirs')]
            raise ApiError('POST', path, 409, 'zone with domain internal.example.com already exists')

    client = Racing({'/instance/version': VERSION, '/groups': GROUPS, '/dns/zones': []})
    result = engine(DnsZoneModule, client, domain='internal.example.com', name='Internal', distribution_groups=['developers']).run()
    assert [call[:2] for call in client.writes()] == [('POST', '/dns/zones'), ('PUT', '/dns/zones/z1')]
    assert result['dns_zone']['name'] == 'Internal'


def test_zone_info_filters_by_name_and_keeps_lists_never_null():
    client = server(zones=[zone(), zone(id='z2', domain='lab.example.com', name='Lab', distribution_groups=None, records=None)])
    result = engine(DnsZoneInfoModule, client, name='Lab').run()
    assert result == {'changed': False, 'dns_zones': [zone(id='z2', domain='lab.example.com', name='Lab')
                                                      | {'distribution_groups': [], 'records': []}]}
    assert zone_result({}) == {}


# -- records -------------------------------------------------------------------------------------------
def test_a_record_is_created_in_the_zone_named_by_its_domain_or_name():
    for zone_ref in ('internal.example.com', 'Internal', 'z1'):
        client = server()
        result = engine(DnsRecordModule, client, zone=zone_ref, name='db.internal.example.com', type='A',
                        content='10.0.0.5', ttl=300).run()
        body = {'name': 'db.internal.example.com', 'type': 'A', 'content': '10.0.0.5', 'ttl': 300}
        assert client.writes() == [('POST', RECORDS, body)]
        assert result['changed'] is True
        # records that share a name are no concurrent copies: no second read to converge on one
        assert [call for call in client.calls if call[1] == RECORDS] == [('GET', RECORDS, None), ('POST', RECORDS, body)]


def test_an_unchanged_record_sends_no_write_addresses_compare_by_value():
    client = server(records=[record(type='AAAA', content='2001:db8::1')])
    result = engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', type='AAAA',
                    content='2001:DB8:0::0001', ttl=300).run()
    assert result['changed'] is False and client.writes() == []


def test_the_one_record_of_a_name_and_type_is_updated_in_place_with_replace_content():
    client = server(records=[record(), record('r2', type='AAAA', content='2001:db8::1')])
    result = engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', type='A',
                    content='10.0.0.6', replace_content=True).run()
    assert client.writes() == [('PUT', RECORDS + '/r1', {'name': 'db.internal.example.com', 'type': 'A',
                                                         'content': '10.0.0.6', 'ttl': 300})]
    assert result['diff'] == {'before': {'content': '10.0.0.5'}, 'after': {'content': '10.0.0.6'}}


def test_content_identifies_an_a_record_and_another_address_is_another_record():
    """Round robin: without replace_content, a new address is a new record beside the one of its name and type."""
    client = server(records=[record()])
    result = engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', type='A',
                    content='10.0.0.6', ttl=300).run()
    assert client.writes() == [('POST', RECORDS, {'name': 'db.internal.example.com', 'type': 'A', 'content': '10.0.0.6',
                                                  'ttl': 300})]
    assert result['diff']['before'] == {}
    client = server(records=[record(), record('r2', content='10.0.0.6')])
    again = engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', type='A',
                   content='10.0.0.6', ttl=300).run()
    assert again['changed'] is False and again['dns_record']['id'] == 'r2' and client.writes() == []


def test_content_chooses_among_records_that_share_a_name_and_type():
    shared = [record(), record('r2', content='10.0.0.6')]
    client = server(records=shared)
    result = engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', type='A',
                    content='10.0.0.6', ttl=60).run()
    assert client.writes() == [('PUT', RECORDS + '/r2', {'name': 'db.internal.example.com', 'type': 'A',
                                                         'content': '10.0.0.6', 'ttl': 60})]
    assert result['dns_record']['id'] == 'r2'
    with pytest.raises(TaskError) as failure:
        engine(DnsRecordModule, server(records=shared), zone='internal.example.com', name='db.internal.example.com',
               type='A', state='absent').run()
    assert str(failure.value) == ("name 'db.internal.example.com' and type A in the DNS zone 'internal.example.com' matches "
                                  "2 DNS records (ids: r1, r2); give the content or the id to choose one")
    client = server(records=shared)
    with pytest.raises(TaskError) as failure:
        engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', type='A',
               content='10.0.0.7', replace_content=True).run()
    assert "matches 2 DNS records (ids: r1, r2), none with the content '10.0.0.7'; give the id" in str(failure.value)
    with pytest.raises(TaskError) as failure:
        engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', state='absent').run()
    assert str(failure.value) == ("name 'db.internal.example.com' in the DNS zone 'internal.example.com' matches 2 DNS "
                                  "records (ids: r1, r2); give the type, the content or the id to choose one")
    assert client.writes() == []


def test_the_merged_record_must_fit_its_type_and_zone_before_any_write():
    client = server(records=[record()])
    with pytest.raises(TaskError) as failure:
        engine(DnsRecordModule, client, zone='internal.example.com', id='r1', type='AAAA').run()
    assert str(failure.value) == "option content: must be an IPv6 address for a record of type AAAA, not '10.0.0.5'"
    with pytest.raises(TaskError) as failure:
        engine(DnsRecordModule, client, zone='internal.example.com', name='db.example.org', type='A', content='10.0.0.1',
               ttl=300).run()
    assert str(failure.value) == ("option name: 'db.example.org' is not in the DNS zone 'internal.example.com' (id z1): a "
                                  "record's name is the zone's domain or ends with .internal.example.com")
    assert client.writes() == []


def test_a_record_may_be_renamed_onto_a_name_other_records_have():
    """Records share names (round robin): the engine's rename check of unique names does not apply."""
    client = server(records=[record(), record('r2', name='web.internal.example.com', content='10.0.0.9')])
    engine(DnsRecordModule, client, zone='internal.example.com', id='r2', name='db.internal.example.com').run()
    assert [call[:2] for call in client.writes()] == [('PUT', RECORDS + '/r2')]


def test_record_deletion_and_check_mode():
    client = server(records=[record()])
    planned = engine(DnsRecordModule, client, check_mode=True, zone='internal.example.com', name='db.internal.example.com',
                     type='A', state='absent').run()
    assert planned['changed'] is True and client.writes() == []
    engine(DnsRecordModule, client, zone='internal.example.com', name='db.internal.example.com', type='A', state='absent').run()
    assert client.writes() == [('DELETE', RECORDS + '/r1', None)]


def test_a_record_of_an_unknown_zone_is_absent_but_cannot_be_created_or_listed():
    client = server(zones=[])
    gone = engine(DnsRecordModule, client, zone='nowhere.example.com', name='a.nowhere.example.com', state='absent').run()
    assert gone == {'changed': False, 'dns_record': {}} and client.writes() == []
    message = "zone: no DNS zone with the id or domain or name 'nowhere.example.com'"
    with pytest.raises(ResolveError) as failure:
        engine(DnsRecordModule, client, zone='nowhere.example.com', name='a.nowhere.example.com', type='A',
               content='10.0.0.1', ttl=1).run()
    assert str(failure.value) == message
    with pytest.raises(ResolveError) as failure:
        engine(DnsRecordInfoModule, client, zone='nowhere.example.com').run()
    assert str(failure.value) == message


def test_record_info_lists_the_zones_records_filtered_by_name_and_type():
    client = server(records=[record(), record('r2', type='AAAA', content='2001:db8::1'), record('r3', name='x.internal.example.com')])
    result = engine(DnsRecordInfoModule, client, zone='Internal', name='db.internal.example.com', type='AAAA').run()
    assert result == {'changed': False, 'dns_records': [record('r2', type='AAAA', content='2001:db8::1')]}
    assert ('GET', RECORDS, None) in client.calls


# -- rules -----------------------------------------------------------------------------------------------
def test_dns_names_follow_the_servers_rule():
    for good in ('example.com', 'internal', 'a-b.example.com', '_srv.example.com', 'xn--bcher-kva.example'):
        assert domain_problem(good) is None, good
    for bad in ('', 'a..b', '-a.example.com', 'a-.example.com', 'example.com.', 'bad domain', 'example._com', '*.example.com'):
        assert domain_problem(bad) is not None, bad
    assert domain_problem('*.example.com', wildcard=True) is None


def test_record_content_fits_the_type():
    assert content_problem('A', '10.0.0.1') is None and content_problem('AAAA', '2001:db8::1') is None
    assert content_problem('A', '2001:db8::1') == "must be an IPv4 address for a record of type A, not '2001:db8::1'"
    assert content_problem('CNAME', 'web.example.com') is None
    assert content_problem('CNAME', '*.example.com').startswith('must be a DNS name such as www.example.com for a record of type CNAME')
    assert content_problem(None, 'anything') is None


def test_record_options_models():
    with pytest.raises(OptionsError) as failure:
        validate(DnsRecordOptions, {'name': 'a b', 'type': 'A', 'content': 'web', 'ttl': -1})
    text = str(failure.value)
    assert "option name: must be a DNS name such as www.example.com or *.example.com" in text
    assert "option content: must be an IPv4 address for a record of type A, not 'web'" in text
    assert 'option ttl: must be at least 0' in text
    validate(DnsRecordOptions, {'name': '*.internal.example.com', 'type': 'CNAME', 'content': 'web.example.com', 'ttl': 0})
    validate(DnsZoneOptions, {'domain': 'internal', 'name': 'x' * 255, 'distribution_groups': ['g1']})
