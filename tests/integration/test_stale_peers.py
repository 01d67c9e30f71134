# -*- coding: utf-8 -*-
"""Stale peers through real HTTP, in both dialects: peer_info's inactive_for, and the cleanup_stale_peers playbook
(a preview that writes nothing, a confirmed run that deletes exactly the peers the preview listed, a re-run that
deletes nothing). The peers' connected and last_seen are set through the emulator's control API, as a server records
agents that connect and disconnect."""

from __future__ import annotations

import datetime
import re

import pytest

from tests.support.emulator import make_peers, writes_of

DAY = 86400
PLAYBOOK = 'nms.overlay.cleanup_stale_peers'
LIST_TASK = 'List the stale peers'
CHECK_TASK = 'Check that the confirmation code is the one of these peers'
DELETE_TASK = 'Delete the stale peers listed'


def ago(seconds):
    """A last_seen ``seconds`` before now, as servers write it."""
    moment = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=seconds)
    return moment.strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def seed(emulator):
    """Peers of every kind, as {name: id}: fresh (connected, seen now), recent (left 2 days ago), old (left 40 days ago),
    connected-old (connected for 90 days: its last_seen is the connection's), never (never seen), db-old (a server,
    left 45 days ago), and build-old (enrolled with a setup key, its agent gone 60 days ago)."""
    servers = emulator.ok('POST', '/api/groups', {'name': 'servers'})
    seeded = emulator.add_peers(peers=[
        {'hostname': 'fresh'},
        {'hostname': 'recent', 'connected': False, 'last_seen': ago(2 * DAY)},
        {'hostname': 'old', 'connected': False, 'last_seen': ago(40 * DAY), 'os': 'Windows 10.0.19045'},
        {'hostname': 'connected-old', 'connected': True, 'last_seen': ago(90 * DAY), 'groups': [servers['id']]},
        {'hostname': 'never', 'connected': False, 'last_seen': None},
        {'hostname': 'db-old', 'connected': False, 'last_seen': ago(45 * DAY), 'groups': [servers['id']]},
    ])
    ids = {peer['name']: peer['id'] for peer in seeded}
    ids.update(make_peers(emulator, 'build-old'))
    disconnect(emulator, ids['build-old'], 60 * DAY)
    return ids


def disconnect(emulator, peer_id, seconds_ago):
    """The peer's agent left ``seconds_ago``."""
    return emulator.control('POST', '/_emulator/peer-status', {
        'peers': [{'id': peer_id, 'connected': False, 'last_seen': ago(seconds_ago)}]})


STALE_30D = ['build-old', 'db-old', 'never', 'old']


def names(peers):
    return sorted(peer['name'] for peer in peers)


def preview_of(result):
    """(code, listed peers) from the preview's list."""
    lines = result[LIST_TASK]['msg']
    listed = [line for line in lines if isinstance(line, dict)]
    found = re.search(r'confirmation code ([0-9a-f]{12})', lines[0])
    return (found.group(1) if found else None), listed


def deletes(emulator):
    return sorted(entry['path'] for entry in emulator.requests() if entry['method'] == 'DELETE')


# -- the emulator ------------------------------------------------------------------------------------------
def test_the_emulator_answers_the_connected_and_last_seen_it_was_given(emulator):
    ids = seed(emulator)
    peers = {peer['name']: peer for peer in emulator.ok('GET', '/api/peers')}
    assert peers['never']['last_seen'] == '0001-01-01T00:00:00Z' and peers['never']['connected'] is False
    assert peers['connected-old']['connected'] is True
    assert peers['fresh']['connected'] is True
    for name, days in (('old', 40), ('db-old', 45), ('build-old', 60), ('connected-old', 90), ('recent', 2)):
        seen = datetime.datetime.strptime(peers[name]['last_seen'], '%Y-%m-%dT%H:%M:%S.%fZ')
        age = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - seen
        assert abs(age.total_seconds() - days * DAY) < 600, (name, peers[name]['last_seen'])
    # all or nothing: an unknown peer or a bad time stamp changes no peer
    status, answer = emulator.control('POST', '/_emulator/peer-status', {'peers': [
        {'id': ids['fresh'], 'connected': False}, {'id': 'no-such-peer', 'connected': False}]}, expect_ok=False)
    assert status == 404, answer
    status, answer = emulator.control('POST', '/_emulator/peer-status', {'peers': [
        {'id': ids['fresh'], 'connected': False}, {'id': ids['old'], 'last_seen': 'last week'}]}, expect_ok=False)
    assert status == 422 and 'last_seen' in answer['message'], answer
    assert emulator.ok('GET', '/api/peers/%s' % ids['fresh'])['connected'] is True
    # a peer that reconnects
    back = emulator.control('POST', '/_emulator/peer-status', {
        'peers': [{'id': ids['old'], 'connected': True, 'last_seen': ago(0)}]})
    assert back[0]['id'] == ids['old'] and back[0]['connected'] is True


