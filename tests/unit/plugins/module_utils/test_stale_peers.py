# -*- coding: utf-8 -*-
"""peer_info's inactive_for and the peer module's only_if_inactive_for (stale peers): the time arithmetic on the fake
clock, with a scripted client (no HTTP)."""

from __future__ import annotations

import datetime

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._peers import inactive_seconds, is_inactive, still_active
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import judged_time
from ansible_collections.nms.overlay.plugins.module_utils._time import duration_text, http_time
from ansible_collections.nms.overlay.plugins.modules.peer_info import PeerInfoModule
from tests.support.fakes import FakeClient, FakeClock, FakeModule, engine

DAY = 86400
NOW = FakeClock.EPOCH  # the fake clock's time until a test moves it: 2026-01-01T00:00:00Z


def stamp(seconds_before_now, now=NOW):
    """A last_seen the way servers write it (RFC 3339, nanoseconds, UTC), ``seconds_before_now`` before ``now``."""
    moment = datetime.datetime.fromtimestamp(now - seconds_before_now, datetime.timezone.utc)
    return moment.strftime('%Y-%m-%dT%H:%M:%S.%f') + '123Z'


def peer(pid, last_seen, connected=False, groups=('All',), os='Linux 6.1', **extra):
    data = dict(id=pid, name=pid, hostname=pid, ip='100.64.0.%d' % (len(pid) + 10), connected=connected,
                last_seen=last_seen, os=os, groups=[{'id': 'g-' + name, 'name': name} for name in groups])
    data.update(extra)
    return data


# -- the rule -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize('value, seconds', [
    ('30d', 30 * DAY), ('12h', 43200), ('1w', 7 * DAY), ('1d12h', 36 * 3600), ('90m', 5400), ('3600', 3600),
    (3600, 3600), (0, 0), ('0s', 0), (None, None), (' 2D ', 2 * DAY),
])
def test_inactive_for_takes_the_collections_durations(value, seconds):
    assert inactive_seconds(value) == seconds


@pytest.mark.parametrize('value, words', [
    ('soon', "'soon' is not a number of seconds or a duration"), ('', "'' is not a number of seconds"),
    ('30 days', "'30 days' is not"), ('-1d', "'-1d' is not"), (True, 'not a boolean'),
    (-5, 'must be a duration of 0 or more'), (1.5, "'1.5' is not"),
])
def test_inactive_for_refuses_what_is_no_duration(value, words):
    with pytest.raises(OptionsError) as caught:
        inactive_seconds(value)
    assert str(caught.value).startswith('option inactive_for: ') and words in str(caught.value)
    with pytest.raises(OptionsError) as caught:
        inactive_seconds(value, 'only_if_inactive_for')
    assert str(caught.value).startswith('option only_if_inactive_for: ') and words in str(caught.value)


def test_a_disconnected_peer_is_inactive_once_last_seen_is_older_than_the_duration():
    limit = 30 * DAY
    assert is_inactive(peer('p', stamp(limit + 1)), limit, NOW) is True
    assert is_inactive(peer('p', stamp(limit + DAY * 300)), limit, NOW) is True
    # exactly the duration ago is not older than now minus the duration; a second less neither
    assert is_inactive(peer('p', stamp(limit)), limit, NOW) is False
    assert is_inactive(peer('p', stamp(limit - 1)), limit, NOW) is False
    # a fraction of a second counts
    exact = datetime.datetime.fromtimestamp(NOW - limit, datetime.timezone.utc)
    assert is_inactive(peer('p', (exact - datetime.timedelta(microseconds=1)).strftime('%Y-%m-%dT%H:%M:%S.%fZ')),
                       limit, NOW) is True
    # seen after the task started (the server's clock ahead of ours) is not inactive
    assert is_inactive(peer('p', stamp(-3600)), limit, NOW) is False


def test_a_connected_peer_is_never_inactive_however_old_its_last_seen():
    """Servers stamp last_seen when a peer connects or disconnects: a peer connected for months has an old one."""
    for last_seen in (stamp(400 * DAY), '0001-01-01T00:00:00Z', 'yesterday', None, ''):
        assert is_inactive(peer('p', last_seen, connected=True), 30 * DAY, NOW) is False, last_seen


@pytest.mark.parametrize('last_seen', [
    '0001-01-01T00:00:00Z',        # never seen: Go's zero time, older than any limit
    None, '', 'yesterday', '2026-13-45T00:00:00Z', '2026-01-01', 1767225600, ['2026-01-01T00:00:00Z'],
])
def test_a_disconnected_peer_without_a_time_stamp_to_go_by_is_inactive(last_seen):
    assert is_inactive(peer('p', last_seen), 30 * DAY, NOW) is True
    assert is_inactive(peer('p', last_seen), 100000 * DAY, NOW) is True
    missing = peer('p', None)
    del missing['last_seen']
    assert is_inactive(missing, 30 * DAY, NOW) is True


