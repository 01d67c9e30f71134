"""A fake agent: `python -m tests.emulator.agent up|status|down` joins a peer through the emulator, the way NetBird's
agent (`netbird`) of the release `--imitate` names (v0.77.1 by default, or v0.27.6) does on a real server.

The setup key comes from `--setup-key-file`, the env `NB_SETUP_KEY` or `--setup-key`; it is never
printed. The joined peer is remembered in `<state-dir>/state.json`.

What each release's agent was seen to print, and how long it took, against the real servers (../shared/servers):

- `up` joins (`Connected`), says `Already connected` when it is, connects again without a key after `down`; a key
  that is no UUID fails at once, an unknown key after about 2 minutes on v0.77.1 (2 s on v0.27.6), a used, revoked
  or expired key after about 2 minutes on v0.77.1 (25 s on v0.27.6), a management server it cannot reach after
  31 s (v0.77.1) or 43 s (v0.27.6): the agent retries. Each error is the real agent's line (`Error: daemon up
  failed: login failed: rpc error: code = NotFound desc = couldn't add peer: setup key is invalid`). Those waits are
  the real ones times `NMS_FAKE_AGENT_TIME_SCALE` (default 1), so that a test need not wait for them.
- `status --json`: a v0.77.1 agent always prints JSON, with `daemonStatus` (`NeedsLogin`, `LoginFailed`,
  `Connected`, `Idle` after `down`) and `netbirdIp` (the overlay address with its prefix length, e.g.
  `100.64.0.5/16`) only while connected. A v0.27.6 agent prints the text `Daemon status: NeedsLogin` (or
  `LoginFailed`), not JSON, until it has logged in, and then JSON without `daemonStatus` whose `netbirdIp` stays
  after `down`.
- `down` leaves (v0.77.1 prints `Disconnected`, v0.27.6 nothing) and the emulator marks the peer disconnected; the
  agent stays logged in. A connected agent learns that the server deleted its peer: its status shows `NeedsLogin`
  (the text, on v0.27.6), and `up` needs a setup key again.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import json
import os
import re
import ssl
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .state import DNS_DOMAIN, NETWORK

RELEASES = ("v0.77.1", "v0.27.6")
DEFAULT_STATE_DIR = "~/.config/nms-agent"
STATE_FILE = "state.json"
UUID = re.compile(r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
NEEDS_LOGIN_HELP = """
Run UP command to log in with SSO (interactive login):

 netbird up\x20

If you are running a self-hosted version and no SSO provider has been configured in your Management Server,
you can use a setup-key:

 netbird up --management-url <YOUR_MANAGEMENT_URL> --setup-key <YOUR_SETUP_KEY>

More info: https://docs.netbird.io/how-to/register-machines-using-setup-keys
"""
NO_KEY = "login backoff cycle failed: rpc error: code = Unknown desc = no SSO provider returned from management. " \
         "Please proceed with setting up this device using setup keys " \
         "https://docs.netbird.io/how-to/register-machines-using-setup-keys"
# (seconds, the error after "Error: ") of each way a login fails, per release, as the real agents were seen to fail
FAILURES = {
    "v0.77.1": {
        "malformed": (1.4, "daemon up failed: login failed: rpc error: code = InvalidArgument desc = invalid setup-key "
                           "or no sso information provided, err: invalid UUID length: {length}"),
        "unknown": (118.0, "daemon up failed: login failed: rpc error: code = NotFound desc = couldn't add peer: setup "
                           "key is invalid"),
        "invalid": (121.0, "daemon up failed: login failed: rpc error: code = NotFound desc = couldn't add peer: setup "
                           "key is invalid"),
        "unreachable": (31.4, "daemon up failed: login backoff cycle failed: rpc error: code = DeadlineExceeded desc = "
                              "create connection: dial context: context deadline exceeded"),
        "no key": (20.4, "daemon up failed: " + NO_KEY),
    },
    "v0.27.6": {
        "malformed": (2.2, "login failed: rpc error: code = InvalidArgument desc = invalid setup-key or no sso "
                           "information provided, err: invalid UUID length: {length}"),
        "unknown": (2.3, "login failed: rpc error: code = NotFound desc = failed adding new peer: account not found"),
        "invalid": (25.0, "login backoff cycle failed: rpc error: code = FailedPrecondition desc = couldn't add peer: "
                          "setup key is invalid"),
        "unreachable": (43.4, "login backoff cycle failed: rpc error: code = DeadlineExceeded desc = context deadline "
                              "exceeded"),
        "no key": (19.7, NO_KEY),
    },
}


class AgentError(Exception):
    """A failure reported as the real agent's `Error: ...` line and exit code 1."""


