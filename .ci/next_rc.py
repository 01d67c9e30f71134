"""Whether PyPI has an ansible-core newer than the one the next stage tests (make next-rc).

Reads the ansible-core pin of a requirements file (requirements-next.txt), asks pip for the versions PyPI has
(`pip index versions ansible-core --pre`, with this Python) and prints whether a release or a release candidate is
newer than the pin. Exit 1 when one is: raise the pin (and, once the suite passes on it, meta/runtime.yml's
requires_ansible). A dedicated target, not a stage of make test: an upstream release must not turn CI red by itself.
"""

import re
import subprocess
import sys

PIN_RE = re.compile(r'^ansible-core==(\S+)\s*$', re.M)
VERSION_RE = re.compile(r'^(\d+)\.(\d+)\.(\d+)(?:(a|b|rc)(\d+))?$')
PHASES = {'a': 0, 'b': 1, 'rc': 2, None: 3}


def version_key(text):
    """A sortable key of an ansible-core version (2.22.0rc1 < 2.22.0); None for what is no such version."""
    found = VERSION_RE.match(text.strip())
    if not found:
        return None
    major, minor, patch, phase, number = found.groups()
    return (int(major), int(minor), int(patch), PHASES[phase], int(number or 0))


def candidates(versions):
    """The releases and release candidates of ``versions`` (alphas and betas are not tried)."""
    return [v for v in versions if version_key(v) is not None and version_key(v)[3] >= PHASES['rc']]


def newer_than(pinned, versions):
    """The newest release or release candidate in ``versions`` newer than ``pinned``, else None."""
    pinned_key = version_key(pinned)
    if pinned_key is None:
        raise ValueError('the pin %r is not an ansible-core version' % pinned)
    newer = [v for v in candidates(versions) if version_key(v) > pinned_key]
    return max(newer, key=version_key) if newer else None


def parse_index(output):
    """The versions of `pip index versions` output ("Available versions: 2.22.0rc1, 2.21.5, ...")."""
    for line in output.splitlines():
        if line.startswith('Available versions:'):
            return [v.strip() for v in line.split(':', 1)[1].split(',') if v.strip()]
    raise ValueError('pip index versions printed no "Available versions:" line')


def main(argv):
    path = argv[1] if len(argv) > 1 else 'requirements-next.txt'
    with open(path) as handle:
        found = PIN_RE.search(handle.read())
    if not found:
        print('next-rc: %s has no ansible-core==X.Y.Z pin' % path, file=sys.stderr)
        return 2
    pinned = found.group(1)
    output = subprocess.run([sys.executable, '-m', 'pip', 'index', 'versions', 'ansible-core', '--pre',
                             '--disable-pip-version-check'], capture_output=True, text=True, check=True).stdout
    newest = newer_than(pinned, parse_index(output))
    if newest is None:
        print('next-rc: %s tests ansible-core %s, the newest release or candidate on PyPI' % (path, pinned))
        return 0
    print('next-rc: PyPI has ansible-core %s, newer than the %s of %s: raise the pin, run make next, then raise '
          'requires_ansible in meta/runtime.yml' % (newest, pinned, path), file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
