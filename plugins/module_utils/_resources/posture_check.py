# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Posture checks (the posture_check module, posture_check_info and network_state)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._access import (
    CHECK_NAMES, PROCESS_PATHS, TODAY_CHECKS, merge_checks, normalise_checks, policies_using, posture_check_result,
)
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._kind import Field
from ansible_collections.nms.overlay.plugins.module_utils._resource import ResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._server import option_release, refused_release


CHECKS_OPTIONS = dict(
    nb_version_check=dict(type='dict', options=dict(min_version=dict(type='str', required=True))),
    os_version_check=dict(type='dict', options=dict(
        android=dict(type='dict', options=dict(min_version=dict(type='str', required=True))),
        darwin=dict(type='dict', options=dict(min_version=dict(type='str', required=True))),
        ios=dict(type='dict', options=dict(min_version=dict(type='str', required=True))),
        linux=dict(type='dict', options=dict(min_kernel_version=dict(type='str', required=True))),
        windows=dict(type='dict', options=dict(min_kernel_version=dict(type='str', required=True))),
    )),
    geo_location_check=dict(type='dict', options=dict(
        action=dict(type='str', required=True, choices=['allow', 'deny']),
        locations=dict(type='list', elements='dict', required=True, options=dict(
            country_code=dict(type='str', required=True),
            city_name=dict(type='str'),
        )),
    )),
    peer_network_range_check=dict(type='dict', options=dict(
        action=dict(type='str', required=True, choices=['allow', 'deny']),
        ranges=dict(type='list', elements='str', required=True),
    )),
    process_check=dict(type='dict', options=dict(
        processes=dict(type='list', elements='dict', required=True,
                       options={path: dict(type='str') for path in PROCESS_PATHS}),
    )),
)


class PostureCheckModule(ResourceModule):
    """A posture check, found by id or name; members of checks the user leaves out are kept."""

    path = '/posture-checks'
    what = 'posture check'
    kind = 'posture_checks'
    unique_names = True      # servers refuse a second posture check of a name on create (v0.27: 412, v0.77: 422)
    usage_checked = True     # a policy's source_posture_checks
    # a taken name: v0.27 answers 412 "posture check name should be unique", v0.77 422 "posture checks with name X
    # already exists"
    exists_answers = {409: None, 412: 'should be unique', 422: 'already exists'}
    model = 'access.PostureCheckOptions'
    fields = dict(
        name=Field(),
        description=Field(norm=lambda value: value or '', initial=''),
        checks=Field(dict(type='dict', options=CHECKS_OPTIONS), norm=normalise_checks),
    )
    options = dict(
        checks_mode=dict(type='str', choices=['merge', 'replace'], default='merge'),
    )
    required_one_of = (('id', 'name'),)
    required_on_create = ('name', 'checks')
    options_requiring = {'checks.%s' % name: 'v0.77' for name in TODAY_CHECKS}  # refused in check_server
    shape = staticmethod(posture_check_result)
    # checks the module does not know (a server's newer ones) are kept, unless the task replaces them all (merge_desired)
    item_fields = dict(checks=(CHECK_NAMES, None))

    def check_server(self):
        """The checks of today's servers (process_check) are refused by an older one before any write."""
        super().check_server()
        server = self.resolver.server
        given = [name for name in TODAY_CHECKS if (self.params.get('checks') or {}).get(name) is not None]
        refused = [(name, refused_release(server, option_release('checks.' + name, 'v0.77'))) for name in given]
        refused = [(name, release) for name, release in refused if release]
        if refused:
            raise TaskError('; '.join('option checks.%s: %s does not have it (servers have it from %s)'
                                      % (name, server.describe(), release) for name, release in refused))

    def merge_desired(self, current, desired):
        if self.params.get('checks_mode') == 'replace':
            self.item_fields = {}  # the task's checks replace them all, unknown ones too
        elif 'checks' in desired:
            desired['checks'] = merge_checks(current.get('checks'), desired['checks'])
        return desired

    def before_write(self, current_obj, state):
        """A deletion is refused while policies use the check (in their source_posture_checks), naming them."""
        if state is not None or self.usage_known:
            return
        check_id = ref_id(current_obj)
        users = policies_using(self.resolver.items('policies'), check_id)
        if users:
            raise TaskError("the posture check '%s' (id %s) is used by the %s %s; remove it from their "
                            "source_posture_checks first" % (
                                current_obj.get('name'), check_id, 'policy' if len(users) == 1 else 'policies',
                                ', '.join("'%s' (id %s)" % (p.get('name'), ref_id(p)) for p in users)))
