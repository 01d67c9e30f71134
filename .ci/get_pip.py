# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Offline stand-in for the pip bootstrap script (get-pip.py) that ansible-test downloads.

For each virtualenv it creates, ansible-test runs ~/.ansible/test/cache/get_pip_<version>.py
unchecked when that file exists, and otherwise downloads it from a host outside the package
index (not reachable here). It runs it through its quiet_pip.py wrapper (GET_PIP=<this file>,
runpy with sys.argv[1:] set), inside the new virtualenv, with arguments like
``--disable-pip-version-check pip==24.2 --no-setuptools --no-wheel``.

This installs the pip bundled with Python (ensurepip), then lets that pip install the requested
packages (pip==24.2 ...) from the package index. ``--no-setuptools``/``--no-wheel`` only tell
get-pip.py what not to add, so they are dropped. `make sanity` copies this file to the cache path.
"""

import subprocess
import sys

GET_PIP_ONLY_OPTIONS = {"--no-setuptools", "--no-wheel", "--no-pip"}


def _run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    if proc.returncode:
        sys.stderr.write(proc.stdout.decode("utf-8", "replace"))
        sys.stderr.write("get_pip.py: %s failed with exit %d\n" % (" ".join(cmd), proc.returncode))
        sys.exit(proc.returncode)


def main():
    args = [arg for arg in sys.argv[1:] if arg not in GET_PIP_ONLY_OPTIONS]
    _run([sys.executable, "-m", "ensurepip", "--default-pip"])
    if any(not arg.startswith("-") for arg in args):
        _run([sys.executable, "-m", "pip", "install", "--upgrade"] + args)
    sys.stderr.write("get_pip.py: bootstrapped %s\n" % " ".join(args))


if __name__ == "__main__":
    main()
