"""A fake agent: `python -m tests.emulator.agent up|status|down` joins a peer through the emulator.

The setup key comes from `--setup-key-file`, the env `NB_SETUP_KEY` or `--setup-key`; it is never
printed. The joined peer is remembered in `<state-dir>/state.json`.

`status --json` mirrors the real agent (`netbird status --json`): when joined, a JSON object with
`netbirdIp` (the overlay address with its prefix length, e.g. `100.64.0.5/16`), `fqdn`, `publicKey`,
`management` (`url`, `connected`) and a few more fields; when not joined, the plain text
`Daemon status: NeedsLogin` (not JSON), exit code 0 - as the real agent does when it is not logged in.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import ssl
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .state import DNS_DOMAIN, NETWORK

VERSION = "0.36.0-emulator"
DEFAULT_STATE_DIR = "~/.config/nms-agent"
STATE_FILE = "state.json"


class AgentError(Exception):
    """A failure reported as one clear line and exit code 1."""


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


def _setup_key(args: argparse.Namespace) -> str:
    if args.setup_key_file:
        try:
            key = Path(args.setup_key_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise AgentError(f"cannot read setup key file {args.setup_key_file}: {exc.strerror}") from exc
    else:
        key = os.environ.get("NB_SETUP_KEY", "") or (args.setup_key or "")
    if not key:
        raise AgentError("no setup key: use --setup-key-file, NB_SETUP_KEY or --setup-key")
    return key


def _base_url(url: str) -> str:
    url = url.rstrip("/")
    return url[:-4] if url.endswith("/api") else url


def _post(url: str, payload: dict[str, Any], insecure: bool) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
    context = ssl._create_unverified_context() if insecure else None  # pylint: disable=protected-access
    try:
        with urllib.request.urlopen(request, timeout=30, context=context) as response:
            return json.loads(response.read().decode() or "{}")
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read().decode()).get("message", exc.reason)
        except ValueError:
            message = exc.reason
        raise AgentError(f"management server refused to enroll (HTTP {exc.code}): {message}") from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise AgentError(f"cannot reach management server {url}: {reason}") from exc


def cmd_up(args: argparse.Namespace) -> int:
    current = load_state(args.state_dir)
    if current is not None:
        print(f"already joined as {current['hostname']} ({current['ip']})")
        return 0
    key = _setup_key(args)
    payload = {"setup_key": key, "hostname": args.hostname, "os": args.os}
    peer = _post(_base_url(args.management_url) + "/_emulator/enroll", payload, args.insecure)
    # peer_id stays internal: the real agent does not know it, callers find the peer by its address
    state = {"peer_id": peer["id"], "ip": peer["ip"], "hostname": args.hostname,
             "dns_label": peer.get("dns_label", ""), "management_url": _base_url(args.management_url),
             "public_key": base64.b64encode(os.urandom(32)).decode()}
    path = _state_path(args.state_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
    print(f"joined as {args.hostname} ({peer['ip']})")
    print("Connected")
    return 0


def _fqdn(state: dict[str, Any]) -> str:
    label = str(state.get("dns_label") or state.get("hostname") or "")
    if not label or "." in label:
        return label
    return f"{label}.{DNS_DOMAIN}"


def status_document(state: dict[str, Any]) -> dict[str, Any]:
    """What `netbird status --json` prints for a logged-in daemon (the fields the roles may read)."""
    management = state.get("management_url", "")
    return {
        "peers": {"total": 0, "connected": 0, "details": []},
        "cliVersion": VERSION,
        "daemonVersion": VERSION,
        "management": {"url": management, "connected": True, "error": ""},
        "signal": {"url": management, "connected": True, "error": ""},
        "relays": {"total": 0, "available": 0, "details": []},
        "netbirdIp": f"{state['ip']}/{NETWORK.prefixlen}",
        "publicKey": state.get("public_key", ""),
        "usesKernelInterface": False,
        "fqdn": _fqdn(state),
        "quantumResistance": False,
        "quantumResistancePermissive": False,
        "networks": [],
        "forwardingRules": 0,
        "dnsServers": [],
        "events": [],
    }


def cmd_status(args: argparse.Namespace) -> int:
    state = load_state(args.state_dir)
    if state is None:
        # the real agent prints this text (not JSON, also with --json) and exits 0
        print("Daemon status: NeedsLogin")
        print()
        print("Run UP command to log in with a setup key:")
        print()
        print(" up --setup-key-file FILE")
        return 0
    document = status_document(state)
    if args.json:
        print(json.dumps(document, indent=2))
        return 0
    print(f"Daemon version: {document['daemonVersion']}")
    print(f"CLI version: {document['cliVersion']}")
    print(f"Management: Connected to {document['management']['url']}")
    print(f"Signal: Connected to {document['signal']['url']}")
    print(f"FQDN: {document['fqdn']}")
    print(f"NetBird IP: {document['netbirdIp']}")
    print("Interface type: Userspace")
    print("Peers count: 0/0 Connected")
    return 0


def cmd_down(args: argparse.Namespace) -> int:
    path = _state_path(args.state_dir)
    if path.exists():
        path.unlink()
        print("left the network")
    else:
        print("not joined")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.emulator.agent", description="Fake agent for the emulator")
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("up", help="join the network with a setup key")
    up.add_argument("--management-url", required=True)
    up.add_argument("--setup-key-file", default=None)
    up.add_argument("--setup-key", default=None, help="discouraged: visible in the process list")
    up.add_argument("--hostname", required=True)
    up.add_argument("--os", default="linux")
    up.add_argument("--insecure", action="store_true", help="skip TLS verification")
    up.set_defaults(func=cmd_up)
    status = sub.add_parser("status", help="show the joined peer")
    status.add_argument("--json", action="store_true")
    status.set_defaults(func=cmd_status)
    down = sub.add_parser("down", help="forget the joined peer")
    down.set_defaults(func=cmd_down)
    for item in (up, status, down):
        item.add_argument("--state-dir", default=DEFAULT_STATE_DIR)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return int(args.func(args))
    except AgentError as exc:
        print(f"nms-agent: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