# -- peer_info ---------------------------------------------------------------------------------------------
def test_inactive_for_keeps_the_disconnected_peers_not_seen_for_that_long(emulator, run):
    seed(emulator)
    emulator.clear_log()
    result = run([
        {'name': '30 days', 'nms.overlay.peer_info': {'inactive_for': '30d', 'fields': ['name', 'last_seen']}},
        {'name': '50 days', 'nms.overlay.peer_info': {'inactive_for': 50 * DAY}},
        {'name': 'a day', 'nms.overlay.peer_info': {'inactive_for': '1d', 'fields': ['name']}},
        {'name': 'servers', 'nms.overlay.peer_info': {'inactive_for': '4w2d', 'group': 'servers', 'fields': ['name']}},
        {'name': 'windows', 'nms.overlay.peer_info': {'inactive_for': '30d', 'os': 'windows', 'fields': ['name']}},
        {'name': 'connected', 'nms.overlay.peer_info': {'inactive_for': '30d', 'connected': True}},
        {'name': 'a year', 'nms.overlay.peer_info': {'inactive_for': '52w', 'fields': ['name']}},
    ])
    assert result.rc == 0, result
    assert names(result['30 days']['peers']) == STALE_30D
    assert names(result['50 days']['peers']) == ['build-old', 'never']
    assert names(result['a day']['peers']) == sorted(STALE_30D + ['recent'])
    assert names(result['servers']['peers']) == ['db-old']  # connected-old is in servers too, but connected
    assert names(result['windows']['peers']) == ['old']
    assert result['connected']['peers'] == []
    assert names(result['a year']['peers']) == ['never']  # never seen: stale whatever the duration
    assert emulator.writes() == []


def test_a_bad_duration_fails_naming_the_option_before_any_request(emulator, run):
    seed(emulator)
    emulator.clear_log()
    result = run([{'name': 'bad', 'nms.overlay.peer_info': {'inactive_for': 'a month'}, 'ignore_errors': True},
                  {'name': 'negative', 'nms.overlay.peer_info': {'inactive_for': -3600}, 'ignore_errors': True}])
    assert result['bad']['failed'] is True
    assert result['bad']['msg'].startswith("option inactive_for: 'a month' is not a number of seconds"), result['bad']['msg']
    assert result['negative']['failed'] is True and 'option inactive_for: must be a duration of 0 or more' in result['negative']['msg']
    assert emulator.requests() == []


