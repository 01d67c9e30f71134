# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Temporary access to a peer (the peer_temporary_access module): POST /api/peers/{id}/temporary-access makes an
ephemeral peer of the caller's WireGuard public key, and one policy per rule that lets it reach that peer only.

The server gives such a peer no mark of its own, and never answers a peer's public key: the module finds the one it
made by its name and the policies that join it to the peer (a rule whose sourceResource is it and whose
destinationResource is the peer), which is what the server builds and deletes with the peer. Nothing of it can change:
the engine's create-only strategy (_strategy_create_only.py).
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id, rule_text
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._strategy_create_only import CreateOnly


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


def rule_list(texts):
    """The rules as the module compares and sends them: each as rule_text writes it (as given where it cannot), once."""
    rules = []
    for text in texts or []:
        rule = rule_text(text) or str(text)
        if rule not in rules:
            rules.append(rule)
    return rules


class PeerTemporaryAccessModule(CreateOnly):
    """Give a WireGuard key temporary access to one peer, unless the temporary peer of that name exists already."""

    api_operations = ('POST /api/peers/{peerId}/temporary-access', 'DELETE /api/peers/{peerId}')
    requires = 'temporary access to peers'
    what = 'temporary access'
    parent = ('peers', 'peer')
    sub_path = '/temporary-access'
    kind = 'peers'            # the temporary peer is one of the account's peers: found, and deleted, there
    linked_through = 'policies'
    model = 'peers.TemporaryAccessOptions'  # a non-empty name, a WireGuard public key, rules servers take
    never_answered = ('wg_pub_key',)
    fields = dict(
        name=Field(dict(type='str', required=True), immutable=True),
        wg_pub_key=Field(immutable=True),
        rules=Field('list', norm=rule_list, many=True, immutable=True),
    )
    required_if = (('state', 'present', ('wg_pub_key', 'rules')),)
    ambiguous_text = ("the name '{name}' has {count} temporary peers with access to the peer {parent} (ids: {ids}); delete "
                      "the others with nms.overlay.peer (state: absent, id: ...)")

    def linked(self, item):
        """A peer of the name is the temporary access when policies let it reach the peer: it has their rules."""
        target = ref_id(self.parent_object(self))
        own = [policy for policy in self.resolver.items(self.linked_through) if links(policy, target) == ref_id(item)]
        if not own:
            return None
        return dict(id=ref_id(item), name=item.get('name'), rules=[rule for policy in own for rule in rules_of(policy)])
