# -*- coding: utf-8 -*-
"""An export pins every field it writes: a change made on the server to any of them is drift, and applying the export
undoes it (issue 44). Shared by test_export.py (the emulator's two dialects) and test_real_export.py (the real NetBird
v0.27.6 and v0.77.1).

``changes(exported)`` walks every entry of an export (nested ones too: a network's resources, a zone's records) and
every field it writes, down into rules, nameservers, checks and targets, and gives for each a changed value that the
server takes; ``sweep`` makes the changes (through ``nms.overlay.network_state``, as a hand in the dashboard would,
every entry once per round, one field of it), asks the drift check (network_state in check mode with the export, as
``nms.overlay.drift_report`` does) and requires each change to be drift, named down to the field, applies the export,
and requires the server to be as exported again.
"""

from __future__ import annotations

import copy
import json

from ansible_collections.nms.overlay.plugins.filter.drift_report import drift_report
from ansible_collections.nms.overlay.plugins.module_utils._kinds import ALL_SECTIONS, SECTIONS, nested_sections

# Fields a changed value is not made for, and why: a natural key (a change is another object), what cannot change
# after creation (a warning, never a change), a write-only value, and values whose change the server refuses here.
NOT_CHANGED = {
    'name', 'network_id', 'email', 'domain', 'id', 'routes.peer', 'routes.peer_groups',  # what finds the object
    'network_routers.peer', 'network_routers.peer_groups',
    'type', 'usage_limit', 'ephemeral', 'allow_extra_dns_labels', 'expires_in', 'is_service_user',  # fixed at creation
    'provider_id', 'target_cluster', 'mode', 'listen_port', 'target_type', 'protocol@targets',  # a service's kind
    'models', 'extra_values', 'checks', 'limits', 'auth',  # nested: their members are changed instead
    'nameservers', 'targets', 'rules',
    'identity_header_user_id', 'identity_header_groups', 'upstream_url', 'proxy_address',
    'target_id', 'content@records', 'type@records', 'address', 'network', 'records', 'resources', 'routers',
    'destination_provider_ids', 'guardrail_ids', 'source_resource', 'destination_resource',
    'input_per_1k', 'output_per_1k', 'min_version',  # numbers and versions with rules of their own
    'jwt_groups_claim_name', 'dns_domain',  # texts whose change reconfigures the account's sign-in or DNS
    'peer_approval_enabled', 'user_approval_required',  # features the test servers refuse to turn on
    'peer_expose_enabled',  # on only with peer_expose_groups (v0.77.1: 422 "peer expose requires at least one group")
    'network_range', 'network_range_v6', 'auto_update_version',  # a new range moves every peer; a version has rules
    'nameserver_groups.primary',  # true only without domains (the test's group has some)
    'enabled@limits',  # an unset limit turned on needs a window (its other members are changed)
    'setup_keys.revoked',  # today's servers do not un-revoke a key (an export describes no revoked key)
}
CHOICES = {'action': ('accept', 'drop'), 'protocol': ('tcp', 'udp'), 'ns_type': ('udp',), 'role': ('admin', 'user')}


def _other(values, pool):
    """A list of names changed: one more from ``pool`` when there is one, else the last one removed."""
    extra = [name for name in pool if name not in values]
    return sorted(values + extra[:1]) if extra else values[:-1]


def changed(field, value, parent, pools):
    """A changed value of ``field`` (its value ``value`` in ``parent``), or None where there is none to make."""
    if field == 'bidirectional' and parent.get('protocol') in ('all', 'icmp'):
        return None  # always true with such a protocol
    if isinstance(value, bool):
        return not value
    if field == 'metric':
        return value - 1 if value > 1 else value + 1
    if field in ('ttl', 'port', 'access_log_retention_days', 'peer_login_expiration', 'peer_inactivity_expiration',
                 'window_seconds', 'group_cap_usd', 'user_cap_usd'):
        return value + 1
    if field == 'description':
        return (value + ' (changed by hand)').strip()
    if field in CHOICES:
        others = [choice for choice in CHOICES[field] if choice != value]
        return others[0] if others else None
    if field == 'ports':
        return None if parent.get('protocol') in ('all', 'icmp') else sorted(value + ['9999'])
    if field == 'domains':
        return sorted(value + ['changed-by-hand.example.com'])
    if field == 'peer':
        others = [name for name in pools['peers'] if name != value]
        return others[0] if others else None
    if field == 'peers':
        return _other(value, pools['peers'])
    if field == 'source_posture_checks':
        return _other(value, pools['posture_checks'])
    if field in ('groups', 'auto_groups', 'peer_groups', 'sources', 'destinations', 'access_groups', 'access_control_groups',
                 'distribution_groups', 'source_groups', 'target_groups', 'disabled_management_groups', 'jwt_allow_groups'):
        other = _other(value, pools['groups'])
        return other if other or field in ('auto_groups', 'access_groups', 'access_control_groups', 'groups@resources',
                                           'disabled_management_groups', 'jwt_allow_groups') else None
    return None