class LoginFailed(AgentError):
    """A login the server (or the network) refused: printed after the real agent's wait; the status then shows it."""

    def __init__(self, release: str, kind: str, **values: Any) -> None:
        self.wait, text = FAILURES[release][kind]
        super().__init__(text.format(**values))


def _state_path(state_dir: str) -> Path:
    return Path(os.path.expanduser(state_dir)) / STATE_FILE


def load_state(state_dir: str) -> dict[str, Any] | None:
    path = _state_path(state_dir)
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise AgentError(f"state file {path} is corrupt: {exc}") from exc


def save_state(state_dir: str, state: dict[str, Any]) -> None:
    path = _state_path(state_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")


def _setup_key(args: argparse.Namespace) -> str:
    if args.setup_key_file:
        try:
            return Path(args.setup_key_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise AgentError(f"failed to read setup key file: {exc}") from exc
    return os.environ.get("NB_SETUP_KEY", "") or (args.setup_key or "")


def _base_url(url: str) -> str:
    url = url.rstrip("/")
    return url[:-4] if url.endswith("/api") else url


def _post(url: str, payload: dict[str, Any], insecure: bool, release: str) -> tuple[int, Any]:
    """(status, body) of a POST to the emulator's control API; a server it cannot reach fails the login."""
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
    context = ssl._create_unverified_context() if insecure else None  # pylint: disable=protected-access
    try:
        with urllib.request.urlopen(request, timeout=30, context=context) as response:
            return response.status, json.loads(response.read().decode() or "{}")
    except urllib.error.HTTPError as exc:
        return exc.code, None
    except (urllib.error.URLError, OSError) as exc:
        raise LoginFailed(release, "unreachable") from exc


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _mark(state: dict[str, Any], connected: bool | None, insecure: bool, release: str) -> bool:
    """Tell the emulator the peer (dis)connected, as a server sees its agent come and go (None: no change, only whether
    the peer is there); False: the server has no such peer."""
    change = {} if connected is None else {"connected": connected, "last_seen": _now()}
    status, _body = _post(state["management_url"] + "/_emulator/peer-status",
                          {"peers": [dict(change, id=state["peer_id"])]}, insecure, release)
    return status == 200


def _login(args: argparse.Namespace, key: str) -> dict[str, Any]:
    """Join with the setup key: the new peer's state, or LoginFailed as the server answered."""
    if not key:
        raise LoginFailed(args.imitate, "no key")
    if not UUID.match(key):
        raise LoginFailed(args.imitate, "malformed", length=len(key))
    management = _base_url(args.management_url)
    status, peer = _post(management + "/_emulator/enroll",
                         {"setup_key": key, "hostname": args.hostname, "os": args.os, "version": args.imitate[1:]},
                         args.insecure, args.imitate)
    if status != 200:
        raise LoginFailed(args.imitate, "unknown" if status == 404 else "invalid")
    # peer_id stays internal: the real agent does not know it, callers find the peer by its address
    return {"peer_id": peer["id"], "ip": peer["ip"], "hostname": args.hostname, "dns_label": peer.get("dns_label", ""),
            "management_url": management, "public_key": base64.b64encode(os.urandom(32)).decode(),
            "connected": True, "login": "ok"}


def cmd_up(args: argparse.Namespace) -> int:
    state = load_state(args.state_dir)
    if state is not None and state.get("login") == "ok":
        if state.get("connected", True) and _mark(state, None, args.insecure, args.imitate):
            print("Already connected")
            return 0
        if _mark(state, True, args.insecure, args.imitate):  # logged in, after `down`: no key needed
            state["connected"] = True
            save_state(args.state_dir, state)
            print("Connected")
            return 0
    key = _setup_key(args)
    try:
        state = _login(args, key)
    except LoginFailed as failure:
        # the daemon retries, then gives up (`down` stops it sooner): its status says so
        save_state(args.state_dir, {"login": "failed", "connected": True, "management_url": _base_url(args.management_url)})
        time.sleep(failure.wait * float(os.environ.get("NMS_FAKE_AGENT_TIME_SCALE") or 1))
        raise
    save_state(args.state_dir, state)
    print("Connected")
    return 0


def _fqdn(state: dict[str, Any]) -> str:
    label = str(state.get("dns_label") or state.get("hostname") or "")
    if not label or "." in label:
        return label
    return f"{label}.{DNS_DOMAIN}"


def daemon_status(state: dict[str, Any] | None, args: argparse.Namespace) -> str:
    """NeedsLogin, LoginFailed, Connected or Idle (after `down`), as a v0.77 daemon says; a connected agent learns
    that the server deleted its peer (NeedsLogin)."""
    if state is None:
        return "NeedsLogin"
    if not state.get("connected", True):
        return "Idle"
    if state.get("login") != "ok":
        return "LoginFailed"
    if not _mark(state, None, args.insecure, args.imitate):
        return "NeedsLogin"
    return "Connected"


def status_document(state: dict[str, Any] | None, release: str = "v0.77.1", daemon: str = "Connected") -> dict[str, Any]:
    """What `netbird status --json` prints (the fields the roles may read)."""
    state = state or {}
    # a v0.27 agent shows the address it had also after `down`
    shown = daemon == "Connected" or (release == "v0.27.6" and daemon == "Idle" and state.get("login") == "ok")
    management = state.get("management_url", "") or "https://api.netbird.io:443"
    document = {
        "peers": {"total": 0, "connected": 0, "details": None},
        "cliVersion": release[1:],
        "daemonVersion": release[1:],
        "daemonStatus": daemon,
        "management": {"url": management, "connected": shown, "error": ""},
        "signal": {"url": management if shown else "", "connected": shown, "error": ""},
        "relays": {"total": 0, "available": 0, "details": None},
        "netbirdIp": f"{state['ip']}/{NETWORK.prefixlen}" if shown else "",
        "publicKey": state.get("public_key", "") if shown else "",
        "usesKernelInterface": False,
        "fqdn": _fqdn(state) if shown else "",
        "quantumResistance": False,
        "quantumResistancePermissive": False,
        "networks": None,
        "forwardingRules": 0,
        "dnsServers": [],
        "events": [],
    }
    if release == "v0.27.6":  # no daemon status in its JSON, routes instead of networks
        del document["daemonStatus"], document["networks"], document["forwardingRules"], document["events"]
        document["routes"] = None
    else:
        document.update(wireguardPort=51820 if shown else 0, lazyConnectionEnabled=False, profileName="default",
                        sshServer={"enabled": False, "sessions": []})
    return document


def cmd_status(args: argparse.Namespace) -> int:
    state = load_state(args.state_dir)
    daemon = daemon_status(state, args)
    if args.imitate == "v0.27.6" and daemon in ("NeedsLogin", "LoginFailed"):
        # a v0.27 agent prints this text (not JSON, also with --json) and exits 0
        print(f"Daemon status: {daemon}")
        print(NEEDS_LOGIN_HELP)
        return 0
    document = status_document(state, args.imitate, daemon)
    if args.json:
        print(json.dumps(document, separators=(",", ":")))
        return 0
    print(f"Daemon version: {document['daemonVersion']}")
    print(f"CLI version: {document['cliVersion']}")
    print(f"Daemon status: {daemon}")
    print(f"Management: {'Connected' if document['management']['connected'] else 'Disconnected'}")
    print(f"FQDN: {document['fqdn']}")
    print(f"NetBird IP: {document['netbirdIp'] or 'N/A'}")
    print("Interface type: Userspace")
    print("Peers count: 0/0 Connected")
    return 0


def cmd_down(args: argparse.Namespace) -> int:
    state = load_state(args.state_dir)
    if state is not None and state.get("connected", True):
        state["connected"] = False
        if state.get("login") == "ok":
            _mark(state, False, args.insecure, args.imitate)
        save_state(args.state_dir, state)
    if args.imitate == "v0.77.1":
        print("Disconnected")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.emulator.agent", description="Fake agent for the emulator")
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("up", help="join the network with a setup key")
    up.add_argument("--management-url", required=True)
    key = up.add_mutually_exclusive_group()
    key.add_argument("--setup-key-file", default=None)
    key.add_argument("--setup-key", default=None, help="discouraged: visible in the process list")
    up.add_argument("--hostname", required=True)
    up.add_argument("--os", default="linux")
    up.set_defaults(func=cmd_up)
    status = sub.add_parser("status", help="show the joined peer")
    status.add_argument("--json", action="store_true")
    status.set_defaults(func=cmd_status)
    down = sub.add_parser("down", help="leave the network (the agent stays logged in)")
    down.set_defaults(func=cmd_down)
    for item in (up, status, down):
        item.add_argument("--state-dir", default=DEFAULT_STATE_DIR)
        item.add_argument("--imitate", choices=RELEASES, default=RELEASES[0], help="the agent release to behave as")
        item.add_argument("--insecure", action="store_true", help="skip TLS verification")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return int(args.func(args))
    except AgentError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
