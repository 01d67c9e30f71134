# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Records of custom DNS zones on today's servers (the dns_record module and dns_record_info)."""

from __future__ import annotations

import ipaddress

from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._resolve import find_unique, kind_table
from ansible_collections.nms.overlay.plugins.module_utils._resource import Field, ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import ZONES_FEATURE, domain_problem
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import planned
from ansible_collections.nms.overlay.plugins.module_utils._resources.nameserver_group import ip_text

RECORD_TYPES = ('A', 'AAAA', 'CNAME')


def content_problem(record_type, content):
    """Why ``content`` cannot be the content of a record of ``record_type``, as a rule (None when it can, or when
    either is unknown)."""
    if record_type not in RECORD_TYPES or content in (None, ''):
        return None
    if record_type == 'CNAME':
        return domain_problem(content, example='www.example.com for a record of type CNAME')
    version = 4 if record_type == 'A' else 6
    try:
        if ipaddress.ip_address(str(content)).version == version:
            return None
    except ValueError:
        pass
    return "must be an IPv%d address for a record of type %s, not '%s'" % (version, record_type, content)


def _record_model():
    from ansible_collections.nms.overlay.plugins.module_utils._models_dns_zones import DnsRecordOptions
    return DnsRecordOptions


def zone_of(module, option='zone'):
    """The DNS zone the option ``option`` names (an id, a domain or a zone name; the zones are listed once per
    task); None for an unknown zone when the task deletes (nothing in it to delete), else a ResolveError."""
    if module.params.get('state') != 'absent':
        zone_id = module.resolver.to_id('dns_zones', module.params[option], option)
        return [item for item in module.resolver.items('dns_zones') if ref_id(item) == zone_id][0]
    dummy_path, what, names = kind_table()['dns_zones']
    return find_unique(module.resolver.items('dns_zones'), module.params[option], names, what, option)


def records_path(zone):
    return '/dns/zones/%s/records' % ref_id(zone)


class DnsRecordModule(ResourceModule):
    """A record of a zone, found by id, or by name, type and content (several A or AAAA records of one name and type
    coexist: round robin); a CNAME record, the only record of its name, by name and type."""

    what = 'DNS record'
    section = 'dns_records'
    nested_in = ('dns_zones', 'records', 'zone')  # network_state: a zone's entry lists them under records
    result_key = 'dns_record'
    requires = ZONES_FEATURE
    required_on_create = ('name', 'type', 'content', 'ttl')
    model = staticmethod(_record_model)
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._zone = None
        self._records = None

    def zone(self):
        """The task's zone, read once (None only when deleting from a zone that does not exist)."""
        if self._zone is None:
            self._zone = zone_of(self) or {}
        return self._zone or None

    @classmethod
    def list_path(cls, task):
        return records_path(zone_of(task))

    @property
    def path(self):
        return records_path(self.zone())  # the zone read once per task

    def list_items(self):
        """The zone's records, read once per task (finding the record and checking its neighbours share them)."""
        if planned(ref_id(self.zone())):
            return []  # a zone check mode only plans has no records yet
        if self._records is None:
            self._records = super().list_items()
        return self._records

    def find_again(self):
        self._records = None  # a fresh read: the list may predate a create
        return super().find_again()

    def content_identifies(self):
        """Whether the task's content is part of the record's identity: given, without replace_content, for a type
        of which one name may hold several records (not CNAME: a name with a CNAME record holds no other record)."""
        return (self.params.get('content') is not None and not self.params.get('replace_content')
                and self.params.get('type') != 'CNAME')

    def identity_text(self):
        if self.params.get('id'):
            text = super().identity_text()
        else:
            parts = ["name '%s'" % self.params.get('name')]
            if self.params.get('type'):
                parts.append('type %s' % self.params['type'])
            if self.content_identifies():
                parts.append("content '%s'" % ip_text(self.params['content']))
            text = parts[0] if len(parts) == 1 else '%s and %s' % (', '.join(parts[:-1]), parts[-1])
        return "%s in the DNS zone '%s'" % (text, self.params.get('zone'))

    def matches(self, item):
        wanted = self.params.get('type')
        if item.get('name') != self.params.get('name') or (wanted is not None and item.get('type') != wanted):
            return False
        return not self.content_identifies() or ip_text(item.get('content')) == ip_text(self.params['content'])

    def natural_key_is_unique(self):
        """Servers refuse a second record of one name, type and content (409): a concurrent create of the same
        record is reconciled from that answer, and records that share a name and type are no copies to converge."""
        return True

    def check_rename(self, obj, new_value):
        """Records may share a name (round robin): before_write checks the server's rules for records of one name."""

    def find(self):
        if self.zone() is None:
            return None
        if self.params.get('id'):
            return super().find()
        found = self.matching_items()
        content = self.params.get('content')
        if len(found) > 1 and content is not None:  # replace_content: the one with the content, else the one to change
            same = [item for item in found if ip_text(item.get('content')) == ip_text(content)]
            if not same:
                raise TaskError("%s matches %d DNS records (ids: %s), none with the content '%s'; give the id of the one "
                                "to change" % (self.identity_text(), len(found), self._ids(found), content))
            found = same
        if len(found) > 1:
            raise TaskError('%s matches %d DNS records (ids: %s); give the %s or the id to choose one'
                            % (self.identity_text(), len(found), self._ids(found),
                               'content' if self.params.get('type') else 'type, the content'))
        return found[0] if found else None

    @staticmethod
    def _ids(items):
        return ', '.join(sorted(ref_id(item) for item in items))

    def before_write(self, current_obj, state):
        """The merged record (an update may change the type or the content alone) must fit the server's rules, and
        those for the records of one name (refused at write time by the server, so predicted here, in check mode too)."""
        if state is None:
            return
        problem = content_problem(state.get('type'), state.get('content'))
        if problem:
            raise TaskError('option content: %s' % problem)
        domain = self.zone().get('domain')
        name = state.get('name')
        if domain and name and name != domain and not name.endswith('.' + domain):
            raise TaskError("option name: '%s' is not in the DNS zone '%s' (id %s): a record's name is the zone's "
                            "domain or ends with .%s" % (name, domain, ref_id(self.zone()), domain))
        self.check_neighbours(current_obj, state)

    def check_neighbours(self, current_obj, state):
        """Refuse what the server refuses among the records of one name: an identical record (same type and
        content), and a CNAME record beside any other record of its name."""
        own = ref_id(current_obj) if current_obj is not None else None
        others = [item for item in self.list_items() if isinstance(item, dict) and item.get('name') == state.get('name')
                  and ref_id(item) != own]
        where = "in the DNS zone '%s'" % self.zone().get('domain')
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
