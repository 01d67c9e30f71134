"""`python -m tests.emulator --port PORT --token TOKEN ...`: run the emulator until SIGTERM/SIGINT."""

from __future__ import annotations

import argparse
import sys

from .dialect import DIALECTS
from .faults import parse_cli
from .seed import SEED_SIZES
from .server import App, EmulatorServer, serve


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.emulator", description="Management API emulator")
    parser.add_argument("--port", type=int, default=0, help="TCP port, 0 picks a free one")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (loopback only by default)")
    parser.add_argument("--token", required=True, help="PAT of the seeded owner user")
    parser.add_argument("--dialect", choices=DIALECTS, default="seed")
    parser.add_argument("--faults", default="", help="rate=0.2,kinds=503+429+drop+slow+500,seed=7,retry_after=1,slow=3.0")
    parser.add_argument("--seed-size", choices=sorted(SEED_SIZES), default=None)
    parser.add_argument("--seed", type=int, default=1, help="RNG seed for ids and generated values")
    idp = parser.add_mutually_exclusive_group()
    idp.add_argument("--idp", dest="idp", action="store_true", default=None,
                     help="an identity provider (the default of the seed dialect): user invites work")
    idp.add_argument("--no-idp", dest="idp", action="store_false",
                     help="no identity provider (the default of the netbird dialect, as a self-hosted server without "
                          "one): user invites fail with 412")
    parser.add_argument("--no-geo", action="store_true", help="no geo database: locations and geo checks fail with 412")
    parser.add_argument("--fresh", action="store_true",
                        help="no account yet, as a v0.77 server before its setup (POST /api/setup makes the owner; "
                             "--token is then no one's); a reset returns to that")
    parser.add_argument("--tls-cert", default=None)
    parser.add_argument("--tls-key", default=None)
    parser.add_argument("--state-file", default=None,
                        help="keep the account in this file: loaded at start when it exists, written after every change")
    parser.add_argument("--rate-limit", default=None, metavar="RPM[,BURST]", type=_rate_limit,
                        help="limit PAT requests per token as v0.77 does with NB_API_RATE_LIMITING_ENABLED (429 "
                             "`too many requests`; User-Agents with 'terraform' exempt); BURST defaults to 500")
    return parser.parse_args(argv)


def _rate_limit(text: str) -> tuple[float, int]:
    rpm, _sep, burst = text.partition(",")
    try:
        limit = (float(rpm), int(burst or 500))
    except ValueError:
        raise argparse.ArgumentTypeError("--rate-limit is RPM[,BURST], two positive numbers") from None
    if limit[0] <= 0 or limit[1] <= 0:
        raise argparse.ArgumentTypeError("--rate-limit is RPM[,BURST], two positive numbers")
    return limit


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if bool(args.tls_cert) != bool(args.tls_key):
        print("--tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    try:
        app = App(args.token, dialect=args.dialect, seed_size=args.seed_size, idp=args.idp,
                  geo=not args.no_geo, seed=args.seed, state_file=args.state_file, rate_limit=args.rate_limit, fresh=args.fresh)
        if args.faults:
            app.faults.configure(parse_cli(args.faults))
        server = EmulatorServer(app, args.host, args.port, args.tls_cert, args.tls_key)
    except (ValueError, OSError) as exc:
        print(f"emulator: {exc}", file=sys.stderr)
        return 2
    return serve(server, f"ready {server.url}")


if __name__ == "__main__":
    sys.exit(main())
