# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Temporary access to a peer (the peer_temporary_access module): POST /api/peers/{id}/temporary-access makes an
ephemeral peer of the caller's WireGuard public key, and one policy per rule that lets it reach that peer only.

The server gives such a peer no mark of its own, and never answers a peer's public key: the module finds the one it
made by its name and the policies that join it to the peer (a rule whose sourceResource is it and whose
destinationResource is the peer), which is what the server builds and deletes with the peer.
"""

from __future__ import annotations

import re

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError, TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import placeholder_id
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule

PEERS_PATH = '/peers'
POLICIES_PATH = '/policies'
RULE_RE = re.compile(r'^(?:(all|icmp)|(tcp|udp)/(\d{1,5})(?:-(\d{1,5}))?)$')


def rule_text(text):
    """A rule as the module compares and sends it ('tcp/22', 'udp/53-60', 'icmp', 'all'), or None when servers would
    refuse it (they answer a bare 500 after making the peer, so it is refused before any request)."""
    match = RULE_RE.match(str(text).strip().lower())
    if not match:
        return None
    if match.group(1):
        return match.group(1)
    start, end = int(match.group(3)), int(match.group(4) or match.group(3))
    if not 1 <= start <= end <= 65535:
        return None
    return '%s/%d' % (match.group(2), start) if start == end else '%s/%d-%d' % (match.group(2), start, end)


def rules_of(policy):
    """The temporary access rules a server policy holds, as rule_text writes them."""
    found = []
    for rule in policy.get('rules') or []:
        protocol = str(rule.get('protocol') or '').lower()
        if protocol in ('all', 'icmp'):
            found.append(protocol)
            continue
        ranges = [(item.get('start'), item.get('end')) for item in rule.get('port_ranges') or [] if isinstance(item, dict)]
        ranges += [(int(port), int(port)) for port in rule.get('ports') or [] if str(port).isdigit()]
        found.extend(rule_text('%s/%s-%s' % (protocol, start, end)) or '%s/%s-%s' % (protocol, start, end) for start, end in ranges)
    return found


def links(policy, target_id):
    """The id of the peer a temporary access policy lets reach the target peer, else None."""
    for rule in policy.get('rules') or []:
        source, destination = rule.get('sourceResource') or {}, rule.get('destinationResource') or {}
        if source.get('type') == 'peer' and destination.get('type') == 'peer' and ref_id(destination) == target_id:
            return ref_id(source)
    return None


class PeerTemporaryAccessModule(NmsModule):
    """Give a WireGuard key temporary access to one peer, unless the temporary peer of that name exists already."""

    api_operations = ('POST /api/peers/{peerId}/temporary-access', 'DELETE /api/peers/{peerId}')
    requires = 'temporary access to peers'
    argument_spec = dict(
        peer=dict(type='str', required=True),
        name=dict(type='str', required=True),
        wg_pub_key=dict(type='str'),
        rules=dict(type='list', elements='str'),
        state=dict(type='str', choices=['present', 'absent'], default='present'),
    )
    required_if = (('state', 'present', ('wg_pub_key', 'rules')),)

    def wanted_rules(self):
        """The rules, checked before any request."""
        problems = []
        if not self.params['name'].strip():
            problems.append('option name: must not be empty')
        if self.params.get('wg_pub_key') is not None and not self.params['wg_pub_key'].strip():
            problems.append('option wg_pub_key: must not be empty')
        rules = []
        for index, text in enumerate(self.params.get('rules') or []):
            rule = rule_text(text)
            if rule is None:
                problems.append("option rules[%d]: '%s' is no rule; write tcp/PORT, udp/PORT, tcp/START-END, udp/START-END "
                                "(ports 1 to 65535), icmp or all" % (index, text))
            elif rule not in rules:
                rules.append(rule)
        if self.params.get('rules') is not None and not self.params['rules']:
            problems.append('option rules: must list at least 1 rule (without one the peer can reach nothing)')
        if problems:
            raise OptionsError('; '.join(problems))
        return rules

    def existing(self, target_id):
        """The temporary peers of the task's name that reach the target, each with the rules of its policies."""
        policies = self.client.get_list(POLICIES_PATH)
        found = []
        for peer in self.resolver.items('peers'):
            if peer.get('name') != self.params['name'] or ref_id(peer) == target_id:
                continue
            own = [policy for policy in policies if links(policy, target_id) == ref_id(peer)]
            if own:
                found.append(dict(id=ref_id(peer), name=peer.get('name'), peer=target_id,
                                  rules=[rule for policy in own for rule in rules_of(policy)]))
        if len(found) > 1:
            ids = ', '.join(sorted(item['id'] for item in found))
            raise TaskError("the name '%s' has %d temporary peers with access to the peer %s (ids: %s); delete the others "
                            "with nms.overlay.peer (state: absent, id: ...)" % (self.params['name'], len(found), self.params['peer'], ids))
        return found[0] if found else None

    def run(self):
        rules = self.wanted_rules()
        self.check_generation()
        target_id = self.resolver.to_id('peers', self.params['peer'], 'peer')
        current = self.existing(target_id)
        if self.params['state'] == 'absent':
            if current is None:
                return {'changed': False, 'temporary_access': {}}
            if not self.module.check_mode:
                try:
                    self.client.delete('%s/%s' % (PEERS_PATH, current['id']))
                except ApiError as exc:
                    if exc.status != 404:  # gone already (it disconnected, and the server deleted it)
                        raise
            return {'changed': True, 'temporary_access': current, 'diff': dict(before=dict(name=current['name'], rules=current['rules']),
                                                                               after={})}
        if current is not None:
            if sorted(current['rules']) != sorted(rules):
                self.warn('the temporary access %s keeps its rules %s, not %s: servers cannot change them; delete it (state: '
                          'absent) and create it again to change them' % (self.shown(self.params['name']), ', '.join(current['rules']),
                                                                          ', '.join(rules)))
            return {'changed': False, 'temporary_access': current}
        body = dict(name=self.params['name'], wg_pub_key=self.params['wg_pub_key'], rules=rules)
        result = {'changed': True, 'diff': dict(before={}, after=dict(name=body['name'], rules=rules))}
        if self.module.check_mode:
            result['temporary_access'] = dict(id=placeholder_id('peer', body['name']), name=body['name'], rules=rules, peer=target_id)
            return result
        created = self.client.post('%s/%s/temporary-access' % (PEERS_PATH, target_id), body)
        if not isinstance(created, dict) or not created.get('id'):
            raise self.client.answer_error('POST', '%s/%s/temporary-access' % (PEERS_PATH, target_id), 'the answer is not the created peer')
        result['temporary_access'] = dict(created, rules=created.get('rules') or [], peer=target_id)
        return result
