# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make tables`: write plugins/module_utils/_tables.py from the kinds' declarations (_kinds.tables_source).

    python -m tests.support.tables [--check]

``--check`` writes nothing and exits 1 when the file differs (tests/unit/test_architecture.py checks the same).
"""

from __future__ import annotations

import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLES = os.path.join(REPO, 'plugins', 'module_utils', '_tables.py')


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with tempfile.TemporaryDirectory(prefix='nms-tables-') as base:
        os.makedirs(os.path.join(base, 'ansible_collections', 'nms'))
        os.symlink(REPO, os.path.join(base, 'ansible_collections', 'nms', 'overlay'))
        sys.path.insert(0, base)
        from ansible_collections.nms.overlay.plugins.module_utils._kinds import tables_source  # pylint: disable=import-outside-toplevel
        text = tables_source()
    with open(TABLES, encoding='utf-8') as handle:
        current = handle.read()
    if text == current:
        print('%s is up to date' % os.path.relpath(TABLES, REPO))
        return 0
    if '--check' in argv:
        print('%s differs from the kinds\' declarations: run make tables' % os.path.relpath(TABLES, REPO))
        return 1
    with open(TABLES, 'w', encoding='utf-8') as handle:
        handle.write(text)
    print('wrote %s' % os.path.relpath(TABLES, REPO))
    return 0


if __name__ == '__main__':
    sys.exit(main())