# -- the playbook ------------------------------------------------------------------------------------------
def test_cleanup_previews_then_deletes_exactly_the_peers_listed(emulator, run):
    ids = seed(emulator)
    emulator.clear_log()

    # preview: lists the stale peers and a code, writes nothing
    preview = run([], playbook=PLAYBOOK)
    assert preview.rc == 0, preview
    code, listed = preview_of(preview)
    assert code and names(listed) == STALE_30D, preview[LIST_TASK]['msg']
    assert preview[LIST_TASK]['msg'][-1] == ('Nothing was deleted. To delete exactly the peers listed, run again with '
                                             '-e nms_stale_confirm=%s' % code)
    assert {peer['id'] for peer in listed} == {ids[name] for name in STALE_30D}
    assert all(set(peer) == {'id', 'name', 'hostname', 'ip', 'os', 'last_seen'} for peer in listed), listed
    assert preview[DELETE_TASK]['skipped'] is True
    assert 'changed=0' in preview.stdout.split('PLAY RECAP')[-1], preview
    assert emulator.writes() == []

    # check mode with the code: shows what it would delete, writes nothing
    check = run([], playbook=PLAYBOOK, check=True, extra_vars={'nms_stale_confirm': code})
    assert check.rc == 0, check
    would = check[DELETE_TASK]['results']
    assert sorted(item['item']['id'] for item in would if item['changed']) == sorted(ids[name] for name in STALE_30D)
    assert emulator.writes() == []

    # confirmed: deletes exactly the listed peers, by id
    confirmed = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_confirm': code})
    assert confirmed.rc == 0, confirmed
    assert deletes(emulator) == sorted('/api/peers/%s' % peer['id'] for peer in listed)
    assert writes_of(emulator) == ['DELETE /api/peers/%s' % peer['id'] for peer in listed]  # listed by name, deleted so
    left = names(emulator.ok('GET', '/api/peers'))
    assert left == ['connected-old', 'fresh', 'recent']

    # again, with the same code: nothing is stale, nothing is deleted
    emulator.clear_log()
    again = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_confirm': code})
    assert again.rc == 0, again
    assert again[LIST_TASK]['msg'] == ['No peer is disconnected and unseen for 30d: nothing to delete.']
    assert 'changed=0' in again.stdout.split('PLAY RECAP')[-1], again
    assert emulator.writes() == []


@pytest.mark.dialects('current')  # the playbook's own logic: the server does not change it
def test_cleanup_deletes_nothing_when_the_stale_peers_are_no_longer_those_listed(emulator, run):
    ids = seed(emulator)
    preview = run([], playbook=PLAYBOOK)
    code, listed = preview_of(preview)
    assert names(listed) == STALE_30D

    # after the preview, one more peer goes stale and a listed one reconnects: the code stands for another list
    disconnect(emulator, ids['recent'], 31 * DAY)
    emulator.control('POST', '/_emulator/peer-status', {
        'peers': [{'id': ids['old'], 'connected': True, 'last_seen': ago(0)}]})
    emulator.clear_log()
    stale_now = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_confirm': code})
    assert stale_now.rc != 0, stale_now
    new_code, now_listed = preview_of(stale_now)
    assert names(now_listed) == ['build-old', 'db-old', 'never', 'recent'] and new_code != code
    failed = stale_now[CHECK_TASK]
    assert failed['failed'] is True
    assert 'nms_stale_confirm=%s is not the code of the stale peers found now (%s)' % (code, new_code) in failed['msg']
    assert 'Nothing was deleted' in failed['msg']
    assert DELETE_TASK not in stale_now
    assert emulator.writes() == []

    # a confirmation that is no code (a yes) deletes nothing either
    for value in ('yes', 'true'):
        wrong = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_confirm': value})
        assert wrong.rc != 0 and wrong[CHECK_TASK]['failed'] is True, wrong
    assert emulator.writes() == []

    # the new code deletes the new list
    confirmed = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_confirm': new_code})
    assert confirmed.rc == 0, confirmed
    assert deletes(emulator) == sorted('/api/peers/%s' % ids[name] for name in ['build-old', 'db-old', 'never', 'recent'])
    assert names(emulator.ok('GET', '/api/peers')) == ['connected-old', 'fresh', 'old']


@pytest.mark.dialects('current')
def test_cleanup_of_one_group_with_another_duration(emulator, run):
    ids = seed(emulator)
    emulator.clear_log()
    variables = {'nms_stale_group': 'servers', 'nms_stale_inactive_for': '6w'}
    preview = run([], playbook=PLAYBOOK, extra_vars=variables)
    assert preview.rc == 0, preview
    code, listed = preview_of(preview)
    assert names(listed) == ['db-old']
    assert preview[LIST_TASK]['msg'][0] == '1 peer is disconnected and unseen for 6w in the group servers (confirmation code %s):' % code
    assert emulator.writes() == []
    confirmed = run([], playbook=PLAYBOOK, extra_vars=dict(variables, nms_stale_confirm=code))
    assert confirmed.rc == 0, confirmed
    assert writes_of(emulator) == ['DELETE /api/peers/%s' % ids['db-old']]

    # an unknown group fails before any change; so does a bad duration
    emulator.clear_log()
    unknown = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_group': 'sevrers'})
    assert unknown.rc != 0 and 'sevrers' in unknown['Find the peers not connected and not seen for that long']['msg'], unknown
    bad = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_inactive_for': 'a month'})
    assert bad.rc != 0
    assert 'option inactive_for' in bad['Find the peers not connected and not seen for that long']['msg']
    assert emulator.writes() == []


