# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Copy the working tree into DEST/ansible_collections/nms/overlay for ansible-test.

ansible-test needs the collection in a real .../ansible_collections/<ns>/<name>/ directory (a
symlink does not work). This copies the files git would commit right now (tracked, plus
untracked-but-not-ignored, minus deleted: `git ls-files -co --exclude-standard`), so that
uncommitted work is tested too. DEST is emptied first.

The copy is then made a git work tree of its own (`git init`, nothing committed): ansible-test
lists content with `git ls-files` of the nearest enclosing repository, and without that it
would find the outer repository, in which the copy is ignored.

Usage: stage.py DEST   (prints the collection directory)
"""

import os
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: stage.py DEST")
    dest_root = os.path.abspath(sys.argv[1])
    repo = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    target = os.path.join(dest_root, "ansible_collections", "nms", "overlay")
    if os.path.commonpath([repo, target]) == repo and not os.path.relpath(target, repo).startswith(".build"):
        sys.exit("refusing to stage into %s (must be outside the repository or under .build/)" % target)

    shutil.rmtree(dest_root, ignore_errors=True)
    os.makedirs(target)

    listing = subprocess.check_output(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=repo)
    count = 0
    for rel in sorted(set(p.decode("utf-8", "surrogateescape") for p in listing.split(b"\0") if p)):
        src = os.path.join(repo, rel)
        if not os.path.lexists(src):  # deleted in the work tree, not yet in the index
            continue
        dst = os.path.join(target, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        elif os.path.isfile(src):
            shutil.copy2(src, dst)
        else:  # e.g. a submodule directory
            continue
        count += 1

    subprocess.check_call(["git", "-c", "init.defaultBranch=main", "init", "-q", target])
    print("staged %d files into %s" % (count, target), file=sys.stderr)
    print(target)


if __name__ == "__main__":
    main()