def fields_of(entry, nested_keys, prefix=()):
    """(path, field, value, holder) of every field an entry writes, into its dictionaries and the items of its lists
    of dictionaries (rules, nameservers...), the entries nested in it apart."""
    for key, value in entry.items():
        if not prefix and key in nested_keys:
            continue
        path = prefix + (key,)
        if isinstance(value, dict):
            yield from fields_of(value, (), path)
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            for index, item in enumerate(value):
                yield from fields_of(item, (), path + (index,))
        else:
            yield path, key, value, entry


def entries_of(exported):
    """(kind, section path, entry) of every entry of an export, the nested ones after their parent."""
    for kind, cls in SECTIONS:
        value = exported.get(kind)
        if value is None:
            continue
        if cls.singleton:
            yield kind, (kind,), value, ()
            continue
        nested = nested_sections(kind)
        for index, entry in enumerate(value):
            yield kind, (kind, index), entry, tuple(key for key, dummy in nested)
            for key, child in nested:
                for child_index, child_entry in enumerate(entry.get(key) or []):
                    yield child.section, (kind, index, key, child_index), child_entry, ()


def label(kind, entry):
    key = dict(ALL_SECTIONS)[kind].natural_key
    return (entry.get(key) or entry.get('name') or entry.get('network_id') or entry.get('domain') or entry.get('email')
            or ', '.join(entry.get('peer_groups') or []) or '')


def plan(exported):
    """[(kind, where, field path, new value)] of every field of the export a change is made for, and the fields
    none is made for ({kind.field})."""
    pools = dict(groups=sorted(group['name'] for group in exported.get('groups', [])),
                 posture_checks=sorted(check['name'] for check in exported.get('posture_checks', [])),
                 peers=sorted({peer for group in exported.get('groups', []) for peer in group.get('peers', [])}))
    planned, untouched = [], set()
    for kind, where, entry, nested_keys in entries_of(exported):
        for path, field, value, holder in fields_of(entry, nested_keys):
            scoped = '%s@%s' % (field, path[0]) if len(path) > 1 else field
            new = None
            if not {field, scoped, '%s.%s' % (kind, field)} & NOT_CHANGED:
                new = changed(scoped if scoped == 'groups@resources' else field, value, holder, pools)
            if new is None or new == value:
                untouched.add('%s.%s' % (kind, '.'.join(str(step) for step in path if not isinstance(step, int))))
            else:
                planned.append((kind, where, path, new, label(kind, entry)))
    return planned, untouched


def rounds(planned):
    """The changes in rounds: each entry's fields one per round."""
    per_entry = {}
    for change in planned:
        per_entry.setdefault(change[1], []).append(change)
    count = max((len(changes) for changes in per_entry.values()), default=0)
    return [[changes[number] for changes in per_entry.values() if number < len(changes)] for number in range(count)]


def with_change(description, where, path, value):
    target = description
    for step in where + path[:-1]:
        target = target[step]
    target[path[-1]] = value


def drift(run, exported, env=None):
    """The drift report's data for the export (network_state in check mode, as nms.overlay.drift_report runs it)."""
    result = run([{'name': 'drift', 'nms.overlay.network_state': exported}], check=True, diff=True, env=env)
    assert result.rc == 0, result['drift'].get('msg')
    return drift_report(result['drift'])