# -- the peer module's only_if_inactive_for: judged on the read right before the DELETE (issue 44, 1) -----------------
ONLY_IF = 'only_if_inactive_for: 30d deletes the peer only while it is not connected and not seen for that long'


def reconnect_before(emulator, request, peers):
    """Each of ``peers`` ({id: status}) changes just before the emulator handles ``request`` ("DELETE /api/peers/x"):
    an agent that connects, or is seen, while the client works through its list."""
    emulator.control('POST', '/_emulator/peer-status', {
        'before': request, 'peers': [dict(status, id=peer_id) for peer_id, status in peers.items()]})


def test_only_if_inactive_for_deletes_a_stale_peer_and_keeps_one_that_is_no_longer_stale(emulator, run):
    ids = seed(emulator)
    emulator.clear_log()
    result = run([
        {'name': 'old', 'nms.overlay.peer': {'id': ids['old'], 'state': 'absent', 'only_if_inactive_for': '30d'}},
        {'name': 'connected-old', 'nms.overlay.peer': {'id': ids['connected-old'], 'state': 'absent',
                                                       'only_if_inactive_for': '30d'}},
        {'name': 'recent', 'nms.overlay.peer': {'id': ids['recent'], 'state': 'absent', 'only_if_inactive_for': '30d'}},
        {'name': 'never', 'nms.overlay.peer': {'id': ids['never'], 'state': 'absent', 'only_if_inactive_for': '52w'}},
        {'name': 'gone', 'nms.overlay.peer': {'id': ids['old'], 'state': 'absent', 'only_if_inactive_for': '30d'}},
    ], diff=True)
    assert result.rc == 0, result
    assert result['old']['changed'] is True and 'kept_because' not in result['old']
    assert result['never']['changed'] is True
    kept = result['connected-old']
    assert kept['changed'] is False and not (kept.get('diff') or {}).get('before'), kept
    assert kept['kept_because'] == "the peer 'connected-old' (id %s) is connected now: not deleted, as %s" % (
        ids['connected-old'], ONLY_IF.replace(': ', '=', 1)), kept
    assert kept['msg'] == kept['kept_because'] and kept['peer']['id'] == ids['connected-old']
    recent = result['recent']['kept_because']
    assert recent.startswith("the peer 'recent' (id %s) was last seen at " % ids['recent']), recent
    assert re.search(r", 2d0h\b|, 1d23h\b", recent) and "before the time on the server's clock" in recent, recent
    assert result['gone']['changed'] is False and result['gone']['peer'] == {} and 'kept_because' not in result['gone']
    # one read of each peer right before its DELETE, and a DELETE only of the stale ones; on v0.77 a peer to delete
    # has its links read first (the server refuses to delete a linked one), never a kept one's
    links = [('GET', '/api/instance/version'), ('GET', '/api/reverse-proxies/services'),
             ('GET', '/api/networks/routers')] if emulator.dialect == 'current' else []
    expected = ([('GET', '/api/peers/%s' % ids['old'])] + links + [('DELETE', '/api/peers/%s' % ids['old']),
                ('GET', '/api/peers/%s' % ids['connected-old']), ('GET', '/api/peers/%s' % ids['recent']),
                ('GET', '/api/peers/%s' % ids['never'])] + links + [('DELETE', '/api/peers/%s' % ids['never']),
                ('GET', '/api/peers/%s' % ids['old'])])
    assert [(e['method'], e['path']) for e in emulator.requests()] == expected
    assert names(emulator.ok('GET', '/api/peers')) == ['build-old', 'connected-old', 'db-old', 'fresh', 'recent']


def test_only_if_inactive_for_judges_check_mode_on_the_same_read(emulator, run):
    ids = seed(emulator)
    emulator.clear_log()
    result = run([
        {'name': 'old', 'nms.overlay.peer': {'id': ids['old'], 'state': 'absent', 'only_if_inactive_for': '30d'}},
        {'name': 'fresh', 'nms.overlay.peer': {'id': ids['fresh'], 'state': 'absent', 'only_if_inactive_for': 60}},
    ], check=True, diff=True)
    assert result['old']['changed'] is True and result['old']['diff']['after'] == {}
    assert result['fresh']['changed'] is False and 'is connected now: not deleted' in result['fresh']['kept_because']
    assert emulator.writes() == []


