# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Records of custom DNS zones on today's servers (the dns_record module and dns_record_info)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._compare import ip_text, ref_id
from ansible_collections.nms.overlay.plugins.module_utils._dns import RECORD_TYPES, content_problem
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import find_unique
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field, planned
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import ZONES_FEATURE, DnsZoneModule
from ansible_collections.nms.overlay.plugins.module_utils._tables import RESOLVER_TABLE


def zone_of(module, option='zone'):
    """The DNS zone the option ``option`` names (an id, a domain or a zone name; the zones are listed once per
    task); None for an unknown zone when the task deletes (nothing in it to delete), else a ResolveError."""
    if module.params.get('state') != 'absent':
        zone_id = module.resolver.to_id('dns_zones', module.params[option], option)
        return [item for item in module.resolver.items('dns_zones') if ref_id(item) == zone_id][0]
    dummy_path, what, names = RESOLVER_TABLE['dns_zones']
    return find_unique(module.resolver.items('dns_zones'), module.params[option], names, what, option)


def records_path(zone):
    """The path of a zone's records; None under a zone check mode only plans (it has no records yet)."""
    return None if planned(ref_id(zone)) else '%s/%s%s' % (DnsZoneModule.path, ref_id(zone), DnsRecordModule.sub_path)


def record_zone(task):
    """The task's zone, read once (None only when deleting from a zone that does not exist)."""
    if task._zone is None:
        task._zone = zone_of(task) or {}
    return task._zone or None


def content_identifies(task):
    """Whether the task's content is part of the record's identity: given, without replace_content, for a type of
    which one name may hold several records (not CNAME: a name with a CNAME record holds no other record)."""
    return (task.params.get('content') is not None and not task.params.get('replace_content')
            and task.params.get('type') != 'CNAME')


def record_ids(items):
    return ', '.join(sorted(ref_id(item) for item in items))


def check_neighbours(task, current_obj, state):
    """Refuse what the server refuses among the records of one name: an identical record (same type and content),
    and a CNAME record beside any other record of its name."""
    own = ref_id(current_obj) if current_obj is not None else None
    others = [item for item in task.list_items() if isinstance(item, dict) and item.get('name') == state.get('name')
              and ref_id(item) != own]
    where = "in the DNS zone '%s'" % record_zone(task).get('domain')
    for item in others:
        if item.get('type') == state.get('type') and ip_text(item.get('content')) == ip_text(state.get('content')):
            raise TaskError("option content: the record %s %s '%s' (id %s) exists already %s; a name, type and "
                            "content make one record" % (item.get('name'), item.get('type'), item.get('content'),
                                                         ref_id(item), where))
    clash = [item for item in others if 'CNAME' in (item.get('type'), state.get('type'))]
    if clash:
        raise TaskError("option type: '%s' has %s %s (%s), and a name with a CNAME record holds no other record; "
                        "delete %s first" % (
                            state.get('name'), 'a record' if len(clash) == 1 else '%d records' % len(clash), where,
                            '; '.join('%s %s, id %s' % (item.get('type'), item.get('content'), ref_id(item))
                                      for item in sorted(clash, key=lambda item: (str(item.get('type')), str(item.get('content')), ref_id(item)))),
                            'it' if len(clash) == 1 else 'them'))


class DnsRecordModule(ResourceModule):
    """A record of a zone, found by id, or by name, type and content (several A or AAAA records of one name and type
    coexist: round robin); a CNAME record, the only record of its name, by name and type."""

    what = 'DNS record'
    sub_path = '/records'      # under its zone (see records_path)
    section = 'dns_records'
    nested_in = ('dns_zones', 'records', 'zone')  # network_state: a zone's entry lists them under records
    requires = ZONES_FEATURE
    required_on_create = ('name', 'type', 'content', 'ttl')
    model = 'dns_zones.DnsRecordOptions'
    fields = dict(
        name=Field(),
        type=Field(dict(type='str', choices=list(RECORD_TYPES))),
        # an address compares by value (2001:DB8::1 is 2001:db8::1); a CNAME target as written
        content=Field(norm=ip_text),
        ttl=Field('int'),
    )
    options = dict(
        zone=dict(type='str', required=True),
        replace_content=dict(type='bool', default=False),
    )
    required_one_of = (('id', 'name'),)
    # servers refuse a second record of one name, type and content (409): a concurrent create of the same record is
    # reconciled from that answer, and records that share a name and type are no copies to converge
    unique_names = True
    rename_checked = False    # records may share a name (round robin): before_write checks the rules for one name
    cache_list = True         # finding the record and checking its neighbours share the zone's records
    task_state = dict(_zone=None)  # see record_zone

    @classmethod
    def list_path(cls, task):
        return records_path(zone_of(task))

    @property
    def path(self):
        return records_path(record_zone(self))  # the zone read once per task

    def without_parent(self):
        return record_zone(self) is None

    def identity_text(self):
        if self.params.get('id'):
            text = super().identity_text()
        else:
            parts = ["name '%s'" % self.params.get('name')]
            if self.params.get('type'):
                parts.append('type %s' % self.params['type'])
            if content_identifies(self):
                parts.append("content '%s'" % ip_text(self.params['content']))
            text = parts[0] if len(parts) == 1 else '%s and %s' % (', '.join(parts[:-1]), parts[-1])
        return "%s in the DNS zone '%s'" % (text, self.params.get('zone'))

    def matches(self, item):
        wanted = self.params.get('type')
        if item.get('name') != self.params.get('name') or (wanted is not None and item.get('type') != wanted):
            return False
        return not content_identifies(self) or ip_text(item.get('content')) == ip_text(self.params['content'])

    def choose(self, found):
        content = self.params.get('content')
        if len(found) > 1 and content is not None:  # replace_content: the one with the content, else the one to change
            same = [item for item in found if ip_text(item.get('content')) == ip_text(content)]
            if not same:
                raise TaskError("%s matches %d DNS records (ids: %s), none with the content '%s'; give the id of the one "
                                "to change" % (self.identity_text(), len(found), record_ids(found), content))
            found = same
        if len(found) > 1:
            raise TaskError('%s matches %d DNS records (ids: %s); give the %s or the id to choose one'
                            % (self.identity_text(), len(found), record_ids(found),
                               'content' if self.params.get('type') else 'type, the content'))
        return found[0] if found else None

    def before_write(self, current_obj, state):
        """The merged record (an update may change the type or the content alone) must fit the server's rules, and
        those for the records of one name (refused at write time by the server, so predicted here, in check mode too)."""
        if state is None:
            return
        problem = content_problem(state.get('type'), state.get('content'))
        if problem:
            raise TaskError('option content: %s' % problem)
        zone = record_zone(self)
        domain = zone.get('domain')
        name = state.get('name')
        if domain and name and name != domain and not name.endswith('.' + domain):
            raise TaskError("option name: '%s' is not in the DNS zone '%s' (id %s): a record's name is the zone's "
                            "domain or ends with .%s" % (name, domain, ref_id(zone), domain))
        check_neighbours(self, current_obj, state)
