# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
name: drift_report
short_description: What a network description would change, from a check-mode run of network_state
version_added: 1.0.0
author:
  - nms.overlay contributors (@nms-overlay)
description:
  - Turns the result of M(nms.overlay.network_state) run in check mode into a drift report, the data the playbook
    C(nms.overlay.drift_report) writes as JSON and renders as Markdown.
  - There is drift when the run would change anything (RV(_value.drift)). Each change keeps what network_state returns
    (C(kind), C(name), C(action), C(pruned), C(id) of an object that exists) and gets RV(_value.changes[].differences),
    the fields whose values differ, one item per field. A list of dictionaries that all carry a distinct C(name) is
    compared item by item by that name (C(rules[ssh].ports)), another list of dictionaries item by item by position
    (C(nameservers[0].ip)), any other value as a whole.
  - The changes (and their diffs, kept in RV(_value.diff), one per change) are sorted by kind, in the order
    network_state applies them, then by action, name and id, so the same drift gives the same report whatever order
    the server lists its objects in. Nothing in the report changes from one run to the next unless the network or
    the description does (no time, unless O(generated_at) is given).
  - When network_state worked out who gains and who loses reach (its RV(nms.overlay.network_state#module:reach_changes)),
    RV(_value.reach) lists it, peer by peer, and the message says how many peers gain or lose reach; its diff of the
    peers' reach is left out of RV(_value.diff).
  - Values of fields that hold secrets (C(key), C(plain_token), C(password), C(invite_token)) are replaced by
    C((hidden)), should a diff ever carry one.
options:
  _input:
    description:
      - The registered result of M(nms.overlay.network_state) run with C(check_mode=true), with RV(nms.overlay.network_state#module:changes),
        C(diff) and RV(nms.overlay.network_state#module:summary).
      - Ignored (may be empty) when O(error) is given.
    type: dict
    required: true
  server:
    description:
      - The URL of the management API the description was compared with, for the report. A user name, password, query or
        fragment in it is left out.
    type: str
    default: ''
  prune:
    description: Whether the run pruned (objects the description does not name count as drift), for the report.
    type: bool
    default: false
  error:
    description:
      - Why the comparison could not be made. The report then says so, with RV(_value.drift) null (whether the network
        drifted is not known).
    type: str
  generated_at:
    description: A time to put in the report (RV(_value.generated_at)); left out by default, so that an unchanged network gives an identical report.
    type: str
seealso:
  - module: nms.overlay.network_state
'''

EXAMPLES = r'''
- name: Compare the network with its description, writing nothing
  nms.overlay.network_state:
    groups:
      - name: office
      - name: servers
  check_mode: true
  diff: true
  register: preview

- name: Fail when the network drifted, naming what would change
  ansible.builtin.assert:
    that: not report.drift
    fail_msg: "{{ report.message }}"
  vars:
    report: "{{ preview | nms.overlay.drift_report(server=lookup('ansible.builtin.env', 'NMS_API_URL')) }}"

- name: Write the report as JSON
  ansible.builtin.copy:
    content: "{{ preview | nms.overlay.drift_report | to_nice_json }}"
    dest: drift.json
    mode: "0644"
'''

RETURN = r'''
_value:
  description: The drift report.
  type: dict
  contains:
    drift:
      description: Whether the network differs from its description; null when O(error) is given (not known).
      type: bool
    error:
      description: O(error), or null.
      type: str
    server:
      description: O(server) without credentials, query or fragment.
      type: str
    prune:
      description: O(prune).
      type: bool
    changes_count:
      description: How many resources would change.
      type: int
    kinds:
      description: The kinds with a change, in the order of RV(_value.changes).
      type: list
      elements: str
    totals:
      description: How many resources would be created, updated, deleted and revoked (setup keys on a v0.27 server), over every kind.
      type: dict
      contains:
        would_create:
          description: Resources that would be created.
          type: int
        would_update:
          description: Resources that would be updated.
          type: int
        would_delete:
          description: Resources that would be deleted.
          type: int
        would_revoke:
          description: Setup keys that would be revoked.
          type: int
    summary:
      description:
        - RV(nms.overlay.network_state#module:summary) in check mode, for every kind the description has, with
          C(would_create), C(would_update), C(would_delete), C(unchanged) (and C(would_revoke) for setup keys), the kinds in
          the order network_state applies them.
      type: dict
    changes:
      description: RV(nms.overlay.network_state#module:changes), sorted, each with its differences.
      type: list
      elements: dict
      contains:
        kind:
          description: The description key of the resource (V(groups), V(policies), V(network_resources), ...).
          type: str
        name:
          description: Its name (a route's network id, a user's email, ...).
          type: str
        action:
          description: V(created), V(updated), V(deleted) or V(revoked), what a run of the description would do.
          type: str
        pruned:
          description: Whether it would be deleted because the description does not name it (prune).
          type: bool
        id:
          description: Id of the object on the server; left out for an object that would be created.
          type: str
          returned: when the object exists
        default_policy:
          description: Present (V(true)) when the change is the account's allow-all policy that C(default_policy) handles.
          type: bool
          returned: when it is
        differences:
          description:
            - The fields that differ. C(before) is left out when the field is not on the server (a resource to create),
              C(after) when the description would remove it (a resource to delete).
          type: list
          elements: dict
          contains:
            field:
              description: Path of the field, C(description), C(rules[ssh].ports), C(checks.nb_version_check.min_version).
              type: str
            before:
              description: Its value on the server.
              type: raw
            after:
              description: Its value once the description is applied.
              type: raw
    diff:
      description:
        - C(diff) in the order of RV(_value.changes) (one per change), each with
          C(before_header), C(after_header), C(before) and C(after).
      type: list
      elements: dict
    reach:
      description:
        - Who would gain and who would lose reach once the description is applied, the items of
          RV(nms.overlay.network_state#module:reach_changes) (C(line), C(peer), C(change), C(kind), C(target), C(address),
          C(text), C(traffic), C(before), C(after), C(posture_checks); C(peer_id) and C(target_id) but for an object check
          mode only plans), in its order.
        - An empty list when no peer's reach would change; null when it was not worked out (network_state run with
          C(reach=false), more peers than its C(reach_peer_limit), or O(error) given).
      type: list
      elements: dict
    message:
      description:
        - >-
          One line for people, for example V(Drift: 2 changes, in groups \(would delete 1: old\) and policies \(would
          update 1: ssh\)); C(No drift) when nothing would change; when O(error) is given, that the comparison could not be made.
      type: str
    generated_at:
      description: O(generated_at).
      type: str
      returned: when O(generated_at) is given
'''

import urllib.parse

from ansible.errors import AnsibleError
from ansible.utils.unsafe_proxy import wrap_var

# the kinds in the order network_state applies them (tests/unit/test_drift_report.py keeps it equal to the module's)
KIND_ORDER = ('groups', 'posture_checks', 'networks', 'network_resources', 'network_routers', 'policies', 'routes',
              'nameserver_groups', 'dns_settings', 'dns_zones', 'dns_records', 'setup_keys', 'users', 'account_settings',
              'identity_providers', 'reverse_proxy_domains', 'reverse_proxy_services', 'agent_network_settings',
              'agent_network_providers', 'agent_network_guardrails', 'agent_network_policies', 'agent_network_budget_rules')
ACTIONS = ('created', 'updated', 'deleted', 'revoked')
VERBS = dict(created='would create', updated='would update', deleted='would delete', revoked='would revoke')
SECRET_FIELDS = frozenset(('key', 'plain_token', 'password', 'invite_token', 'api_key', 'client_secret', 'pin'))
HIDDEN = '(hidden)'
NAMES_IN_MESSAGE = 3
MISSING = object()


def _is_list(value):
    return isinstance(value, (list, tuple))


def _text(value):
    return '' if value is None else str(value)


def bare_url(url):
    """The URL without user name, password, query or fragment."""
    text = _text(url).strip()
    if not text:
        return ''
    try:
        parts = urllib.parse.urlsplit(text)
        host = parts.hostname or ''
        port = parts.port
    except ValueError:
        return '(unreadable URL)'
    if not parts.scheme or not host:
        return text.split('?', 1)[0].split('#', 1)[0].rsplit('@', 1)[-1]
    if ':' in host:
        host = '[%s]' % host
    return urllib.parse.urlunsplit((parts.scheme, host + ('' if port is None else ':%d' % port), parts.path, '', ''))


def _hide_secrets(value):
    """A copy of the value (plain dictionaries and lists) with the values of secret fields replaced, at any depth."""
    if isinstance(value, dict):
        return {key: (HIDDEN if key in SECRET_FIELDS and value[key] not in (None, '') else _hide_secrets(item))
                for key, item in value.items()}
    if _is_list(value):
        return [_hide_secrets(item) for item in value]
    return value


def _named_items(items):
    """{name: item} when every item is a dictionary with a distinct, non-empty name; else None."""
    named = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get('name'), str) or not item['name'] or item['name'] in named:
            return None
        named[item['name']] = item
    return named


def _dict_side(value, other):
    """The value to compare key by key: a dictionary, or {} for a missing side whose other side is a dictionary."""
    return {} if value is MISSING and isinstance(other, dict) and other else value


def _items_side(value, other):
    """The value to compare item by item: a list of dictionaries, or [] for a missing or empty side whose other side is one."""
    def items(candidate):
        return _is_list(candidate) and len(candidate) > 0 and all(isinstance(item, dict) for item in candidate)
    if items(value):
        return list(value)
    if (value is MISSING or (_is_list(value) and not value)) and items(other):
        return []
    return None


def differences(before, after, path=''):
    """The fields that differ between two values, as [{field, before, after}] (a side left out where the field is
    missing): dictionaries key by key, lists of dictionaries item by item, anything else as a whole. A missing side is
    compared as an empty dictionary (or list) with the other, so that what is created or deleted shows field by field."""
    old_dict, new_dict = _dict_side(before, after), _dict_side(after, before)
    if isinstance(old_dict, dict) and isinstance(new_dict, dict):
        found = []
        for key in list(old_dict) + [key for key in new_dict if key not in old_dict]:
            found.extend(differences(old_dict.get(key, MISSING), new_dict.get(key, MISSING), '%s.%s' % (path, key) if path else str(key)))
        return found
    old_items, new_items = _items_side(before, after), _items_side(after, before)
    if old_items is not None and new_items is not None:
        old, new = _named_items(old_items), _named_items(new_items)
        if old is not None and new is not None:
            keys = list(old) + [name for name in new if name not in old]
            pairs = [(name, old.get(name, MISSING), new.get(name, MISSING)) for name in keys]
        else:
            pairs = [(index, old_items[index] if index < len(old_items) else MISSING,
                      new_items[index] if index < len(new_items) else MISSING)
                     for index in range(max(len(old_items), len(new_items)))]
        found = []
        for key, old_item, new_item in pairs:
            found.extend(differences(old_item, new_item, '%s[%s]' % (path, key)))
        return found
    if (before is MISSING and after is MISSING) or before == after:
        return []
    difference = dict(field=path or '(value)')
    if before is not MISSING:
        difference['before'] = before
    if after is not MISSING:
        difference['after'] = after
    return [difference]


def _kind_rank(kind):
    return KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER)


def _change_order(pair):
    change = pair[0]
    action = change.get('action')
    return (_kind_rank(change.get('kind')), _text(change.get('kind')), ACTIONS.index(action) if action in ACTIONS else len(ACTIONS),
            _text(change.get('name')), _text(change.get('id')))


def _plural(count, word):
    return '%d %s%s' % (count, word, '' if count == 1 else 's')


def _reach_text(reach):
    """'; reach: laptop-ana loses db-1 tcp 5432, ... (2 peers, 4 in all)', or '' when no reach changes."""
    if not reach:
        return ''
    lines = [_text(item.get('line')) for item in reach]
    shown = ', '.join(lines[:NAMES_IN_MESSAGE]) + (', ...' if len(lines) > NAMES_IN_MESSAGE else '')
    return '; reach: %s (%s, %d in all)' % (shown, _plural(len({_text(item.get('peer')) for item in reach}), 'peer'), len(lines))


def _reach(result, changes, diffs):
    """(the reach changes, or None when not worked out; the diffs without the one of the peers' reach)."""
    reach = result.get('reach_changes')
    if not isinstance(reach, list):
        return None, diffs
    if reach and len(diffs) == len(changes) + 1:
        diffs = list(diffs)[:-1]  # network_state's last diff is the reach of the peers (a plain list: slicing Ansible's lazy one fails)
    items = []
    for item in reach:
        item = _hide_secrets(item) if isinstance(item, dict) else {}  # a plain copy at any depth, as wrap_var wants
        for key in ('peer_id', 'target_id'):
            if _text(item.get(key)).startswith('(new '):
                del item[key]
        items.append(item)
    return items, diffs


def _message(changes, kinds):
    if not changes:
        return 'No drift: the network is as described'
    parts = []
    for kind in kinds:
        actions = []
        for action in ACTIONS:
            names = [_text(change['name']) for change in changes if change['kind'] == kind and change['action'] == action]
            if names:
                shown = ', '.join(names[:NAMES_IN_MESSAGE]) + (', ...' if len(names) > NAMES_IN_MESSAGE else '')
                actions.append('%s %d: %s' % (VERBS[action], len(names), shown))
        parts.append('%s (%s)' % (kind, '; '.join(actions)))
    listed = parts[0] if len(parts) == 1 else ', '.join(parts[:-1]) + ' and ' + parts[-1]
    return 'Drift: %s, in %s' % (_plural(len(changes), 'change'), listed)


def drift_report(result, server='', prune=False, error=None, generated_at=None):
    """The report described in DOCUMENTATION, as plain data (strings wrapped so that they are never templated)."""
    base = dict(server=bare_url(server), prune=bool(prune))
    if generated_at:
        base['generated_at'] = _text(generated_at)
    if error is not None and _text(error):
        return wrap_var(dict(base, drift=None, error=_text(error), changes_count=0, kinds=[], summary={}, reach=None,
                             totals={'would_' + VERBS[action].split()[-1]: 0 for action in ACTIONS}, changes=[], diff=[],
                             message='The comparison could not be made, so whether the network drifted is not known: %s'
                             % _text(error).strip().rstrip('.')))
    if not isinstance(result, dict):
        raise AnsibleError('drift_report: the input must be the registered result of nms.overlay.network_state, not %s'
                           % type(result).__name__)
    if result.get('failed'):
        raise AnsibleError('drift_report: network_state failed (%s); give the reason as error=' % _text(result.get('msg')))
    changes = result.get('changes') or []
    diffs = result.get('diff') or []
    if not isinstance(changes, list) or not isinstance(diffs, list):
        raise AnsibleError('drift_report: changes and diff of the network_state result must be lists')
    reach, diffs = _reach(result, changes, diffs)
    if diffs and len(diffs) != len(changes):
        raise AnsibleError('drift_report: network_state returned %d changes but %d diffs; run it with check_mode '
                           'and without no_log' % (len(changes), len(diffs)))
    pairs = [(change, diffs[index] if diffs else {}) for index, change in enumerate(changes)]
    pairs.sort(key=_change_order)
    reported, kept_diffs = [], []
    for change, diff in pairs:
        diff = _hide_secrets(diff if isinstance(diff, dict) else {})  # a plain copy: the input is never changed
        entry = {key: value for key, value in change.items() if key in ('kind', 'name', 'action', 'pruned', 'id', 'default_policy')}
        if _text(entry.get('id')).startswith('(new '):
            del entry['id']  # the placeholder of an object check mode only plans
        entry['differences'] = differences(diff.get('before') or {}, diff.get('after') or {})
        reported.append(entry)
        kept_diffs.append(diff)
    kinds = []
    for entry in reported:
        if entry['kind'] not in kinds:
            kinds.append(entry['kind'])
    summary = result.get('summary') or {}
    ordered_summary = {kind: dict(summary[kind]) for kind in sorted(summary, key=lambda kind: (_kind_rank(kind), kind))}
    totals = {}
    for action in ACTIONS:
        totals['would_' + VERBS[action].split()[-1]] = sum(1 for entry in reported if entry['action'] == action)
    return wrap_var(dict(base, drift=bool(reported), error=None, changes_count=len(reported), kinds=kinds, summary=ordered_summary,
                         totals=totals, changes=reported, diff=kept_diffs, reach=reach,
                         message=_message(reported, kinds) + _reach_text(reach)))


class FilterModule:
    """nms.overlay's drift report filter."""

    def filters(self):
        return {'drift_report': drift_report}
