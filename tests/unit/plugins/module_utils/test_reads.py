# -*- coding: utf-8 -*-
"""Unit tests of the small reads of issue 31: every network's routers, the proxy's access log, the current user."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.modules.event_info import EventInfoModule
from ansible_collections.nms.overlay.plugins.modules.network_router_info import NetworkRouterInfoModule
from ansible_collections.nms.overlay.plugins.modules.user_info import UserInfoModule
from tests.support.fakes import FakeClient, FakeModule, engine

VERSION = {'management_current_version': '0.77.1'}
V027 = ApiError('GET', '/instance/version', 404, 'not found')


class PagedClient(FakeClient):
    """A FakeClient whose GET /events/proxy answers pages of ``entries`` (newest first) as v0.77 does, and which
    records each GET's query."""

    def __init__(self, entries, routes=None):
        super().__init__(dict({'/instance/version': VERSION}, **(routes or {})))
        self.entries = entries
        self.queries = []

    def get(self, path, query=None):
        if path != '/events/proxy':
            return super().get(path, query)
        self.calls.append(('GET', path, None))
        self.queries.append(dict(query or {}))
        page, size = int(query['page']), int(query['page_size'])
        pages = (len(self.entries) + size - 1) // size
        return {'data': self.entries[(page - 1) * size:page * size], 'page': page, 'page_size': size,
                'total_records': len(self.entries), 'total_pages': pages}


def make(cls, client, **options):
    params = {name: spec.get('default') for name, spec in cls.full_argument_spec().items()}
    params.update(options)
    return engine(cls, client, module=FakeModule(params, warn_fails=True))


