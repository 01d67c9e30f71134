# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Records which process imports what (tests/integration/test_imports.py): put this directory on PYTHONPATH and name a
file in NMS_IMPORT_AUDIT. Each import of the collection's files, pydantic or requests adds a line: the pid of the
interpreter the process started as (a forked worker keeps its parent's), its own pid, its script, the module.
An audit hook (sys.addaudithook) only observes; nothing is changed."""

import os
import sys

_LOG = os.environ.get('NMS_IMPORT_AUDIT')
_ORIGIN = os.getpid()  # a forked process inherits this value: origin != pid means "imported after a fork"
_WATCHED = ('ansible_collections.nms.', 'pydantic', 'requests')


def _audit(event, args):
    if event == 'import' and isinstance(args[0], str) and args[0].startswith(_WATCHED):
        with open(_LOG, 'a', encoding='utf-8') as handle:
            handle.write('%d %d %s %s\n' % (_ORIGIN, os.getpid(), os.path.basename(sys.argv[0] if sys.argv else ''), args[0]))


if _LOG:
    sys.addaudithook(_audit)
