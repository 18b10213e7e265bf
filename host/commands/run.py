"""`castillo run`: the table app. It serves the table UI with the real tower when a Pico is
plugged in, otherwise with the simulated tower (the real firmware in MicroPython behind a pty),
and continues the game that was in play. It serves the network (phones scan seat codes, tablets
pair with a code) on every address the machine has or gets later: it listens on all of them,
and prints the addresses again when they change; `--local` keeps it on this machine. The
connection limits (host/app/connections.py) keep any one client from taking it down."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Any

from host.app.network import BadPublicUrl, LiveReach, Reach, public_base
from host.paths import REPO_ROOT

DEFAULT_PORT = 8000
LISTEN_BACKLOG = 2048  # uvicorn's default


def default_db() -> Path:
    """./var/castillo.db in a checkout (gitignored), else $XDG_DATA_HOME/castillo/castillo.db."""
    if (REPO_ROOT / ".git").exists():
        return REPO_ROOT / "var" / "castillo.db"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "castillo" / "castillo.db"


def register(subparsers: Any) -> None:
    run = subparsers.add_parser(
        "run", help="start the table app (real tower if plugged in, else the simulated one)"
    )
    run.add_argument("--port", type=int, default=DEFAULT_PORT, help="HTTP port (0: any free)")
    tower = run.add_mutually_exclusive_group()
    tower.add_argument("--tower-port", metavar="P", help="the tower's serial port or pyserial URL")
    tower.add_argument("--sim", action="store_true", help="use the simulated tower")
    tower.add_argument("--no-tower", action="store_true", help="no tower: throw checks off")
    reach = run.add_mutually_exclusive_group()
    reach.add_argument(
        "--lan",
        action="store_true",
        help="serve the network: phones and paired tablets (the default; an address the "
        "machine gets later is served too)",
    )
    reach.add_argument(
        "--local", action="store_true", help="serve this machine only (127.0.0.1): no phones"
    )
    run.add_argument(
        "--public-url",
        metavar="URL",
        help="the address seat QR codes and the pairing link carry (e.g. "
        "http://castillo.local:8000); default: the first network address printed",
    )
    run.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the app answers to (e.g. castillo.local; repeatable); "
        "besides the loopback names, the printed network addresses and --public-url's",
    )
    store = run.add_mutually_exclusive_group()
    store.add_argument("--db", type=Path, help=f"saved games database (default {default_db()})")
    store.add_argument("--data-dir", type=Path, help="folder for the database (castillo.db)")
    for module in _game_modules():  # a game's own flags (El Caballero: --catalogue)
        module.add_run_flags(run)
    run.set_defaults(handler=run_table)


def _game_modules() -> list[Any]:
    """The games' command-line modules with flags of their own for `run`."""
    from engine import registry
    from host.commands.game import game_cli

    modules = (game_cli(game_id) for game_id in registry.ids())
    return [m for m in modules if m is not None and hasattr(m, "add_run_flags")]


def reach_lines(reach: Reach, port: int) -> list[str]:
    """What the terminal says about where devices find the app (every usable address)."""
    here = f"http://127.0.0.1:{port}/"
    if reach.mode == "local":
        lines = ["this machine only (--local): phones and tablets cannot join"]
        if reach.public_url:
            lines.append(f"seat codes carry {reach.public_url}/")
        return [*lines, f"listening on {here}"]
    if reach.mode == "none":
        return [
            "no network yet: this machine has no address but loopback; phones and tablets "
            "join as soon as it has one (no restart needed)",
            f"  {here}  (this machine: no pairing needed)",
        ]
    lines = [f"serving the network on port {port}; devices open:"]
    lines += [
        f"  http://{a.address}:{port}/  ({a.interface or 'network'})" for a in reach.addresses
    ]
    lines.append(f"  {here}  (this machine: no pairing needed)")
    lines.append(f"seat codes carry {reach.public_url}/")
    return lines


def _new_codes_on_request(access: Any) -> None:
    """The host replaces the pairing code: SIGHUP (`systemctl reload`: the log says so without
    the code, which the host's screen shows), or Enter on the app's terminal (which prints it).
    The games, the seats and paired devices are untouched. Without pairing (`--local`) SIGHUP
    only says so: it never stops the app."""

    def renew() -> None:
        if not access.lan:
            print("SIGHUP: no pairing code to renew (this machine only: --local)", flush=True)
            return
        access.new_code(announce=False)
        print("pairing code renewed (SIGHUP): the old one no longer pairs", flush=True)

    def replace(*_: Any) -> None:  # off the signal handler: the code's lock may be held there
        threading.Thread(target=renew, name="pairing-code", daemon=True).start()

    signal.signal(signal.SIGHUP, replace)
    if not access.lan or not sys.stdin.isatty():
        return

    def read_terminal() -> None:
        for _line in sys.stdin:
            access.new_code()

    threading.Thread(target=read_terminal, name="pairing-terminal", daemon=True).start()