def entries(count):
    return [{'id': 'e%03d' % index, 'timestamp': '2026-01-10T%02d:%02d:00Z' % (23 - index // 60, 59 - index % 60),
             'method': 'GET', 'host': 'app.example.com', 'path': '/', 'status_code': 200, 'duration_ms': 3,
             'service_id': 's1', 'bytes_upload': 0, 'bytes_download': 10} for index in range(count)]


def test_the_proxy_log_is_read_page_by_page_after_the_version_probe():
    client = PagedClient(entries(230))
    result = make(EventInfoModule, client, log='proxy').run()
    assert [call[1] for call in client.calls] == ['/instance/version'] + ['/events/proxy'] * 3
    assert [query['page'] for query in client.queries] == [1, 2, 3]
    assert all(query['page_size'] == 100 and query['sort_order'] == 'desc' for query in client.queries)
    assert len(result['events']) == 230 and result['events'][0]['id'] == 'e000'
    assert result['log_size'] == 230 and result['log_oldest'] == '2026-01-10T20:10:00Z'
    assert result['events'][0] == entries(1)[0]  # as the server sends it


def test_the_proxy_log_stops_reading_at_the_limit():
    client = PagedClient(entries(230))
    result = make(EventInfoModule, client, log='proxy', limit=120).run()
    assert [query['page'] for query in client.queries] == [1, 2]
    assert [event['id'] for event in result['events']] == ['e%03d' % index for index in range(120)]
    assert result['log_size'] == 230


def test_the_window_is_sent_to_the_server_and_an_empty_log_is_one_page():
    client = PagedClient([])
    result = make(EventInfoModule, client, log='proxy', since='2026-01-01T00:00:00Z', until='2026-01-02').run()
    assert client.queries == [dict(page=1, page_size=100, sort_by='timestamp', sort_order='desc',
                                   start_date='2026-01-01T00:00:00Z', end_date='2026-01-02T00:00:00Z')]
    assert result == {'changed': False, 'events': [], 'log_size': 0, 'log_oldest': ''}


def test_a_v027_server_refuses_the_proxy_log_after_the_version_probe_only():
    client = PagedClient(entries(3), routes={'/instance/version': V027})
    with pytest.raises(TaskError) as failure:
        make(EventInfoModule, client, log='proxy').run()
    assert "does not have the reverse proxy's access log" in str(failure.value) and 'v0.65.0' in str(failure.value)
    assert [call[1] for call in client.calls] == ['/instance/version']


def test_a_current_server_older_than_the_proxy_log_refuses_it_after_the_version_probe_only():
    client = PagedClient(entries(3), routes={'/instance/version': {'management_current_version': '0.64.2'}})
    with pytest.raises(TaskError) as failure:
        make(EventInfoModule, client, log='proxy').run()
    assert str(failure.value) == ("option log: this server (0.64.2) does not have the reverse proxy's access log, which came "
                                  "with NetBird v0.65.0; upgrade the server to v0.65.0 or later to read it")
    assert [call[1] for call in client.calls] == ['/instance/version']


@pytest.mark.parametrize('option, value', [('activity_code', ['peer.*']), ('initiator_email', 'a@example.com'), ('target_id', 'x')])
def test_audit_filters_are_refused_with_the_proxy_log_before_any_request(option, value):
    client = PagedClient(entries(3))
    with pytest.raises(TaskError, match='option %s: filters the audit log only' % option):
        make(EventInfoModule, client, log='proxy', **{option: value}).run()
    assert client.calls == []


def test_a_proxy_answer_of_another_shape_fails_naming_the_url():
    client = PagedClient([], routes={'/events/proxy': [{'id': 1}]})
    client.get = lambda path, query=None: FakeClient.get(client, path, query)
    with pytest.raises(ApiError, match='a page of the access log'):
        make(EventInfoModule, client, log='proxy').run()


def test_the_audit_log_stays_the_default_and_asks_no_version():
    client = FakeClient({'/events/audit': [{'id': 1, 'timestamp': '2026-01-10T08:00:00Z', 'activity_code': 'group.add'}]})
    result = make(EventInfoModule, client).run()
    assert [call[1] for call in client.calls] == ['/events/audit'] and result['log_size'] == 1


ROUTERS = [{'id': 'r1', 'peer': 'p1', 'peer_groups': None, 'metric': 9999, 'masquerade': True, 'enabled': True},
           {'id': 'r2', 'peer': '', 'peer_groups': ['g1'], 'metric': 10, 'masquerade': False, 'enabled': False}]


def test_without_a_network_every_networks_routers_come_in_one_request_after_the_probe():
    client = FakeClient({'/instance/version': VERSION, '/networks/routers': ROUTERS})
    result = make(NetworkRouterInfoModule, client).run()
    assert [call[1] for call in client.calls] == ['/instance/version', '/networks/routers']
    assert [router['id'] for router in result['network_routers']] == ['r1', 'r2']
    assert result['network_routers'][0]['peer_groups'] == [] and result['network_routers'][1]['peer'] == ''


def test_without_a_network_an_id_finds_the_router_in_the_account_wide_list():
    client = FakeClient({'/instance/version': VERSION, '/networks/routers': ROUTERS})
    assert [router['id'] for router in make(NetworkRouterInfoModule, client, id='r2').run()['network_routers']] == ['r2']


def test_the_network_option_still_reads_that_networks_routers():
    client = FakeClient({'/instance/version': VERSION, '/networks': [{'id': 'n1', 'name': 'office'}], '/networks/n1/routers': ROUTERS[:1]})
    result = make(NetworkRouterInfoModule, client, network='office').run()
    assert '/networks/routers' not in [call[1] for call in client.calls]
    assert [router['id'] for router in result['network_routers']] == ['r1']


def test_v027_refuses_every_networks_routers_after_the_probe_only():
    client = FakeClient({'/instance/version': V027, '/networks/routers': ROUTERS})
    with pytest.raises(TaskError, match='Networks'):
        make(NetworkRouterInfoModule, client).run()
    assert [call[1] for call in client.calls] == ['/instance/version']


ME = {'id': 'u1', 'email': 'owner@example.com', 'name': 'Owner', 'role': 'owner', 'is_current': True, 'is_service_user': False,
      'auto_groups': [], 'status': 'active'}


def test_the_current_user_is_one_read_after_the_probe():
    client = FakeClient({'/instance/version': VERSION, '/users/current': ME})
    result = make(UserInfoModule, client, current=True).run()
    assert [call[1] for call in client.calls] == ['/instance/version', '/users/current']
    assert [user['id'] for user in result['users']] == ['u1']


def test_v027_refuses_the_current_user_after_the_probe_only():
    client = FakeClient({'/instance/version': V027, '/users/current': ME})
    with pytest.raises(TaskError, match=r'option current: this server \(v0.27.*from v0.41.1 on'):
        make(UserInfoModule, client, current=True).run()
    assert [call[1] for call in client.calls] == ['/instance/version']


def test_current_refuses_the_other_filters_before_any_request():
    client = FakeClient({'/instance/version': VERSION, '/users/current': ME})
    with pytest.raises(TaskError, match='option current: cannot be combined with option email'):
        make(UserInfoModule, client, current=True, email='x@example.com').run()
    assert client.calls == []


def test_without_current_the_users_are_listed_and_no_version_is_asked():
    client = FakeClient({'/users': [ME]})
    make(UserInfoModule, client).run()
    assert [call[1] for call in client.calls] == ['/users']
