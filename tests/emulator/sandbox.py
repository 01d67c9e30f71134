"""A sandbox to keep: the emulator in the foreground, with the exports to paste into another shell.

From the installed collection (the emulator is part of the artifact):

    python3 <collections>/ansible_collections/nms/overlay/tests/emulator/sandbox.py [--state-file F]

From a clone of the repository: `python3 -m tests.emulator.sandbox` (or the same file path).
See docs/getting-started.md ("Try it without a server") and tests/emulator/README.md.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:
    # started as a file: the directory holding tests/ (the collection root) makes this package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from tests.emulator.sandbox import main as _main  # pylint: disable=import-self

    sys.exit(_main())

import argparse  # noqa: E402  pylint: disable=wrong-import-position
import shlex  # noqa: E402  pylint: disable=wrong-import-position

from .dialect import DIALECTS  # noqa: E402  pylint: disable=wrong-import-position
from .persist import StateFileError, stored_dialect, stored_token  # noqa: E402  pylint: disable=wrong-import-position
from .seed import EXAMPLE_GROUPS, EXAMPLE_SETUP_KEY  # noqa: E402  pylint: disable=wrong-import-position
from .server import App, EmulatorServer, serve  # noqa: E402  pylint: disable=wrong-import-position
from .tokens import make_token  # noqa: E402  pylint: disable=wrong-import-position


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sandbox.py", description="Run the management API emulator as a sandbox until Ctrl-C (or SIGTERM).")
    parser.add_argument("--dialect", choices=DIALECTS, default=None,
                        help="netbird (default): what a deployed v0.27 server sends; current: a v0.77 server; seed: "
                             "the API specification read literally (a kept account speaks the dialect it was made in)")
    parser.add_argument("--empty", action="store_true",
                        help="start with a new account only (owner, All group, Default policy) instead of the example "
                             "content")
    parser.add_argument("--state-file", default=None,
                        help="keep the account in this file: loaded at start when it exists, written after every change "
                             "and at shutdown, so the sandbox survives a restart")
    parser.add_argument("--port", type=int, default=0, help="TCP port (default 0: a free one; give one to keep the URL)")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1, this machine only)")
    parser.add_argument("--token", default=None,
                        help="the owner's personal access token (default: the state file's, else a new one)")
    return parser.parse_args(argv)


def describe(args: argparse.Namespace, resumed: bool) -> str:
    """What the account holds and where it is kept."""
    if resumed:
        return f"the account kept in {args.state_file}, loaded; every change is written back to it"
    if args.empty:
        content = "a new account (owner, group All, policy Default)"
    else:
        groups = ", ".join(f"{name} ({', '.join(peers)})" for name, peers in EXAMPLE_GROUPS.items())
        content = f"example content: groups {groups}, setup key {EXAMPLE_SETUP_KEY!r}"
    if args.state_file:
        return f"{content}; kept in {args.state_file} (written after every change)"
    return f"{content}; kept in memory until it stops (--state-file F keeps it)"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    resumed = bool(args.state_file) and os.path.exists(args.state_file)
    try:
        token = args.token or (stored_token(args.state_file) if resumed else make_token())
        # a kept account speaks the dialect it was made in (a --dialect that differs is refused by App)
        args.dialect = args.dialect or (stored_dialect(args.state_file) if resumed else None) or "netbird"
        app = App(token, dialect=args.dialect, example=not args.empty, state_file=args.state_file)
        server = EmulatorServer(app, args.host, args.port)
    except (StateFileError, ValueError, OSError) as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        return 2
    announce = "\n".join([
        f"sandbox: management API emulator (dialect {args.dialect}) at {server.url}",
        f"sandbox: {describe(args, resumed)}",
        "sandbox: paste into another shell, then run playbooks, ad-hoc modules or ansible-inventory:",
        "",
        f"export NMS_API_URL={shlex.quote(server.url)}",
        f"export NMS_API_TOKEN={shlex.quote(token)}",
        "",
        "sandbox: stop with Ctrl-C (or SIGTERM)",
    ])
    serve(server, announce)
    print("sandbox: stopped" + (f"; the account is kept in {args.state_file}" if args.state_file else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
