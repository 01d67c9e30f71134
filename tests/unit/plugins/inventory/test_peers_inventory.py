# -*- coding: utf-8 -*-
"""Unit tests of the peers inventory plugin's pure parts (naming, groups, filters)."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.inventory.peers import InventoryModule

PEER = {'id': 'p1', 'name': 'Web 1', 'dns_label': 'web-1.netbird.selfhosted', 'ip': '100.64.0.10',
        'connection_ip': '<nil>', 'connected': True,
        'groups': [{'id': 'gall', 'name': 'All'}, {'id': 'g1', 'name': 'web servers'}, {'id': 'g2', 'name': 'db-prod'}]}


class Display:
    def __init__(self):
        self.warnings = []

    def warning(self, message):
        self.warnings.append(message)


def plugin(**options):
    values = dict(hostname_source='dns_label', ansible_host_source='ip', group_prefix='', include_all_group=True,
                  connected_only=False, include_groups=None, exclude_groups=None)
    values.update(options)
    instance = InventoryModule()
    instance.get_option = values.get
    instance.display = Display()
    return instance


def test_verify_file_needs_the_nms_suffix(tmp_path):
    good = tmp_path / 'prod.nms.yml'
    good.write_text('plugin: nms.overlay.peers\n')
    other = tmp_path / 'prod.yml'
    other.write_text('plugin: nms.overlay.peers\n')
    assert InventoryModule().verify_file(str(good))
    assert not InventoryModule().verify_file(str(other))


def test_host_names_and_duplicates():
    inv = plugin()
    taken = set()
    assert inv.host_name(PEER, taken) == 'web-1.netbird.selfhosted'
    assert inv.host_name(dict(PEER, id='p2'), taken) == 'web-1.netbird.selfhosted_p2'
    assert "several peers are called 'web-1.netbird.selfhosted'" in inv.display.warnings[0]
    assert plugin(hostname_source='name').host_name(PEER, set()) == 'Web 1'
    assert plugin(hostname_source='name').host_name(dict(PEER, name=''), set()) == 'web-1.netbird.selfhosted'


def test_group_names_are_safe_and_prefixed():
    assert plugin().group_names(PEER) == ['All', 'web_servers', 'db_prod']
    assert plugin(group_prefix='nms_', include_all_group=False).group_names(PEER) == ['nms_web_servers', 'nms_db_prod']
    assert plugin().group_names(dict(PEER, groups=None)) == []


def test_addresses():
    assert plugin().address(dict(PEER, ip='100.64.0.10/16')) == '100.64.0.10'
    assert plugin(ansible_host_source='connection_ip').address(PEER) is None
    assert plugin(ansible_host_source='connection_ip').address(dict(PEER, connection_ip='203.0.113.7')) == '203.0.113.7'


@pytest.mark.parametrize('options, kept', [
    ({}, True),
    ({'connected_only': True}, True),
    ({'include_groups': ['g1']}, True),
    ({'include_groups': ['nope']}, False),
    ({'exclude_groups': ['db-prod']}, False),
])
def test_filters(options, kept):
    assert plugin(**options).keep(PEER) is kept
    assert plugin(connected_only=True).keep(dict(PEER, connected=False)) is False
