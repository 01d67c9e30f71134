# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Real NetBird agents for the real-server tests: hosts that join a server of tests/support/realserver.py with a
setup key (``../shared/servers/realagent.py``, one daemon per simulated host in the server's network namespace).

:class:`Agents` drives the agents of one :class:`~tests.support.realserver.RealServer`: ``up`` joins a host with a
key (about 2 s), ``down`` leaves, ``status`` is the host's ``netbird status --json``, ``reached`` the overlay
addresses of the peers its network map lists, ``command(host)`` the argv prefix that makes the ``enroll`` role's
``netbird`` that host's agent (``enroll_agent_command``). ``stop_all`` ends them (``RealServer.stop`` does too, so a
failed test leaves nothing running)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from tests.support.realserver import kit

# a v0.77.1 agent retries a login with a bad key for about 2 minutes before it fails
AGENT_TIMEOUT = 300


class AgentError(AssertionError):
    """realagent.py failed: its command, exit status and output."""


class Agents:
    """The agents of one real server (``server.directory`` is its NMS_REAL_DIR)."""

    def __init__(self, server):
        self.server = server
        directory = kit()[0]
        self.script = os.path.join(directory, 'realagent.py')
        self.wrapper = os.path.join(directory, 'netbird-agent')

    def handle(self, host):
        return os.path.join(self.server.directory, 'agents', host)

    def run(self, *args, check=True, timeout=AGENT_TIMEOUT):
        """realagent.py ARGS; with ``check`` a failure raises :class:`AgentError` with its output."""
        done = subprocess.run([sys.executable, self.script] + list(args), capture_output=True, text=True,
                              timeout=timeout, check=False)
        if check and done.returncode != 0:
            raise AgentError('realagent.py %s failed (exit %s):\n%s\n%s' % (
                ' '.join(args[:1]), done.returncode, done.stdout[-2000:], done.stderr[-4000:]))
        return done

    def up(self, host, key=None, key_file=None, version=None):
        """Join ``host`` with a setup key (a value or a file); ``version`` the agent's release (the server's by
        default). Returns what realagent.py printed: ``NB_AGENT_HANDLE``, ``NB_AGENT_IP``, ``NB_AGENT_FQDN``."""
        args = ['up', self.server.directory, '--hostname', host]
        args += ['--setup-key-file', str(key_file)] if key_file else ['--setup-key', key]
        if version:
            args += ['--version', version]
        done = self.run(*args)
        return dict(line.split('=', 1) for line in done.stdout.splitlines() if '=' in line)

    def down(self, host):
        self.run('down', self.handle(host))

    def stop(self, host):
        self.run('stop', self.handle(host))

    def stop_all(self):
        self.run('stop-all', self.server.directory, check=False)

    def status(self, host):
        """``netbird status --json`` of ``host``, parsed."""
        return json.loads(self.run('status', self.handle(host)).stdout)

    def reached(self, host):
        """The overlay addresses of the peers ``host``'s network map lists (its ``status --json`` peers)."""
        details = (self.status(host).get('peers') or {}).get('details') or []
        return sorted(peer['netbirdIp'].split('/')[0] for peer in details)

    def peer(self, host, connected=True, timeout=30):
        """The server's peer of ``host`` (``GET /api/peers``) once its ``connected`` is ``connected``: an agent's
        ``up`` returns before the server has marked the peer connected (or, after ``down``, disconnected)."""
        deadline = time.monotonic() + timeout
        while True:
            peers = [p for p in self.server.ok('GET', '/api/peers') if p.get('hostname') == host]
            if peers and all(p.get('connected') is connected for p in peers):
                return peers[-1]
            if time.monotonic() > deadline:
                raise AgentError('the server shows no peer of %s with connected=%s within %ss: %s'
                                 % (host, connected, timeout, peers))
            time.sleep(0.2)

    def command(self, host='{{ inventory_hostname }}'):
        """The argv prefix that runs the ``netbird`` CLI of ``host`` (the role's ``enroll_agent_command``)."""
        return [self.wrapper, self.server.directory, host]
