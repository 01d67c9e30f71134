# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Who gains and who loses reach: the access report's peer-by-peer computation (_access_peers.py) run on the state
before a change and on the state it leaves, and the difference peer by peer ("laptop-ana loses db tcp 5432").

``reach_difference`` is pure (lists in, items out): network_state (check mode and a real run) and the drift report
call it. ``plan_reach`` and ``reach_result`` take the running NetworkStateModule (_network.py); the first runs before
the run's first write and sends no request beyond the lists the run reads anyway, the second runs at its end and reads
only the lists the computation needs that the run did not read (peers, routes, groups), and only when the run changed
(or would change) groups, policies or routes.
"""

from __future__ import annotations

import copy

from ansible_collections.nms.overlay.plugins.module_utils._access_peers import (
    KIND_ORDER, NOTHING, _Reach, traffic_data, traffic_empty, traffic_minus, traffic_words,
)
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._network_plan import PlanResolver, declared_names, final_objects

# the kinds network_state changes that reach depends on (peers join with setup keys: never changed here); Networks'
# resources and routers are not worked out (see the module's documentation)
REACH_KINDS = ('groups', 'policies', 'routes')
# what the computation reads besides them: the peers (names, and who is who)
READ_KINDS = REACH_KINDS + ('peers',)
PEER_LIMIT = 250
CHANGES = ('loses', 'gains')


def _peers(peers):
    """The peers as the computation takes them, without their own list of groups: membership comes from the groups
    alone, so that a peer a planned group no longer holds is out of it."""
    return [dict(id=ref_id(peer), name=peer.get('name'), ip=peer.get('ip')) for peer in peers or [] if isinstance(peer, dict)]


def reach_of(state, posture_names=None):
    """{peer id: {(kind, target id): reach item}} for a state {'policies', 'groups', 'peers', 'routes'} (lists as the
    server answers them, or as a run leaves them)."""
    def name(value):
        return (posture_names or {}).get(str(value)) or str(value)

    reach = _Reach([dict({'enabled': True}, **policy) for policy in state.get('policies') or [] if isinstance(policy, dict)],
                   [group for group in state.get('groups') or [] if isinstance(group, dict)], _peers(state.get('peers')),
                   state.get('routes') or [], [], name)
    reach.compute()
    return {source: {(item['kind'], item['id']): item for item in items} for source, items in reach.results().items()}


def reach_difference(before, after, posture_names=None):
    """What each peer gains and loses from the state ``before`` to the state ``after`` (see reach_of), as a list of
    items sorted by peer, then by what it reaches (peers, then routes), losses before gains."""
    old, new = reach_of(before, posture_names), reach_of(after, posture_names)
    names = {ref_id(peer): peer.get('name') or ref_id(peer) for peer in (before.get('peers') or []) + (after.get('peers') or [])}
    found = []
    for source in sorted(set(old) | set(new), key=lambda peer: (str(names.get(peer, peer)).casefold(), peer)):
        mine, theirs = old.get(source, {}), new.get(source, {})
        for key in sorted(set(mine) | set(theirs), key=lambda k: (KIND_ORDER.index(k[0]), str((theirs.get(k) or mine[k])['name']).casefold(), k[1])):
            item = theirs.get(key) or mine[key]
            was, will = mine[key]['value'] if key in mine else NOTHING, theirs[key]['value'] if key in theirs else NOTHING
            for change, traffic in (('loses', traffic_minus(was, will)), ('gains', traffic_minus(will, was))):
                if traffic_empty(traffic):
                    continue
                peer = str(names.get(source, source))
                found.append(dict(
                    peer=peer, peer_id=source, change=change, kind=item['kind'], target=item['name'], target_id=key[1],
                    address=item['address'], traffic=traffic_data(traffic), text=traffic_words(traffic),
                    before=traffic_words(was) or 'nothing', after=traffic_words(will) or 'nothing',
                    posture_checks=list((theirs.get(key) or {}).get('posture_checks') or []),
                    line='%s %s %s %s' % (peer, change, item['name'], traffic_words(traffic))))
    return found


def reach_diff(changes):
    """The reach of each changed (peer, destination) pair before and after, as text for --diff."""
    pairs = {}
    for item in changes:
        pairs.setdefault((item['peer'], item['kind'], item['target']), item)
    before = ''.join('%s -> %s (%s): %s\n' % (peer, target, kind, item['before']) for (peer, kind, target), item in pairs.items())
    after = ''.join('%s -> %s (%s): %s\n' % (peer, target, kind, item['after']) for (peer, kind, target), item in pairs.items())
    return dict(before_header='reach of the peers', after_header='reach of the peers', before=before, after=after)


# -- in network_state -----------------------------------------------------------------------------------------------

def plan_reach(task):
    """Before the run's first write: the lists reach depends on as read and as the run will leave them, for the
    described kinds among REACH_KINDS (the others it does not change); None when reach is not asked for or the
    description changes none of them. No request but the lists of described kinds, which the run reads anyway."""
    if not task.params.get('reach'):
        return None
    if task.params.get('reach_peer_limit') < 0:
        raise TaskError('option reach_peer_limit: must be 0 or more (the most peers for which reach is worked out), got %d'
                        % task.params['reach_peer_limit'])
    kinds = [kind for kind in REACH_KINDS if any(entry.kind == kind for entry in task.entries)]
    if not kinds:
        return None
    plan = PlanResolver(task.resolver, declared_names(task.entries))
    before = {kind: copy.deepcopy(task.resolver.items(kind)) for kind in kinds}
    after = {kind: copy.deepcopy(final_objects(task, kind, plan, placeholders=True)) for kind in kinds}
    return before, after


def reach_result(task, planned, changes):
    """At the end of the run: {'reach_changes': [...]} (also when nothing changes: []), {} when reach is not asked for.
    The lists the run neither described nor read are read now (the run did not change them): at most peers, groups
    and routes, and only when a change was made (or in check mode, would be) to groups, policies or routes."""
    if not task.params.get('reach'):
        return {}
    if planned is None or not any(change['kind'] in REACH_KINDS for change in changes):
        return dict(reach_changes=[])
    before, after = dict(planned[0]), dict(planned[1])
    for kind in READ_KINDS:
        if kind not in before:
            before[kind] = after[kind] = task.resolver.items(kind)
    limit = task.params.get('reach_peer_limit')
    if len(before['peers']) > limit:
        task.warn('reach: not worked out for %d peers, more than reach_peer_limit (%d); raise it to see who gains and '
                  'who loses reach' % (len(before['peers']), limit))
        return {}
    checks = task.resolver.cached('posture_checks') or []
    found = reach_difference(before, after, {ref_id(check): check.get('name') for check in checks if isinstance(check, dict)})
    if found:  # a task with no_log: counts only (progress lines show live)
        hidden = getattr(task.module, 'no_log', False)
        said = '%d changes for %d peers' % (len(found), len({i['peer_id'] for i in found})) if hidden else '; '.join(i['line'] for i in found)
        task.progress('network_state: reach: ' + said)
    return dict(reach_changes=found)
