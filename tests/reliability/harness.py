# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Reliability harness: hostile servers, module discovery and the documented examples.

Modules run in this Python process (no ansible-playbook) through tests/support/inprocess.py ``run_module``, as
their action plugin runs them in the controller, on every supported ansible-core through public interfaces only.
The module-process path is the integration tests' (``nms_overlay_in_process: false``).
"""

from __future__ import annotations

import glob
import importlib
import json
import os
import re
import socket
import ssl
import threading
import time

import yaml

from tests.support.modules import engine_of

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULE_PACKAGE = "ansible_collections.nms.overlay.plugins.modules"
STRESS = os.environ.get("NMS_STRESS", "").strip().lower() not in ("", "0", "false", "no")
# an API failure as the client words it, "GET https://host:port/api/groups failed ..." (group 2: the API path);
# network_state prefixes the resource ("groups[0] (office): ...")
API_ERROR_RE = re.compile(r"(?:^|: )(GET|POST|PUT|DELETE|PATCH) https?://[^/\s]+(?:/\S*?)?/api(/\S*) failed( with HTTP (\d{3}))?: \S")
FIGURES = {}  # test -> {item: text}; printed at the end of the session (see conftest.py)


# --------------------------------------------------------------------------------------------
# Hostile servers (the emulator and its client are tests/support/emulator.py)


class RawServer:
    """A hostile HTTP(S) server on 127.0.0.1 for one test: ``answer(conn, request_bytes)`` writes what it likes.

    With ``cert``/``key`` it speaks TLS. Used as a context manager; ``.port``, ``.requests`` (how many
    arrived). Each connection gets a thread, so a slow answer never blocks the next connection.
    """

    def __init__(self, answer, cert=None, key=None):
        self.answer = answer
        self.requests = 0
        self.context = None
        if cert:
            self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.context.load_cert_chain(cert, key)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._closed = False
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._closed = True
        self.listener.close()

    def _accept(self):
        while not self._closed:
            try:
                conn, dummy = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        try:
            if self.context is not None:
                conn = self.context.wrap_socket(conn, server_side=True)
            conn.settimeout(10)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            self.requests += 1
            self.answer(conn, data)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass


def drip_answer(body, interval):
    """An answer whose status line and headers come at once and whose body comes one byte every ``interval`` s."""
    def answer(conn, dummy):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
        for byte in body:
            time.sleep(interval)
            conn.sendall(bytes([byte]))
    return answer


# --------------------------------------------------------------------------------------------
# Module discovery


def runtime_modules():
    """Module names listed in meta/runtime.yml (action group ``all``)."""
    with open(os.path.join(REPO_ROOT, "meta", "runtime.yml"), encoding="utf-8") as handle:
        runtime = yaml.safe_load(handle) or {}
    return list((runtime.get("action_groups") or {}).get("all") or [])


def module_names():
    """Every module that exists as plugins/modules/<name>.py and is listed in meta/runtime.yml."""
    present = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(REPO_ROOT, "plugins", "modules", "*.py"))}
    present.discard("__init__")
    listed = runtime_modules()
    return sorted(name for name in present if name in listed)


def is_info(name):
    return name.endswith("_info")


def import_module(name):
    return importlib.import_module("%s.%s" % (MODULE_PACKAGE, name))


def module_doc(name, key):
    """DOCUMENTATION / EXAMPLES / RETURN of a module, parsed as YAML."""
    text = getattr(import_module(name), key, None)
    return yaml.safe_load(text) if text else None


def example_tasks(name):
    """The module arguments of every EXAMPLES task that calls this module (FQCN or short name)."""
    tasks = module_doc(name, "EXAMPLES") or []
    found = []

    def walk(items):
        for task in items or []:
            if not isinstance(task, dict):
                continue
            for block_key in ("block", "rescue", "always", "tasks"):
                if isinstance(task.get(block_key), list):
                    walk(task[block_key])
            for key in ("nms.overlay.%s" % name, name):
                if key in task and isinstance(task[key], (dict, type(None))):
                    found.append((task.get("name") or "", dict(task[key] or {})))
    walk(tasks)
    return found


def module_spec(name):
    """``{"argument_spec", "mutually_exclusive", "required_one_of", ...}``: what the module validates its
    options with (AnsibleModule in a module process, ArgumentSpecValidator in the controller)."""
    return engine_of(name).validation()


# --------------------------------------------------------------------------------------------
# The documented examples, runnable in-process


WORLD_GROUPS = ("servers", "developers", "monitoring", "backup", "routers", "unmanaged", "old-servers", "web",
                "office", "engineering", "operations", "web-servers", "office-routers", "admins")
WORLD_PEERS = ("web-1", "db-1", "router-1", "router-2", "old-build-host", "office-gw")


def seed_world(emu):
    """The names the EXAMPLES refer to (groups, peers, a service user), so that their tasks can act."""
    peers = emu.control("POST", "/_emulator/peers", {"peers": [{"hostname": h, "os": "linux"} for h in WORLD_PEERS]})
    for group in WORLD_GROUPS:
        status, body = emu.api("POST", "/groups", {"name": group, "peers": []})
        assert status == 200, "cannot seed group %s: %s %r" % (group, status, body)
    emu.api("POST", "/users", {"name": "ci-bot", "role": "admin", "is_service_user": True, "auto_groups": []})
    emu.api("POST", "/posture-checks", {"name": "recent-client", "description": "",
                                        "checks": {"nb_version_check": {"min_version": "0.25.0"}}})
    if emu.dialect == "current":  # a v0.77 server: the DNS zone the records' examples are in ...
        status, body = emu.api("GET", "/groups")
        servers = [group["id"] for group in body if group["name"] == "servers"]
        zone = {"name": "Internal", "domain": "internal.example.com", "enable_search_domain": False,
                "distribution_groups": servers}
        status, body = emu.api("POST", "/dns/zones", zone)
        assert status == 200, "cannot seed the DNS zone: %s %r" % (status, body)
        # ... and the network the network resources' and routers' examples are in
        status, body = emu.api("POST", "/networks", {"name": "office", "description": ""})
        assert status == 200, "cannot seed the network: %s %r" % (status, body)
        _seed_current(emu, body["id"], peers)
    emu.clear_log()
    return peers


def _seed(emu, path, body, what):
    status, answer = emu.api("POST", path, body)
    assert status == 200, "cannot seed %s: %s %r" % (what, status, answer)
    return answer


def _seed_current(emu, network_id, peers):
    """What a v0.77 account that the examples act on has besides: the server's embedded IdP on (invite links need
    it, as on a real v0.77 server set up with it), what the examples with Jinja (secrets, keys read from files) would
    have made before the later examples (rotate, remove) act on it, and what they take as made before (invites)."""
    # and NetBird proxies connected: the emulator's own and the office's the cluster example removes
    emu.control("POST", "/_emulator/config", {"idp": True, "proxy_clusters": ["proxy.emulator.test", "proxy.office.example.com"]})
    # the wiki the reverse proxy example publishes: a host resource of the office network
    _seed(emu, "/networks/%s/resources" % network_id,
          {"name": "wiki-server", "address": "192.168.10.30", "description": "", "enabled": True, "groups": []},
          "the network resource wiki-server")
    # the company's SSO (the embedded IdP checks the issuer's discovery document: only its own issuer answers here)
    _seed(emu, "/identity-providers", {"name": "Company SSO", "type": "oidc", "issuer": "http://127.0.0.1:8080/oauth2",
                                       "client_id": "netbird", "client_secret": "seeded-client-secret"},
          "the identity provider Company SSO")
    # the Agent Network provider the policies send to, and the guardrail they apply (made in the UI, its checks still
    # off: the guardrail's example turns its model allow-list on)
    _seed(emu, "/agent-network/providers",
          {"name": "OpenAI", "provider_id": "openai_api", "upstream_url": "https://api.openai.com", "api_key": "sk-seeded",
           "enabled": True, "models": [{"id": "gpt-5.4-mini", "input_per_1k": 0.00075, "output_per_1k": 0.0045}]},
          "the Agent Network provider OpenAI")
    _seed(emu, "/agent-network/guardrails", {"name": "Production", "description": ""}, "the guardrail Production")
    # the invites the examples renew (Bob's) and withdraw (Carol's)
    for email, name in (("bob@example.com", "Bob Example"), ("carol@example.com", "Carol Example")):
        _seed(emu, "/users/invites", {"email": email, "name": name, "role": "user", "auto_groups": []}, "the invite of " + email)
    # the support laptop's temporary access to web-1 that the example takes back
    web_1 = [peer["id"] for peer in peers if peer["hostname"] == "web-1"]
    _seed(emu, "/peers/%s/temporary-access" % web_1[0],
          {"name": "support-laptop", "wg_pub_key": "Lj3eEeyqkORmtn0wLnO1gxB6bJ3lU7MsHlNHvVA8iGk=", "rules": ["tcp/22"]},
          "the temporary access support-laptop")


def example_args(name):
    """``[(title, args)]`` of the module's EXAMPLES tasks that need no Jinja (connection options removed)."""
    usable = []
    for title, args in example_tasks(name):
        args = {k: v for k, v in args.items() if k not in ("api_url", "api_token")}
        if "{{" in json.dumps(args):
            continue
        usable.append((title, args))
    return usable
