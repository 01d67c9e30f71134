# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""docs/compatibility.md, written from the modules themselves: every module and option, and which server generation
has it. A module whose engine names ``requires`` (what of today's servers it manages) is v0.77 only; every other
option works on both, with the differences below. tests/unit/test_compatibility.py keeps the page equal to this;
``NMS_WRITE_COMPATIBILITY=1 pytest tests/unit/test_compatibility.py`` writes it.
"""

from __future__ import annotations

import os

from tests.support.modules import MODULES_DIR, documentation, engine_of

# What differs between the generations for one option (module, option) or a whole module (module, None), in words a
# user acts on. Facts: what real v0.27.6 and v0.77.1 servers do, and how the collection meets each.
NOTES = {
    ('policy', 'rules'): 'v0.27: a policy may have several rules (its answers leave a shared source group out of later '
                         'rules; the module settles). v0.77 stores only the first rule of a policy: several rules are '
                         'refused before any write; describe one policy per rule.',
    ('policy', 'rules.ports'): 'A range such as 8000-8100: v0.77 only (sent as port_ranges); v0.27 takes single ports '
                               'and a range is refused before any write.',
    ('setup_key', 'state'): 'absent: v0.77 deletes the key; v0.27 cannot, so the key is revoked and its auto_groups '
                            'cleared (revoked_only in the result).',
    ('setup_key', None): 'v0.77 shows a key value only in the answer to its create (masked on every read), as the '
                         'module returns it anyway.',
    ('peer', 'approval_required'): 'Applied only by servers that use peer approval (cloud servers with '
                                   'peer_approval_enabled); open-source servers of both generations ignore it.',
    ('peer', 'ip'): 'Alone, it finds the peer on both. With id or hostname it gives the peer that address: v0.77 only '
                    '(a v0.27 server refuses such a task before any write).',
    ('route', 'domains'): 'A domain route (v0.77) has no network of its own: the server shows the placeholder '
                          '192.0.2.0/32 and the module never sends it back.',
    ('peer_info', None): 'v0.77 answers a single peer without accessible_peers: for one peer they are read from '
                         'GET /api/peers/{id}/accessible-peers (one more request).',
    ('user', 'email'): 'Inviting a regular user needs an identity provider on the server (412 otherwise), on both.',
    ('user', 'role'): 'owner, admin and user on both; network_admin, auditor and billing_admin from v0.77 on (a v0.27 '
                      'server refuses them before any write). The module refuses the caller\'s own role change and a '
                      'service user as owner before any write (both servers refuse them).',
    ('account_settings', 'peer_approval_enabled'): 'A cloud feature (settings.extra); open-source servers ignore it.',
    ('route', None): 'v0.77 deprecates routes in favour of Networks; the route endpoints still work, and a non-Linux '
                     'routing peer is accepted there (v0.27 refuses one).',
    ('event_info', None): 'v0.77 serves the audit log at /api/events/audit and keeps /api/events as its alias.',
}
COMMON = ('Every update sends back every field the server returned that the task does not change, including fields '
          'of today\'s servers that no option manages yet (a route\'s keep_route, a peer\'s '
          'inactivity expiration), so nothing a task did not ask for is reset.')


def module_names():
    return sorted(name[:-3] for name in os.listdir(MODULES_DIR) if name.endswith('.py') and not name.startswith('_'))


def requires(module):
    """What of today's servers the module manages (its engine class's ``requires``), or None."""
    return engine_of(module).requires


def option_requires(module):
    """{option: the generation that has it} for the options of today's servers (a Field's ``requires``, and the
    engine's ``options_requiring`` for options that are no request field)."""
    engine = engine_of(module)
    fields = getattr(engine, 'fields', None) or {}
    found = {name: field.requires for name, field in fields.items() if field.requires}
    found.update(getattr(engine, 'options_requiring', None) or {})
    return found


def options(spec, prefix=''):
    """(dotted option name, option) of a module's options, suboptions after their option, in documentation order."""
    for name, option in (spec or {}).items():
        yield prefix + name, option
        yield from options(option.get('suboptions'), prefix + name + '.')


def since_of(newer, name):
    """The generation that has an option (dotted name): its own, else the nearest enclosing option's."""
    parts = name.split('.')
    for end in range(len(parts), 0, -1):
        if '.'.join(parts[:end]) in newer:
            return newer['.'.join(parts[:end])]
    return None


def render(requires_of=requires):
    lines = [
        '# Server compatibility',
        '',
        'Which NetBird management server generation has each module and option: **v0.27** (the API as first '
        'published, v0.27.6 tested) and **v0.77** (today\'s, v0.77.1 tested). The collection learns which one '
        'answers with at most one request per task (`GET /api/instance/version`), and only when an option '
        'depends on it.',
        '',
        COMMON,
        '',
        'This page is written from the modules themselves (`tests/support/compatibility.py`); a unit test keeps it '
        'current.',
        '',
        '| Module | Option | v0.27 | v0.77 | Notes |',
        '|---|---|---|---|---|',
    ]
    for module in module_names():
        feature = requires_of(module)
        old = 'no' if feature else 'yes'
        note = NOTES.get((module, None), '')
        if feature:
            note = ('%s came after v0.27: on a v0.27 server the task fails after one request, before any other. %s'
                    % (feature, note)).strip()
        lines.append('| `nms.overlay.%s` | | %s | yes | %s |' % (module, old, note))
        newer = option_requires(module)
        for name, dummy_option in options(documentation(module, connection=False).get('options')):
            since = since_of(newer, name)
            note = NOTES.get((module, name), '')
            if since:
                note = ('From %s on: a v0.27 server refuses a task that sets it, before any write. %s' % (since, note)).strip()
            lines.append('| | `%s` | %s | yes | %s |' % (name, 'no' if since else old, note))
    lines.append('')
    return '\n'.join(lines)
