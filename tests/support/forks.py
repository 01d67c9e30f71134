# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ten forks of ``ansible-playbook`` racing on one server (an emulator or a real one), quiet or on a loaded machine.

``run_forks(server, tmp_path, task, slow=...)`` runs one task on ten local hosts racer0..racer9 with every answer of
the server held ``slow`` seconds, so that the forks' reads all come before their writes (the emulator's slow fault;
a real server's recording proxy holds them). ``busy_machine(load)`` keeps every core busy beside them when ``load``
is "loaded": one spinning process per core that ends itself after at most ``seconds`` and is ended with the block.
``RACE_SETTINGS`` and ``assert_one_bootstrap``: ten forks bootstrapping the Agent Network settings, against the
emulator (tests/reliability/test_concurrency.py) and a real v0.77.1 (tests/integration/test_real_agent_network.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time

from tests.support.realserver import Recorded

FORKS = 10
# how the forks' machine is: "quiet", or "loaded" (every core busy beside them, see busy_machine)
LOADS = ("quiet", "loaded")
# at most this long a loaded machine's spinning processes run, whatever happens to the test
HOG_SECONDS = 180


def slow_answers(server, seconds, seed=0):
    """Hold every answer of ``server`` ``seconds`` after it is computed (0: no longer)."""
    if isinstance(server, Recorded):
        server.proxy.slow = seconds
    else:
        server.set_faults({"rate": 1.0, "kinds": ["slow"], "slow": seconds, "seed": seed} if seconds else {})


def run_forks(server, tmp_path, task, seed=0, slow=0.3):
    """ansible-playbook -f 10 over ten local hosts racer0..racer9 running ``task`` (YAML lines of one task,
    indented for a task list; {{ inventory_hostname }} tells the forks apart), every answer held ``slow`` seconds.
    Against the current dialect the modules run as processes, against the others in the controller's worker.
    Returns (output, rc, per-host recap [(ok, changed, unreachable, failed)], seconds)."""
    inventory = tmp_path / "hosts.ini"
    in_process = "false" if server.dialect == "current" else "true"
    inventory.write_text("[racers]\n" + "".join(
        "racer%d ansible_connection=local ansible_python_interpreter=%s nms_overlay_in_process=%s\n"
        % (i, sys.executable, in_process) for i in range(FORKS)))
    playbook = tmp_path / "race.yml"
    playbook.write_text("- hosts: racers\n  gather_facts: false\n  tasks:\n" + task)
    slow_answers(server, slow, seed)
    env = dict(os.environ, NMS_API_URL=server.url, NMS_API_TOKEN=server.token, ANSIBLE_FORKS=str(FORKS),
               ANSIBLE_HOST_KEY_CHECKING="False", ANSIBLE_NOCOLOR="1", ANSIBLE_RETRY_FILES_ENABLED="False",
               ANSIBLE_LOCAL_TEMP=str(tmp_path / "tmp"), ANSIBLE_STDOUT_CALLBACK="default")
    started = time.monotonic()
    try:
        done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "-i", str(inventory),
                               "-f", str(FORKS), str(playbook)], cwd=str(tmp_path), env=env, capture_output=True,
                              text=True, timeout=300, check=False)
    finally:
        slow_answers(server, 0)
    elapsed = time.monotonic() - started
    output = done.stdout + done.stderr
    recap = re.findall(r"^racer\d+\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", output, re.M)
    return output, done.returncode, recap, elapsed


def all_ok(recap):
    """Whether every fork ran and none failed or was unreachable."""
    return len(recap) == FORKS and all(failed == "0" and unreachable == "0" for dummy, dummy2, unreachable, failed in recap)


def changed_count(recap):
    return sum(int(changed) for dummy, changed, dummy2, dummy3 in recap)


@contextlib.contextmanager
def busy_machine(load, seconds=HOG_SECONDS):
    """A block run on a quiet machine, or ("loaded") with every core kept busy: one process per core spinning for
    at most ``seconds`` (each ends itself then), all ended when the block ends."""
    hogs = []
    if load == "loaded":
        code = "import time\nend = time.monotonic() + %r\nwhile time.monotonic() < end:\n    pass\n" % float(seconds)
        hogs = [subprocess.Popen([sys.executable, "-c", code]) for dummy in range(os.cpu_count() or 1)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


RACE_SETTINGS = ("    - name: Bootstrap the Agent Network\n      nms.overlay.agent_network_settings:\n"
                 "        proxy_address: eu.proxy.example.com\n        access_log_retention_days: 7\n")


def assert_one_bootstrap(server, output, returncode, recap):
    """Ten forks bootstrapping the Agent Network settings: one POST made them, every other met the server's 409 and
    reconciled with them (same options: no update); every fork ok, one changed. Returns (POSTs, 409s)."""
    posts = [r for r in server.requests() if r["method"] == "POST" and r["path"] == "/api/agent-network/settings"]
    refused = [r for r in posts if r["status"] == 409]
    puts = [r for r in server.requests() if r["method"] == "PUT"]
    context = "POSTs answered %s, %d PUTs\n%s" % ([r["status"] for r in posts], len(puts), output[-4000:])
    assert refused, "no bootstrap met the server's 409: the race did not happen: " + context
    assert len([r for r in posts if r["status"] == 200]) == 1 and len(posts) == len(refused) + 1, context
    assert returncode == 0 and all_ok(recap), context
    assert changed_count(recap) == 1 and not puts, context
    settings = server.ok("GET", "/api/agent-network/settings")
    assert settings["endpoint"].endswith(".eu.proxy.example.com") and settings["access_log_retention_days"] == 7, settings
    return posts, refused