def test_only_if_inactive_for_fails_naming_the_option_before_any_request(emulator, run):
    ids = seed(emulator)
    emulator.clear_log()
    result = run([
        {'name': 'present', 'ignore_errors': True,
         'nms.overlay.peer': {'id': ids['old'], 'ssh_enabled': True, 'only_if_inactive_for': '30d'}},
        {'name': 'bad', 'ignore_errors': True,
         'nms.overlay.peer': {'id': ids['old'], 'state': 'absent', 'only_if_inactive_for': 'a month'}},
        {'name': 'negative', 'ignore_errors': True,
         'nms.overlay.peer': {'id': ids['old'], 'state': 'absent', 'only_if_inactive_for': -1}},
    ])
    assert result['present']['msg'] == ('option only_if_inactive_for: only with state=absent, where it deletes the peer '
                                        'only while it is stale (not connected, and not seen for that long)')
    assert result['bad']['msg'].startswith("option only_if_inactive_for: 'a month' is not a number of seconds")
    assert result['negative']['msg'].startswith('option only_if_inactive_for: must be a duration of 0 or more')
    assert all(result[name]['failed'] for name in ('present', 'bad', 'negative'))
    assert emulator.requests() == []


@pytest.mark.dialects('current')  # the clocks, not the server's generation
def test_a_server_clock_behind_ours_keeps_a_peer_it_saw_recently(emulator, run):
    """The server's clock is an hour behind this machine's: it stamped last_seen 10 minutes before its own time, which is
    70 minutes before ours. Stale for 30 minutes by our clock, it is not by the server's, and the earlier one decides."""
    ids = seed(emulator)
    emulator.control('POST', '/_emulator/config', {'clock_offset': -3600})
    emulator.control('POST', '/_emulator/peer-status', {
        'peers': [{'id': ids['recent'], 'connected': False, 'last_seen': ago(3600 + 600)}]})
    listed = run([{'name': 'list', 'nms.overlay.peer_info': {'inactive_for': '30m', 'name': 'recent'}}])
    assert names(listed['list']['peers']) == ['recent']  # peer_info judges on this machine's clock
    emulator.clear_log()
    result = run([{'name': 'delete', 'nms.overlay.peer': {'id': ids['recent'], 'state': 'absent',
                                                          'only_if_inactive_for': '30m'}}])
    kept = result['delete']
    assert kept['changed'] is False, kept
    assert re.search(r"was last seen at \S+, (9m5\ds|10m\d*s?) before the time on the server's clock: not deleted", kept['kept_because']), kept
    assert emulator.writes() == []
    # the server's clock ahead of ours: ours decides, the peer seen 10 minutes ago (ours) is kept as well
    emulator.control('POST', '/_emulator/config', {'clock_offset': 7200})
    emulator.control('POST', '/_emulator/peer-status', {
        'peers': [{'id': ids['recent'], 'connected': False, 'last_seen': ago(600)}]})
    ahead = run([{'name': 'delete', 'nms.overlay.peer': {'id': ids['recent'], 'state': 'absent',
                                                         'only_if_inactive_for': '30m'}}])['delete']
    assert ahead['changed'] is False and "before the time on this controller's clock" in ahead['kept_because'], ahead
    assert emulator.writes() == []
    # an hour after it was seen, by both clocks: deleted
    emulator.control('POST', '/_emulator/config', {'clock_offset': 0})
    emulator.control('POST', '/_emulator/peer-status', {
        'peers': [{'id': ids['recent'], 'connected': False, 'last_seen': ago(3600)}]})
    gone = run([{'name': 'delete', 'nms.overlay.peer': {'id': ids['recent'], 'state': 'absent',
                                                        'only_if_inactive_for': '30m'}}])['delete']
    assert gone['changed'] is True and writes_of(emulator) == ['DELETE /api/peers/%s' % ids['recent']]


