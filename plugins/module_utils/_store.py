# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one write seam: every POST, PUT and DELETE of a resource (the engine's creates, updates and deletions, its
strategies' actions and set-ups, follow-ups and memberships) leaves the collection through ``send``, and check mode's
plan of a write is told through ``planned``. tests/unit/test_architecture.py holds every other file to it."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import ApiError


def send(task, method, path, body=None):
    """Send one write of the task (``method`` POST, PUT or DELETE) and return the server's answer (through the
    client's method of that name, which a test's fake server answers as well)."""
    call = getattr(task.client, method.lower())
    return call(path) if body is None else call(path, body)


def planned(task, method=None, path=None, body=None, step=None):
    """A write check mode plans and does not send, told to a client that renders what a plan would send (network_state's
    state=rendered, _rendered.OfflineAccount; no other client is told). Returns True, to read as the condition of check
    mode's branch (called in check mode only: a run makes no call more). ``step``: a follow-up (see
    ResourceModule.follow), a membership step's delta (see _members) being the member list the server holds right
    then, with it applied."""
    render = getattr(task.client, 'render_planned_write', None)
    if render is None:
        return True
    member = (step or {}).get('member')
    if step is not None:
        method, path, body = step.get('method', 'PUT'), step.get('path') or member['path'], step.get('body')
    render(task, method, path, body, member)
    return True


def put_object(task, obj, body):
    """PUT ``body`` (the whole object, see Kind.update_body) to the object ``obj``: the object as the server answers
    it, or as the body leaves it when the answer is empty; in check mode the write is planned, not sent, and the
    kind's prediction returned."""
    path = task.object_path(obj)
    if task.module.check_mode and planned(task, 'PUT', path, body):
        return task.predict(dict(obj, **body), obj)
    answer = send(task, 'PUT', path, body)
    return answer if isinstance(answer, dict) and answer else dict(obj, **body)


def delete_path(task, path):
    """DELETE the object at ``path``. A 404 is the goal reached: a retried DELETE whose first answer was lost finds it
    gone. (Check mode plans a deletion before it gets here: see ResourceModule.absent.)"""
    try:
        send(task, 'DELETE', path)
    except ApiError as exc:
        if exc.status != 404:
            raise
