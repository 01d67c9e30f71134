# -*- coding: utf-8 -*-
"""Unit tests of event_info (time parsing, filters, order) and location_info (normalisation)."""

from __future__ import annotations

import datetime

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.modules.event_info import EventInfoModule, parse_time
from ansible_collections.nms.overlay.plugins.modules.location_info import (
    LocationInfoModule, normalise_cities, normalise_countries,
)
from tests.support.fakes import FakeClient, FakeModule, engine

UTC = datetime.timezone.utc
NOW = datetime.datetime(2026, 1, 10, 12, 0, 0, tzinfo=UTC)


def make(cls, answers, **options):
    params = {name: None for name in cls.full_argument_spec()}
    params.update(options)
    return engine(cls, FakeClient(answers), module=FakeModule(params, warn_fails=True))


@pytest.mark.parametrize('text, expected', [
    ('2026-01-10T08:00:00Z', datetime.datetime(2026, 1, 10, 8, tzinfo=UTC)),
    ('2026-01-10T08:00:00.123456789Z', datetime.datetime(2026, 1, 10, 8, 0, 0, 123456, tzinfo=UTC)),
    ('2026-01-10', datetime.datetime(2026, 1, 10, tzinfo=UTC)),
    ('2026-01-10T10:00:00+02:00', datetime.datetime(2026, 1, 10, 8, tzinfo=UTC)),
    ('2026-01-10 08:00', datetime.datetime(2026, 1, 10, 8, tzinfo=UTC)),
    ('-1h', NOW - datetime.timedelta(hours=1)),
    ('-7d', NOW - datetime.timedelta(days=7)),
    ('now', NOW),
    ('yesterday', None),
    ('2026-13-01', None),
])
def test_parse_time(text, expected):
    assert parse_time(text, NOW) == expected


@pytest.mark.parametrize('text, expected', [
    ('2026-01-10T08:00:00.123456789Z', datetime.datetime(2026, 1, 10, 8, 0, 0, 123456, tzinfo=UTC)),
    ('2026-01-10 10:00:00+0200', datetime.datetime(2026, 1, 10, 8, tzinfo=UTC)),
    # what only a user writes is no server time stamp
    ('2026-01-10', None), ('2026-01-10 08:00', None), ('2026-01-10t08:00:00z', None), ('2026-01-10T08:00:00+02', None),
    ('now', None), ('-1h', None), (None, None), ('', None),
])
def test_parse_time_strict_takes_only_what_servers_send(text, expected):
    assert parse_time(text, NOW, strict=True) == expected


EVENTS = [
    {'id': 1, 'timestamp': '2026-01-10T08:00:00Z', 'activity_code': 'group.add', 'initiator_id': 'owner-user',
     'initiator_email': 'owner@example.com', 'target_id': 'g1', 'meta': None},
    {'id': '3', 'timestamp': '2026-01-10T09:00:00Z', 'activity_code': 'peer.rename', 'initiator_id': 'owner-user',
     'initiator_email': 'owner@example.com', 'target_id': 'p1', 'meta': {'name': 'x'}},
    {'id': 2, 'timestamp': '2026-01-10T08:30:00Z', 'activity_code': 'setupkey.peer.add', 'initiator_id': '123',
     'initiator_email': '', 'target_id': 'p1', 'meta': {}},
]


def events(**options):
    return [e['id'] for e in make(EventInfoModule, {'/events': list(EVENTS)}, **options).run()['events']]


def test_events_newest_first_with_string_ids_and_meta():
    result = make(EventInfoModule, {'/events': list(EVENTS)}).run()['events']
    assert [e['id'] for e in result] == ['3', '2', '1']
    assert result[-1]['meta'] == {}


def test_meta_values_are_strings_whatever_the_server_sends():
    meta = {'is_service_user': True, 'off': False, 'count': 3, 'ratio': 1.5, 'whole': 2.0, 'none': None,
            'list': ['a', 1, True], 'map': {'b': 1, 'a': 'x'}, 'text': 'web-1', 'when': '2026-01-10T08:00:00Z'}
    sent = [dict(EVENTS[0], meta=meta), dict(EVENTS[1], meta={'is_service_user': 'true', 'count': '3'})]
    result = make(EventInfoModule, {'/events': sent}).run()['events']
    assert result[1]['meta'] == {
        'is_service_user': 'true', 'off': 'false', 'count': '3', 'ratio': '1.5', 'whole': '2', 'none': '<nil>',
        'list': '[a 1 true]', 'map': 'map[a:x b:1]', 'text': 'web-1', 'when': '2026-01-10T08:00:00Z'}
    assert result[0]['meta'] == {'is_service_user': 'true', 'count': '3'}  # strings stay as they are
    assert all(isinstance(value, str) for event in result for value in event['meta'].values())


