# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The engine's correction of a created object (plugins/module_utils/_resource.py ``created_correction``): a PUT of the
update body right after a create only where the task asks a ``created_as`` field otherwise than the created object
holds it; an answer that lacks the field, or holds null there, holds what servers create."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils._resource import created_correction


class CreatedRouter:
    """What created_correction asks of a task: a kind created enabled whatever its create asks."""

    created_as = {'enabled': True}

    @staticmethod
    def object_path(obj):
        return '/api/networks/n1/routers/%s' % obj['id']

    @staticmethod
    def update_body(state, obj):
        return dict(state)


@pytest.mark.parametrize('answer', [{'id': 'r1', 'enabled': True}, {'id': 'r1'}, {'id': 'r1', 'enabled': None}])
def test_a_router_asked_disabled_is_disabled_by_a_put_after_its_create(answer):
    state = {'peer': 'p1', 'enabled': False}
    steps = created_correction(CreatedRouter, None, state, answer)
    assert steps == [dict(method='PUT', path='/api/networks/n1/routers/r1', body=state, expect=dict(answer, enabled=False))]


@pytest.mark.parametrize('answer', [{'id': 'r1', 'enabled': True}, {'id': 'r1'}, {'id': 'r1', 'enabled': None}])
def test_a_router_asked_as_servers_create_it_gets_no_second_write(answer):
    assert created_correction(CreatedRouter, None, {'peer': 'p1', 'enabled': True}, answer) == []
    assert created_correction(CreatedRouter, None, {'peer': 'p1', 'enabled': None}, answer) == []  # not asked


def test_no_correction_after_an_update_or_for_a_kind_that_declares_none():
    state = {'peer': 'p1', 'enabled': False}
    assert created_correction(CreatedRouter, {'id': 'r1', 'enabled': True}, state, {'id': 'r1', 'enabled': True}) == []

    class Plain(CreatedRouter):
        created_as = {}

    assert created_correction(Plain, None, state, {'id': 'r1', 'enabled': True}) == []
