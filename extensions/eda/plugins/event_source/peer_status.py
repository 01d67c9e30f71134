# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nms.overlay.peer_status: an ansible-rulebook event source that polls the peers of a NetBird management server and
puts each change of a peer's connection or approval on the queue once (open-source servers push no such event, and
their audit log records none).

It shares the connection arguments, the HTTP client (TLS, no redirect, no proxy, the token never logged), the poll
loop (a failed poll logged once and tried again) and the atomic state file with nms.overlay.audit_events: it loads
audit_events.py from its own directory (ansible-rulebook runs each source as a file, so a sibling cannot be imported
by name). Like it, it imports only Python's standard library.
"""

from __future__ import annotations

DOCUMENTATION = r'''
---
short_description: Receive the connection and approval changes of NetBird peers
description:
  - Polls the peers of a NetBird management server (C(GET /api/peers)) and puts each change on the queue once, a
    peer that connects, one that disconnects, one that waits for approval and one that is approved.
  - Each event is a dictionary with the one key C(peer_status), whose value has C(change) (V(connected),
    V(disconnected), V(approval_required) or V(approved)) and the peer's C(id), C(name), C(hostname), C(ip),
    C(dns_label), C(connected), C(last_seen), C(approval_required), C(os), C(version), C(user_id) and C(groups) (the
    names of its groups) as the poll that saw the change listed them.
  - A change is decided by the peer's id and its C(connected) and C(approval_required) alone, never by a time stamp,
    so clocks that disagree change nothing, and a renamed peer is the same peer. Each change is delivered once, in the
    first poll that lists it; a failed poll (no answer, an HTTP error, an answer cut short or not a list) changes
    nothing and the change comes with the next poll that works.
  - A peer no longer listed (deleted, or left out of an answer) is not reported; its last state is remembered (the
    10000 last ones) so that nothing is delivered again when it is listed again.
  - A peer that disconnects and connects again between two polls is not seen to change; poll more often than that.
  - The first poll (without a state file) only learns the peers' states, unless O(report_initial) is set.
options:
  api_url:
    description:
      - Base URL of the management API, for example C(https://nms.example.com); a trailing C(/api) is optional.
      - Defaults to the environment variable E(NMS_API_URL).
    type: str
  api_token:
    description:
      - Personal access token of a user who sees every peer (an admin, or a service user).
      - Defaults to the environment variable E(NMS_API_TOKEN).
    type: str
  validate_certs:
    description: Whether to verify the server's TLS certificate.
    type: bool
    default: true
  ca_path:
    description:
      - PEM file (or directory) of the CA certificates that signed the server's certificate.
      - Defaults to the environment variable E(NMS_API_CA_PATH).
    type: path
  timeout:
    description: Seconds one poll's request may take.
    type: float
    default: 30
  interval:
    description: Seconds between two polls.
    type: float
    default: 10
  state_file:
    description:
      - File in which the source keeps the last state of each peer, written atomically after the first poll, after
        every poll that delivered changes, and when the source stops.
      - With it, a restarted source delivers the changes that happened while it was down (compared with what it last
        delivered) and nothing twice. Its directory must exist. Not the state file of another source.
    type: path
  changes:
    description: Deliver only these changes (all by default).
    type: list
    elements: str
    choices: [connected, disconnected, approval_required, approved]
  report_initial:
    description:
      - On the first poll without a state file, deliver the peers that are connected (as V(connected)) and those that
        wait for approval (as V(approval_required)) then. Without it the first poll only learns the states.
    type: bool
    default: false
'''

EXAMPLES = r'''
- name: React to peers that connect, disconnect or wait for approval
  hosts: localhost
  sources:
    - nms.overlay.peer_status:
        api_url: https://nms.example.com
        api_token: "{{ NMS_API_TOKEN }}"
        interval: 15
        state_file: /var/lib/eda/nms-peer-status.json
        changes: [connected, disconnected, approval_required]
  rules:
    - name: Show who went away
      condition: event.peer_status.change == "disconnected"
      action:
        debug:
          msg: "{{ event.peer_status.name }} ({{ event.peer_status.ip }}) disconnected"
'''

import asyncio
import collections
import importlib.util
import logging
import os
from typing import Any

PEERS_PATH = '/api/peers'
CHANGES = ('connected', 'disconnected', 'approval_required', 'approved')
GONE_LIMIT = 10000  # peers no longer listed whose last state is remembered
STATE_VERSION = 1
SOURCE = 'nms.overlay.peer_status'
FIELDS = ('id', 'name', 'hostname', 'ip', 'dns_label', 'connected', 'last_seen', 'approval_required', 'os', 'version',
          'user_id')

logger = logging.getLogger(SOURCE)


def _shared():
    """audit_events.py of this directory, as a module of its own name (what both sources share)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'audit_events.py')
    spec = importlib.util.spec_from_file_location('nms_overlay_eda_shared', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shared = _shared()
ARGS = shared.CONNECTION_ARGS | frozenset(('changes', 'report_initial'))


class Options(shared.SourceOptions):
    """The arguments of nms.overlay.peer_status, checked: a ValueError names the argument that cannot work."""

    def __init__(self, args, environ=None):
        super().__init__(args, environ, ARGS, SOURCE)
        args = dict(args or {})
        changes = args.get('changes')
        if isinstance(changes, str):
            changes = [changes]
        if changes is not None and (not isinstance(changes, list) or not changes
                                    or not all(change in CHANGES for change in changes)):
            raise ValueError('changes: %r is not a list of %s' % (changes, ', '.join(CHANGES)))
        self.changes = frozenset(changes or CHANGES)
        self.report_initial = shared._boolean('report_initial', args.get('report_initial'), False)


# --- what a peer is -------------------------------------------------------------------------------------------------
def state_of(item):
    """``(id, (connected, approval_required))`` of an item of the answer; None for one that is no peer (no id, or a
    ``connected`` that is not a boolean): such an item changes nothing."""
    if not isinstance(item, dict):
        return None
    peer_id = item.get('id')
    if not isinstance(peer_id, str) or not peer_id or not isinstance(item.get('connected'), bool):
        return None
    approval = item.get('approval_required')
    return peer_id, (item['connected'], approval is True)


def describe(item, change):
    """The event of a change of a peer: the change and the peer's fields, its groups by name."""
    event = {'change': change}
    for key in FIELDS:
        event[key] = item.get(key)
    groups = item.get('groups')
    event['groups'] = sorted(str(g.get('name')) for g in groups if isinstance(g, dict)) if isinstance(groups, list) else []
    return event


def changes_between(before, after):
    """The changes from the state ``before`` to ``after`` (each ``(connected, approval_required)``), in that order."""
    found = []
    if before[0] != after[0]:
        found.append('connected' if after[0] else 'disconnected')
    if before[1] != after[1]:
        found.append('approval_required' if after[1] else 'approved')
    return found


# --- the position ---------------------------------------------------------------------------------------------------
class PeerPosition:
    """The last state delivered of each peer, by id: ``listed`` those of the last answer, ``gone`` (oldest first, at
    most GONE_LIMIT) those no longer listed. ``learning``: no answer was taken yet (no state file)."""

    def __init__(self):
        self.listed = {}
        self.gone = collections.OrderedDict()
        self.learning = True

    def known(self, peer_id):
        return self.listed.get(peer_id, self.gone.get(peer_id))

    def take(self, peer_id, state):
        self.gone.pop(peer_id, None)
        self.listed[peer_id] = state

    def settle(self, answered):
        """After an answer's changes were taken: the peers it did not list go to ``gone``."""
        for peer_id in sorted(key for key in self.listed if key not in answered):
            self.gone[peer_id] = self.listed.pop(peer_id)
        while len(self.gone) > GONE_LIMIT:
            self.gone.popitem(last=False)
        self.learning = False

    def to_json(self, api_url):
        return {'version': STATE_VERSION, 'source': SOURCE, 'api_url': api_url,
                'peers': {key: list(state) for key, state in sorted(self.listed.items())},
                'gone': [[key, state[0], state[1]] for key, state in self.gone.items()]}

    @classmethod
    def from_json(cls, data, where):
        def bad(why):
            return ValueError('state_file: %s is damaged (%s); fix or remove it (the source then learns the peers '
                              'again on its first poll)' % (where, why))
        if not isinstance(data, dict) or data.get('source') != SOURCE or data.get('version') != STATE_VERSION:
            raise bad('not a state file of %s of version %d' % (SOURCE, STATE_VERSION))
        position = cls()
        position.learning = False
        peers, gone = data.get('peers'), data.get('gone')
        if not isinstance(peers, dict) or not isinstance(gone, list):
            raise bad('peers or gone missing')
        for key, state in peers.items():
            if not (isinstance(state, list) and len(state) == 2 and all(isinstance(flag, bool) for flag in state)):
                raise bad('the state of peer %r is not [connected, approval_required]' % key)
            position.listed[key] = tuple(state)
        for item in gone:
            if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)
                    and all(isinstance(flag, bool) for flag in item[1:])):
                raise bad('gone holds %r, not [id, connected, approval_required]' % (item,))
            position.gone[item[0]] = tuple(item[1:])
        return position


