# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How the engine sends a create: never twice, read back when its answer is lost, and converged with the copies
concurrent runs made of a natural key servers do not keep unique (the converging-creates strategy)."""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._client import RATE_LIMIT_FIRST_WAIT, RATE_LIMIT_PATIENCE, ApiError, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._compare import ref_id
from ansible_collections.nms.overlay.plugins.module_utils._kind import Kind
from ansible_collections.nms.overlay.plugins.module_utils._store import MAX_SETTLE, send

# at most this many seconds to wait for a concurrent run's write to land before reading back (see converge)
# a failed create may be sent again once a read proves it absent when the server did not act on it (429) or it is
# unknown whether it did (no answer, a gateway or server error)
REPEATABLE_CREATE = (None, 429, 500, 502, 503, 504)


def exists_answer(answers, exc):
    """Whether a write's error is one of ``answers`` ({status: words of the message, or None for any}): the server
    says that what it would make exists already (another run made it since this task read)."""
    words = (answers or {}).get(exc.status, False)
    return words is None or (words is not False and words.lower() in (exc.message or '').lower())


def settle_window(started):
    """How long to wait, after a create at this moment, for the copies of concurrent runs to land before listing again:
    a run whose list came before our create makes its copy about as long after its list as we did (the time since
    ``started``, when this task began, before its list), so twice that, at most MAX_SETTLE s."""
    return max(min(2 * (_time.CLOCK.monotonic() - started), MAX_SETTLE), 0.0)


class Settling:
    """The creates of a run that makes many (network_state), converged together: each create of a natural key servers
    do not keep unique joins (``defer``) instead of waiting for itself; ``settle``, after the last create that a later
    kind allows (one that names a converging kind runs after they settled), waits once as long as that create's own
    converge would (the window from the earliest task's start), lists each kind once and converges each create on that
    list as its own converge would. Each create then had at least the window its own converge gives it (those before
    the last one more), so the run is as safe against concurrent runs, at the cost of one wait per run (where no kind
    names another that converges) and one list per kind, instead of one of each per object."""

    def __init__(self):
        self.pending = []  # (task, created object) in the order of the creates

    def defer(self, task, created):
        self.pending.append((task, created))

    def waits_for(self, kinds):
        """Whether a create of one of ``kinds`` (None: any kind) still converges."""
        return any(kinds is None or task.kind in kinds for task, dummy in self.pending)

    def kinds_of(self, held):
        """The kinds converging, in the order of their creates (else those of ``held``, [(entry, result)]), to name them."""
        return list(dict.fromkeys([task.kind for task, dummy in self.pending] or [entry.kind for entry, dummy in held]))

    def settle(self):
        """Converge every deferred create; returns [(task, the object kept when it is another run's copy, else None)],
        ours discarded where another copy is kept (the caller reconciles the task with it)."""
        pending, self.pending = self.pending, []
        if not pending:
            return []
        _time.CLOCK.sleep(settle_window(min(task.started for task, dummy in pending)))
        for kind in {task.kind for task, dummy in pending}:
            pending[0][0].resolver.forget(kind)  # the run's tasks share one resolver: each kind is listed once
        return [(task, kept_copy(task, created)) for task, created in pending]


class CreateOnce(Kind):
    """The create protocol of the engine (ResourceModule runs it from ``create``; ``find`` and ``delete`` are the
    engine's); ``replacing``, ``read_back``, ``read_absent``, ``unreadable_answer``, ``started`` and ``listed`` its
    attributes of the task."""

    def post_once(self, body):
        """Create, never twice: after a failed create that the server may not have applied (429, 5xx, no answer), read
        the list again; only when that read proves it absent is the create sent again, after the wait the server
        asked for (Retry-After) or a backoff. A success answer that cannot be read (cut off, not JSON) means the
        server made it: it is read back, never sent again (``read_back`` says why a create was read back). Returns
        the created object, or None when someone else created it first (an "already exists" answer)."""
        attempts = max(int(self.params.get('retries') or 0), 0) + 1
        attempt = tries = limited = 0  # a 429 (a rate limit) is waited out, not a retry, for RATE_LIMIT_PATIENCE at most
        while attempt < attempts:
            tries += 1
            attempt += 1
            self.read_back = self.unreadable_answer = None
            self.read_absent = False  # until a read after a failed create finds nothing (one that fails leaves it so)
            try:
                created = send(self, 'POST', self.path, body)
            except ApiError as exc:
                applied = exc.status is not None and 200 <= exc.status < 300
                exists = exists_answer(self.exists_answers, exc)
                if not exists and not applied and exc.status not in REPEATABLE_CREATE:
                    raise
                self.read_back, self.unreadable_answer = ('unreadable', exc) if applied else ('lost', None)
                found = self.find(fresh=True)
                self.read_absent = found is None
                if found is not None:
                    return None if exists else found  # theirs to reconcile with, or ours, made by this create
                limit = exc.status == 429 and limited < RATE_LIMIT_PATIENCE
                if exists or applied or (attempt == attempts and not limit):
                    raise
                waited = self.client.pause(tries, exc.retry_after, cause=exc)
                if limit:
                    attempt -= 1  # waited out, not a retry
                    limited += max(waited or 0, RATE_LIMIT_FIRST_WAIT)
                continue
            if isinstance(created, dict) and created:
                return created
            self.read_back = 'empty'
            found = self.find(fresh=True)
            if found is None:
                raise self.client.answer_error('POST', self.path, 'the answer is %s, not the created %s, and a read finds no %s with %s' % (
                    'empty' if created in ({}, None, '') else describe_shape(created), self.what, self.what, self.identity_text()))
            return found
        return None  # not reached: the loop returns or raises

    def converge(self, created):
        """After a create of a natural key servers do not keep unique, list again once a concurrent run's window has
        likely passed (see settle_window): when other runs created the same at the same time, all keep the one with the
        lowest id (the others leave the run's lists). Returns None when that is ours; otherwise our copy is discarded as
        state absent would remove it, and the one kept is returned, to be reconciled. In a run that creates many
        (``settling``, network_state) the create only joins the run's Settling, which converges them all at once."""
        if not isinstance(created, dict) or ref_id(created) in (None, '') or (self.replacing is not None and not self.replacement_converges):
            return None
        settling = getattr(self, 'settling', None)  # the run's Settling (network_state sets it), else none
        if settling is not None and self.kind and self.replacing is None:
            settling.defer(self, created)
            return None
        _time.CLOCK.sleep(settle_window(self.started))
        self.resolver.forget(self.kind)
        return kept_copy(self, created)


def kept_copy(task, created):
    """The copy of ``created``'s natural key all runs keep, read from the kind's list (read again once, then
    shared): None when that is ours, else the one kept, ours being discarded (see converge)."""
    task.listed = None
    old = ref_id(task.replacing) if task.replacing is not None else None
    copies = [item for item in task.list_items(matching=True) if task.matches(item) and ref_id(item) != old and task.may_replace(item)]
    if ref_id(created) not in [ref_id(item) for item in copies]:
        copies.append(created)
    ids = sorted((ref_id(item) for item in copies), key=lambda text: (0, int(text), '') if text.isdigit() else (1, 0, text))
    # every run that made a copy keeps the lowest id too and discards its own: all the others leave this run's lists
    # now, so that what refers to the natural key later in the run (an entry nested in this one) names the one kept
    for item_id in ids[1:]:
        task.resolver.drop(task.kind, item_id)
    if task.listed is not None:
        task.listed = [item for item in task.listed if ref_id(item) not in ids[1:]]
    if ids[0] == ref_id(created):
        return None
    discarded = task.delete(created)  # as state absent removes it (deleted, or retired where it cannot be)
    task.warn("another run created the %s %s at the same time (ids: %s); the one with the lowest id, %s, is kept and this "
              "run's copy (id %s) was %s" % (task.what, task.shown(task.identity_text(), '%s'), ', '.join(ids), ids[0],
                                             ref_id(created), discarded))
    return [item for item in copies if ref_id(item) == ids[0]][0]