def test_event_filters():
    assert events(activity_code=['group.add']) == ['1']
    assert events(activity_code=['peer.*', 'group.add']) == ['3', '1']
    assert events(initiator_id='123') == ['2']
    assert events(initiator_email='OWNER@example.com') == ['3', '1']
    assert events(target_id='p1') == ['3', '2']
    assert events(since='2026-01-10T08:30:00Z') == ['3', '2']
    assert events(until='2026-01-10T08:30:00Z') == ['2', '1']
    assert events(limit=1) == ['3']


def test_log_size_and_oldest_describe_the_log_before_the_filters():
    result = make(EventInfoModule, {'/events': list(EVENTS)}, target_id='g1', limit=1).run()
    assert [e['id'] for e in result['events']] == ['1']
    assert result['log_size'] == 3 and result['log_oldest'] == '2026-01-10T08:00:00Z'
    empty = make(EventInfoModule, {'/events': None}).run()
    assert empty == {'changed': False, 'events': [], 'log_size': 0, 'log_oldest': ''}


def test_audit_log_path_of_each_server_generation():
    # v0.77: /events/audit answers, one request
    current = make(EventInfoModule, {'/events/audit': list(EVENTS), '/events': []})
    assert [e['id'] for e in current.run()['events']] == ['3', '2', '1']
    assert [call[1] for call in current.client.calls] == ['/events/audit']
    assert current.resolver.server.current is True and len(current.client.calls) == 1  # learned from the answer
    # v0.27: /events/audit is unknown (404), then /events
    legacy = make(EventInfoModule, {'/events': list(EVENTS)})
    assert [e['id'] for e in legacy.run()['events']] == ['3', '2', '1']
    assert [call[1] for call in legacy.client.calls] == ['/events/audit', '/events']
    assert legacy.resolver.server.current is False and len(legacy.client.calls) == 2
    # any other failure is the server's error, not a reason to read another path
    failing = make(EventInfoModule, {'/events/audit': ApiError('GET', '/events/audit', 403, 'permission denied'),
                                     '/events': list(EVENTS)})
    with pytest.raises(ApiError, match='permission denied'):
        failing.run()
    assert [call[1] for call in failing.client.calls] == ['/events/audit']


def test_event_option_errors():
    with pytest.raises(TaskError, match="since: 'soon' is neither"):
        events(since='soon')
    with pytest.raises(TaskError, match='is later than until'):
        events(since='2026-01-02', until='2026-01-01')
    with pytest.raises(TaskError, match='limit: must be at least 1'):
        events(limit=0)


def test_countries_and_cities_in_every_shape():
    assert normalise_countries(['de', 'FR']) == [{'country_code': 'DE'}, {'country_code': 'FR'}]
    assert normalise_countries([{'country_code': 'DE', 'country_name': 'Germany'}]) == [
        {'country_code': 'DE', 'country_name': 'Germany'}]
    assert normalise_cities({'geoname_id': '2950159', 'city_name': 'Berlin'}) == [
        {'geoname_id': 2950159, 'city_name': 'Berlin'}]
    assert normalise_cities([{'geoname_id': 1, 'city_name': 'A'}, {'geoname_id': 2, 'city_name': ''}]) == [
        {'geoname_id': 1, 'city_name': 'A'}]
    assert normalise_cities(None) == [] and normalise_cities({}) == []


def test_location_info():
    path = '/locations/countries/DE/cities'
    result = make(LocationInfoModule, {path: [{'geoname_id': 1, 'city_name': 'Berlin'}]}, country=' de ').run()
    assert result == {'changed': False, 'country': 'DE', 'cities': [{'geoname_id': 1, 'city_name': 'Berlin'}]}
    missing = make(LocationInfoModule, {'/locations/countries/ZZ/cities': ApiError('GET', 'x', 404, 'none')}, country='ZZ')
    assert missing.run()['cities'] == []
    no_geo = make(LocationInfoModule, {'/locations/countries': ApiError('GET', '/locations/countries', 412, 'no db')})
    with pytest.raises(TaskError, match='the server has no geo-location database'):
        no_geo.run()
    bad = make(LocationInfoModule, {}, country='DEU')
    with pytest.raises(TaskError, match="country: 'DEU' is not a two-letter"):
        bad.run()
    assert bad.client.calls == []