def test_connected_missing_counts_as_not_connected():
    absent = peer('p', stamp(40 * DAY))
    del absent['connected']
    assert is_inactive(absent, 30 * DAY, NOW) is True
    assert is_inactive(dict(absent, connected=None), 30 * DAY, NOW) is True


def test_time_stamps_with_an_offset_compare_as_the_moment_they_name():
    limit = DAY
    # 2025-12-31T01:00:00+02:00 is 2025-12-30T23:00:00Z: 25 hours before NOW
    assert is_inactive(peer('p', '2025-12-31T01:00:00+02:00'), limit, NOW) is True
    # 2025-12-30T23:30:00-01:00 is 2025-12-31T00:30:00Z: 23.5 hours before NOW
    assert is_inactive(peer('p', '2025-12-30T23:30:00-01:00'), limit, NOW) is False


def test_a_huge_duration_keeps_only_the_never_seen():
    limit = 5000 * 365 * DAY  # reaches back before the year 1: no overflow
    assert is_inactive(peer('p', stamp(300 * 365 * DAY)), limit, NOW) is False
    assert is_inactive(peer('p', '0001-01-01T00:00:00Z'), limit, NOW) is True


# -- the module ---------------------------------------------------------------------------------------------
PEERS = [
    peer('fresh', stamp(2 * DAY)),
    peer('old', stamp(31 * DAY)),
    peer('ancient', stamp(400 * DAY), groups=('All', 'servers')),
    peer('connected-old', stamp(90 * DAY), connected=True, groups=('All', 'servers')),
    peer('never', '0001-01-01T00:00:00Z', os='Windows 10.0.19045', groups=('All', 'laptops')),
    peer('garbled', 'not a time', groups=('All', 'servers')),
    peer('edge', stamp(30 * DAY - 3600)),  # 30 days minus an hour: stale an hour later
]


GROUPS = [{'id': 'g-All', 'name': 'All'}, {'id': 'g-servers', 'name': 'servers'}, {'id': 'g-laptops', 'name': 'laptops'},
          {'id': 'g-empty', 'name': 'empty'}]


def run_info(routes=None, **options):
    params = {name: None for name in PeerInfoModule.full_argument_spec()}
    params.update(options)
    client = FakeClient(dict({'/peers': PEERS, '/groups': GROUPS}, **(routes or {})))
    module = engine(PeerInfoModule, client, module=FakeModule(params, warn_fails=True))
    return module.run(), client


def names(result):
    return sorted(item['name'] for item in result['peers'])


def test_inactive_for_keeps_the_disconnected_peers_not_seen_for_that_long():
    result, client = run_info(inactive_for='30d', fields=['name', 'last_seen'])
    assert names(result) == ['ancient', 'garbled', 'never', 'old']
    assert result['changed'] is False
    assert [call[:2] for call in client.calls] == [('GET', '/peers')]  # one read, no write
    assert names(run_info(inactive_for=30 * DAY)[0]) == names(result)
    assert names(run_info(inactive_for='4w2d')[0]) == names(result)
    assert names(run_info(inactive_for='3d', fields=['name'])[0]) == ['ancient', 'edge', 'garbled', 'never', 'old']
    assert names(run_info(inactive_for='365d', fields=['name'])[0]) == ['ancient', 'garbled', 'never']
    # 0: every disconnected peer seen before now
    assert names(run_info(inactive_for=0, fields=['name'])[0]) == ['ancient', 'edge', 'fresh', 'garbled', 'never', 'old']
    # unset: every peer
    assert len(run_info(fields=['name'])[0]['peers']) == len(PEERS)


def test_the_limit_moves_with_the_clock(clock):
    assert 'edge' not in names(run_info(inactive_for='30d', fields=['name'])[0])
    clock.advance(3599)
    assert 'edge' not in names(run_info(inactive_for='30d', fields=['name'])[0])
    clock.advance(2)
    assert 'edge' in names(run_info(inactive_for='30d', fields=['name'])[0])
    clock.advance(28 * DAY)
    assert names(run_info(inactive_for='30d', fields=['name'])[0]) == ['ancient', 'edge', 'fresh', 'garbled', 'never', 'old']