def test_cleanup_keeps_the_listed_peers_that_reconnect_or_are_seen_while_it_deletes(emulator, run):
    """The confirmed run lists the stale peers, the code matches, and while it deletes the first one (by name:
    build-old) one listed peer's agent connects and another is seen: neither is deleted, and the run says so."""
    ids = seed(emulator)
    code, listed = preview_of(run([], playbook=PLAYBOOK))
    assert names(listed) == STALE_30D
    reconnect_before(emulator, 'DELETE /api/peers/%s' % ids['build-old'], {
        ids['db-old']: {'connected': True, 'last_seen': ago(0)},      # its agent connects
        ids['old']: {'connected': False, 'last_seen': ago(0)},        # seen: connected and left again
    })
    emulator.clear_log()
    confirmed = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_confirm': code})
    assert confirmed.rc == 0, confirmed
    assert deletes(emulator) == sorted('/api/peers/%s' % ids[name] for name in ('build-old', 'never'))
    # each peer read right before its DELETE (the loop runs by name)
    peer_reads = [(e['method'], e['path']) for e in emulator.requests() if e['path'].startswith('/api/peers/')]
    assert peer_reads == [step for name in STALE_30D for step in
                          [('GET', '/api/peers/%s' % ids[name])]
                          + ([('DELETE', '/api/peers/%s' % ids[name])] if name in ('build-old', 'never') else [])]
    results = {item['item']['name']: item for item in confirmed[DELETE_TASK]['results']}
    assert [name for name, item in sorted(results.items()) if item['changed']] == ['build-old', 'never']
    assert "the peer 'db-old' (id %s) is connected now: not deleted" % ids['db-old'] in results['db-old']['kept_because']
    assert "the peer 'old' (id %s) was last seen at " % ids['old'] in results['old']['kept_because']
    report = confirmed['Report the listed peers that were not deleted']['msg']
    assert report[0] == '2 of the 4 peers listed were not deleted:', report
    assert report[1:] == [results['db-old']['kept_because'], results['old']['kept_because']], report
    assert names(emulator.ok('GET', '/api/peers')) == ['connected-old', 'db-old', 'fresh', 'old', 'recent']


@pytest.mark.dialects('current')  # the playbook's own logic
def test_cleanup_reports_a_listed_peer_deleted_meanwhile_and_check_mode_judges_each_peer_too(emulator, run):
    ids = seed(emulator)
    code, listed = preview_of(run([], playbook=PLAYBOOK))
    assert names(listed) == STALE_30D
    # check mode with the code, db-old reconnecting after the list: it would not be deleted
    reconnect_before(emulator, 'GET /api/peers/%s' % ids['db-old'], {ids['db-old']: {'connected': True}})
    emulator.clear_log()
    check = run([], playbook=PLAYBOOK, check=True, extra_vars={'nms_stale_confirm': code})
    assert check.rc == 0, check
    assert check['Report the listed peers that were not deleted']['msg'] == [
        '1 of the 4 peers listed would not be deleted:',
        "the peer 'db-old' (id %s) is connected now: not deleted, as %s" % (ids['db-old'], ONLY_IF.replace(': ', '=', 1))]
    assert emulator.writes() == []
    # another client deletes a listed peer after the list: the read before its DELETE finds it gone, said so
    emulator.control('POST', '/_emulator/peer-status', {'peers': [{'id': ids['db-old'], 'connected': False}]})
    emulator.set_faults({'queue': [{'path': '/api/peers/%s' % ids['never'], 'status': 404,
                                    'body': '{"message":"peer not found: %s","code":404}' % ids['never'],
                                    'content_type': 'application/json'}]})
    emulator.clear_log()
    confirmed = run([], playbook=PLAYBOOK, extra_vars={'nms_stale_confirm': code})
    assert confirmed.rc == 0, confirmed
    assert deletes(emulator) == sorted('/api/peers/%s' % ids[name] for name in ('build-old', 'db-old', 'old'))
    assert confirmed['Report the listed peers that were not deleted']['msg'] == [
        '1 of the 4 peers listed was not deleted:',
        "the peer 'never' (id %s) was gone already: nothing to delete" % ids['never']]
    assert 'changed=1' in confirmed.stdout.split('PLAY RECAP')[-1], confirmed