def sweep(run, exported, gather, env=None):
    """Every planned change in its round: made, reported as drift down to the field, undone by applying the export."""
    planned, untouched = plan(exported)
    made = 0
    for number, batch in enumerate(rounds(planned)):
        changed_description = copy.deepcopy(exported)
        for kind, where, path, value, name in batch:
            with_change(changed_description, where, path, value)
        by_hand = run([{'name': 'by hand', 'nms.overlay.network_state': changed_description}], env=env)
        assert by_hand.rc == 0, (number, by_hand['by hand'].get('msg'))
        report = drift(run, exported, env)
        assert report['drift'] is True, (number, batch)
        found = {}
        for change in report['changes']:
            found.setdefault((change['kind'], change['name']), []).extend(d['field'] for d in change['differences'])
        for kind, where, path, value, name in batch:
            fields = found.get((kind, name), []) or found.get((kind, ''), []) + found.get((kind, None), [])
            top = path[0]
            assert any(field == top or field.startswith(top + '[') or field.startswith(top + '.') for field in fields), (
                'a change of %s %s %s to %r is no drift: %s' % (kind, name, path, value, found))
        undone = run([{'name': 'undo', 'nms.overlay.network_state': exported}], env=env)
        assert undone.rc == 0 and undone['undo']['changed'] is True, undone['undo'].get('msg')
        made += len(batch)
    assert drift(run, exported, env)['drift'] is False
    assert gather() == exported
    return made, untouched


def _ids(values):
    return [value['id'] if isinstance(value, dict) else value for value in values or []]


def _policy_body(policy):
    """A policy as answered, made a PUT body (references as ids)."""
    body = dict(policy, source_posture_checks=_ids(policy.get('source_posture_checks')))
    body['rules'] = [dict(rule, **{side: _ids(rule[side]) for side in ('sources', 'destinations') if rule.get(side) is not None})
                     for rule in policy['rules']]
    return body


def change_by_hand(server):
    """The changes of issue 44, made with the API as in the dashboard, to the network test_export.description builds:
    a policy disabled, a rule switched to drop, a peer added to the group that had none. Returns {(kind, name):
    the differing field the drift report must name}."""
    policies = {policy['name']: policy for policy in server.ok('GET', '/policies')}
    disabled = _policy_body(policies['developers to servers'])
    disabled['enabled'] = False
    server.ok('PUT', '/policies/%s' % disabled['id'], disabled)
    dropping = _policy_body(policies['office to servers'])
    dropping['rules'][0]['action'] = 'drop'
    server.ok('PUT', '/policies/%s' % dropping['id'], dropping)
    office = next(group for group in server.ok('GET', '/groups') if group['name'] == 'office')
    assert not office.get('peers'), office
    peer = sorted(server.ok('GET', '/peers'), key=lambda item: item['name'])[0]
    server.ok('PUT', '/groups/%s' % office['id'], {'name': 'office', 'peers': [peer['id']]})
    return {('policies', 'developers to servers'): 'enabled', ('policies', 'office to servers'): 'rules[web].action',
            ('groups', 'office'): 'peers'}


def drift_of_changes_by_hand(run, server, exported_file, tmp_path, env=None):
    """The drift report (the playbook, with the exported file) names each change by hand; the file applied with
    build_network undoes them, and the report then finds no drift."""
    report = tmp_path / 'drift.json'
    extra_vars = {'nms_drift_description_file': str(exported_file), 'nms_drift_report_json': str(report),
                  'nms_drift_report_markdown': ''}
    clean = run([], playbook='nms.overlay.drift_report', env=env, extra_vars=extra_vars)
    assert clean.rc == 0, clean.text
    expected = change_by_hand(server)
    drifted = run([], playbook='nms.overlay.drift_report', env=env, extra_vars=extra_vars)
    assert drifted.rc == 2, drifted.text
    data = json.loads(report.read_text(encoding='utf-8'))
    assert data['drift'] is True, data
    found = {(change['kind'], change['name']): [d['field'] for d in change['differences']] for change in data['changes']}
    assert set(found) == set(expected), found
    for key, field in expected.items():
        assert field in found[key], (key, found)
    server.clear_log()
    undone = run([], playbook='nms.overlay.build_network', env=env, extra_vars=exported_file)
    assert undone.rc == 0, undone.text
    assert len(server.writes()) >= 3, server.writes()
    again = run([], playbook='nms.overlay.drift_report', env=env, extra_vars=extra_vars)
    assert again.rc == 0, again.text