def test_inactive_for_combines_with_the_other_filters():
    assert names(run_info(inactive_for='30d', group='servers', fields=['name'])[0]) == ['ancient', 'garbled']
    assert names(run_info(inactive_for='30d', group='g-laptops', fields=['name'])[0]) == ['never']
    assert names(run_info(inactive_for='30d', os='windows', fields=['name'])[0]) == ['never']
    assert names(run_info(inactive_for='30d', connected=False, fields=['name'])[0]) == ['ancient', 'garbled', 'never', 'old']
    assert run_info(inactive_for='30d', connected=True, fields=['name'])[0]['peers'] == []
    assert names(run_info(inactive_for='30d', name='old', fields=['name'])[0]) == ['old']
    assert run_info(inactive_for='30d', name='fresh', fields=['name'])[0]['peers'] == []
    assert run_info(inactive_for='30d', group='empty', fields=['name'])[0]['peers'] == []


def test_one_stale_peer_is_read_on_its_own_as_without_inactive_for():
    alone = dict(PEERS[1], accessible_peers=[])  # as a v0.27 server answers one peer
    result, client = run_info(routes={'/peers/old': alone}, inactive_for='30d', name='old')
    assert result['peers'] == [alone]
    assert [call[:2] for call in client.calls] == [('GET', '/peers'), ('GET', '/peers/old')]


@pytest.mark.parametrize('value, words', [
    ('soon', "option inactive_for: 'soon' is not a number of seconds or a duration such as 30d, 12h or 1w"),
    (-1, 'option inactive_for: must be a duration of 0 or more, such as 30d, 12h or 3600 (seconds); -1 was given'),
    (True, 'option inactive_for: must be a number of seconds or a duration such as 30d, 12h or 1w, not a boolean'),
])
def test_a_bad_duration_fails_naming_the_option_before_any_request(value, words):
    params = {name: None for name in PeerInfoModule.full_argument_spec()}
    params.update(inactive_for=value)
    client = FakeClient({'/peers': PEERS})
    module = engine(PeerInfoModule, client, module=FakeModule(params, warn_fails=True))
    with pytest.raises(OptionsError) as caught:
        module.run()
    assert str(caught.value) == words
    assert client.calls == []


def test_a_bad_duration_is_the_tasks_failure():
    params = {name: None for name in PeerInfoModule.full_argument_spec()}
    params.update(inactive_for='a month')
    result = PeerInfoModule.outcome(FakeModule(params))
    assert result['failed'] is True
    assert result['msg'].startswith("option inactive_for: 'a month' is not a number of seconds")


# -- the peer module's only_if_inactive_for: the words and the clocks -------------------------------------------------
@pytest.mark.parametrize('seconds, text', [
    (0, '0s'), (45.9, '45s'), (310, '5m10s'), (3600, '1h0m'), (2 * DAY + 3, '2d0h'), (36 * 3600, '1d12h'), (-5, '0s'),
])
def test_an_age_is_told_in_its_two_largest_units(seconds, text):
    assert duration_text(seconds) == text


@pytest.mark.parametrize('header, seconds', [
    ('Thu, 01 Jan 2026 00:00:00 GMT', NOW), ('Thu, 01 Jan 2026 01:00:00 +0100', NOW), ('Thu, 01 Jan 2026 00:00:00 -0000', NOW),
    (None, None), ('', None), ('yesterday', None),
])
def test_an_http_date_is_read_as_the_moment_it_names(header, seconds):
    assert http_time(header) == seconds


def test_a_peer_no_longer_stale_says_why_and_on_which_clock():
    assert still_active(peer('p', stamp(31 * DAY)), 30 * DAY, NOW, 'x') is None
    assert still_active(peer('p', stamp(90 * DAY), connected=True), 30 * DAY, NOW, 'x') == "the peer 'p' (id p) is connected now"
    assert still_active(peer('p', stamp(3 * DAY)), 30 * DAY, NOW, "the server's clock") == (
        "the peer 'p' (id p) was last seen at %s, 3d0h before the time on the server's clock" % stamp(3 * DAY))
    assert still_active(peer('p', stamp(-60)), 30 * DAY, NOW, "the server's clock").endswith(
        'later than the time on the server\'s clock')
    assert still_active(peer('p', stamp(-0.5)), 30 * DAY, NOW, "the server's clock").endswith(
        ', less than a second before the time on the server\'s clock')


@pytest.mark.parametrize('date, now, words', [
    ('Thu, 01 Jan 2026 00:00:00 GMT', NOW, "the server's clock"),               # the same time: the server's
    ('Wed, 31 Dec 2025 23:00:00 GMT', NOW - 3600, "the server's clock"),         # the server behind: its time
    ('Thu, 01 Jan 2026 02:00:00 GMT', NOW, "this controller's clock"),           # the server ahead: ours
    (None, NOW, "this controller's clock (the server's answer had no Date)"),
])
def test_staleness_is_judged_at_the_earlier_clock(date, now, words, clock):
    client = FakeClient({})
    client.answer_date = date
    assert judged_time(client) == (now, words)