def listen(local: bool, port: int) -> list[socket.socket]:
    """127.0.0.1 with `--local`; else every address: 0.0.0.0 and, where the machine has IPv6,
    :: on the same port. OSError if the port cannot be had."""
    if local:
        return [_listener(socket.AF_INET, "127.0.0.1", port)]
    ipv4 = _listener(socket.AF_INET, "0.0.0.0", port)
    try:
        ipv6 = _listener(socket.AF_INET6, "::", ipv4.getsockname()[1])
    except OSError:  # no IPv6 here (or the port is taken there): IPv4 alone
        return [ipv4]
    return [ipv4, ipv6]


def _listener(family: socket.AddressFamily, host: str, port: int) -> socket.socket:
    from host.app.connections import ListeningSocket

    sock = ListeningSocket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((host, port))
        # listening now, not when the server starts: the "listening on" line is printed during
        # the app's start-up, before the server listens on its sockets, and a client that
        # connects on reading it (a test, a script) would be refused (uvicorn listens again
        # with its own backlog, which only sets the size)
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def _checked_options(args: argparse.Namespace, db: Path) -> list[str] | None:
    """The options `run` checks before it opens anything, and each game's preparation (its
    notes for the start-up lines); None, with the reason printed, when one is refused."""
    try:
        if args.public_url:
            public_base(args.public_url)
    except BadPublicUrl as exc:
        print(f"castillo run: {exc}", file=sys.stderr)
        return None
    if not 0 <= args.port <= 65535:
        print(f"castillo run: --port {args.port}: give 0-65535 (0: any free port)", file=sys.stderr)
        return None
    notes: list[str] = []
    for module in _game_modules():
        try:
            notes += module.prepare_run(args, db.parent)
        except ValueError as refused:  # a game's file (El Caballero's catalogue) is refused
            print(f"castillo run: {refused}", file=sys.stderr)
            return None
    return notes


def run_table(args: argparse.Namespace) -> int:
    from host.app.access import Access, new_code
    from host.app.connections import Limits, make_server, raise_open_files_limit
    from host.app.db_files import DatabaseInUse
    from host.app.guard import BODY_CAP, WebPolicy
    from host.app.own_network import OwnNetwork
    from host.app.server import create_app
    from host.app.session import Session
    from host.app.store import SchemaTooNew, Store
    from host.app.towers import open_tower

    db = args.db or (args.data_dir / "castillo.db" if args.data_dir else default_db())
    choice = "sim" if args.sim else "none" if args.no_tower else args.tower_port or "auto"
    notes = _checked_options(args, db)
    if notes is None:
        return 2
    open_files = raise_open_files_limit()
    try:
        listeners = listen(args.local, args.port)
    except OSError as exc:
        host = "127.0.0.1" if args.local else "0.0.0.0"
        print(f"castillo run: cannot listen on {host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    port = listeners[0].getsockname()[1]
    own = OwnNetwork(db.parent)  # `castillo wifi watch` tells when the machine runs its own Wi-Fi
    reach = LiveReach(port, local=args.local, public_url=args.public_url, own=own.address)

    try:
        store = Store(db)
    except (DatabaseInUse, SchemaTooNew) as exc:
        for sock in listeners:
            sock.close()
        print(f"castillo run: {exc}", file=sys.stderr)
        return 2
    session = Session(store, checks_enabled=choice != "none")
    tower = open_tower(choice, session.sink)
    session.attach_tower(tower)
    try:
        restored = session.restore_last()
    except Exception as exc:  # a saved game this version cannot replay must not stop the app
        print(f"castillo run: the last game could not be restored ({exc}); start or pick one")
        restored = None
    lan = not args.local
    policy = WebPolicy.serving([*args.allow_host], live=reach.serves)

    def show_code(code: str) -> None:
        print(f"pairing code: {code}", flush=True)
        if reach.public_url:
            print(f"a tablet pairs by opening {reach.public_url}/?pair={code}", flush=True)

    access = Access(lan=lan, pairing_code=new_code() if lan else "")
    if lan:
        access.on_new_code = show_code
    _new_codes_on_request(access)

    def changed(now: Reach) -> None:
        print("the network changed:")
        for line in reach_lines(now, port):
            print(line)
        show_code(access.pairing_code)

    def listening() -> None:
        print(getattr(args, "engine_line", "engine: plain Python"))
        print(f"tower: {tower.mode}" + (f" ({tower.link.port})" if tower.link else ""))
        print(f"saved games: {db}")
        for note in notes:
            print(note)
        if restored is not None:
            print(f"continuing game {restored}")
        for line in reach_lines(reach.now(), port):
            print(line)
        if lan:
            show_code(access.pairing_code)
            print("a new pairing code: press Enter here (or send SIGHUP)", flush=True)
            reach.listeners.append(changed)
            reach.watch()
        sys.stdout.flush()

    app = create_app(session, access, on_listening=listening, policy=policy, reach=reach, own=own)
    server = make_server(
        app,
        Limits.for_open_files(open_files),
        listeners,
        log_level="warning",
        access_log=False,
        ws_max_size=BODY_CAP,  # a larger WebSocket message is refused before it is read
    )
    try:
        server.run(sockets=listeners)
    finally:
        session.close()
        store.close()
    return 0