# --- the source -----------------------------------------------------------------------------------------------------
class PeerStatusSource(shared.Poller):
    """``poll()`` lists the peers once and returns their changes; ``run(queue)`` (shared.Poller) puts them on the
    queue every ``interval`` seconds until cancelled."""

    log = logger

    def __init__(self, options):
        self.options = options
        self.client = shared.Client(options, forbidden='listing every peer needs the token of a user with admin power '
                                                       'or of a service user', user_agent='nms.overlay-eda-peer-status')
        data = shared.read_state(options)
        if data is None:
            self.position = PeerPosition()
            logger.info('polling the peers of %s%s', options.api_url,
                        '' if options.report_initial else ', delivering the changes after the first poll')
        else:
            self.position = PeerPosition.from_json(data, options.state_file)
            if data.get('api_url') != options.api_url:
                logger.warning('the state file %s was written for %s, not %s; resuming from it anyway',
                               options.state_file, data.get('api_url'), options.api_url)
            logger.info('resuming from %s (%d peers known)', options.state_file,
                        len(self.position.listed) + len(self.position.gone))

    def poll(self):
        """``(changes, answered, states)``: the changes not delivered yet, each ``(event, peer id, wanted)``, ordered
        by the peers' ``last_seen`` (order only) then id; the ids the answer listed; the state of each peer it listed
        with one. Blocking (in a thread); it changes nothing of the position: deliver() takes each peer's state once
        its changes are on the queue."""
        data = self.client.get(PEERS_PATH)
        if not isinstance(data, list):
            raise shared.PollError('GET %s%s answered %s where a list of peers was expected'
                                   % (self.options.api_url, PEERS_PATH, type(data).__name__))
        position, found, answered, states, skipped = self.position, [], set(), {}, 0
        for item in data:
            parsed = state_of(item)
            if parsed is None:
                skipped += 1
                if isinstance(item, dict) and isinstance(item.get('id'), str):
                    answered.add(item['id'])  # listed, its state unknown: remembered as it was
                continue
            peer_id, state = parsed
            if peer_id in states:
                continue  # listed twice: the first counts
            answered.add(peer_id)
            states[peer_id] = state
            before = position.known(peer_id)
            if before is None:
                # a peer not seen before: on the first poll learnt (unless report_initial), later a new peer
                before = state if position.learning and not self.options.report_initial else (False, False)
            found.extend((item, change, peer_id) for change in changes_between(before, state))
        if skipped:
            logger.warning('%d item(s) of the peers list have no id or no connected status; left as they were', skipped)
        if position.learning:
            logger.info('the peers of %s%s: %d listed', self.options.api_url, PEERS_PATH, len(states))
        found.sort(key=lambda entry: (_moment(entry[0].get('last_seen')), entry[2], CHANGES.index(entry[1])))
        changes = [(describe(item, change), peer_id, change in self.options.changes) for item, change, peer_id in found]
        return changes, answered, states

    async def deliver(self, queue, changes, answered, states):
        """Put the wanted changes on the queue, taking each peer's new state once its last change is there (a source
        cancelled in between delivers the rest next time), then remember the states and write the state file."""
        position = self.position
        first = position.learning
        pending = collections.Counter(peer_id for dummy, peer_id, dummy2 in changes)
        for event, peer_id, wanted in changes:
            if wanted:
                await queue.put({'peer_status': event})
            pending[peer_id] -= 1
            if not pending[peer_id]:
                position.take(peer_id, states[peer_id])
        for peer_id in sorted(answered):
            if peer_id in states:
                position.take(peer_id, states[peer_id])
            elif position.known(peer_id) is not None:
                position.take(peer_id, position.known(peer_id))  # listed without a state: as it was
        position.settle(answered)
        if changes or first:
            self.save()

    def save(self):
        if self.options.state_file is not None and not self.position.learning:
            shared.write_state(self.options, self.position.to_json(self.options.api_url))


def _moment(text):
    moment = shared.parse_time(text) if isinstance(text, str) else None
    return moment or shared.parse_time('1970-01-01T00:00:00Z')


async def main(queue: asyncio.Queue, args: dict[str, Any]) -> None:
    """ansible-rulebook's entry point: poll until cancelled. Bad arguments raise ValueError naming the argument."""
    await PeerStatusSource(Options(args)).run(queue)


if __name__ == '__main__':
    # Run it by hand with NMS_API_URL and NMS_API_TOKEN set: prints the changes as they come (Ctrl-C stops)

    class MockQueue(asyncio.Queue):
        async def put(self, item):
            print(item)

    logging.basicConfig(level=logging.INFO)
    try:
        asyncio.run(main(MockQueue(), {'interval': 5, 'report_initial': True}))
    except KeyboardInterrupt:
        pass
