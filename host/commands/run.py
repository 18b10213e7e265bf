"""`castillo run`: the table app. It serves the table UI with the real tower when a Pico is
plugged in, otherwise with the simulated tower (the real firmware in MicroPython behind a pty),
and continues the game that was in play. It serves the network when the machine has an address
besides loopback (phones scan seat codes, tablets pair with a code), else this machine only;
`--local` keeps it on this machine."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Any

from host.app.network import BadPublicUrl, Reach, decide
from host.paths import REPO_ROOT

DEFAULT_PORT = 8000


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
        help="serve the network: phones and paired tablets (the default when the machine has "
        "a network address)",
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
    run.set_defaults(handler=run_table)


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
            "no network: this machine has no address but loopback, so phones and tablets "
            "cannot join (connect it to the network and restart)",
            f"listening on {here}",
        ]
    lines = [f"serving the network on port {port}; devices open:"]
    lines += [
        f"  http://{a.address}:{port}/  ({a.interface or 'network'})" for a in reach.addresses
    ]
    lines.append(f"  {here}  (this machine: no pairing needed)")
    lines.append(f"seat codes carry {reach.public_url}/")
    return lines


def _new_codes_on_request(access: Any) -> None:
    """The host replaces the pairing code: SIGHUP, or Enter on the app's terminal."""

    def replace(*_: Any) -> None:  # off the signal handler: the code's lock may be held there
        threading.Thread(target=access.new_code, name="pairing-code", daemon=True).start()

    signal.signal(signal.SIGHUP, replace)
    if not sys.stdin.isatty():
        return

    def read_terminal() -> None:
        for _line in sys.stdin:
            access.new_code()

    threading.Thread(target=read_terminal, name="pairing-terminal", daemon=True).start()


def run_table(args: argparse.Namespace) -> int:
    import uvicorn

    from host.app.access import Access, new_code
    from host.app.db_files import DatabaseInUse
    from host.app.guard import BODY_CAP, WebPolicy
    from host.app.server import create_app
    from host.app.session import Session
    from host.app.store import SchemaTooNew, Store
    from host.app.towers import open_tower

    db = args.db or (args.data_dir / "castillo.db" if args.data_dir else default_db())
    choice = "sim" if args.sim else "none" if args.no_tower else args.tower_port or "auto"
    try:
        reach = decide(args.port, local=args.local, public_url=args.public_url)
    except BadPublicUrl as exc:
        print(f"castillo run: {exc}", file=sys.stderr)
        return 2
    host = reach.bind_host
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, args.port))
    except OSError as exc:
        print(f"castillo run: cannot listen on {host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    listener.listen(64)
    port = listener.getsockname()[1]
    if args.port == 0 and reach.mode == "lan" and not args.public_url:
        reach = decide(port, addresses=list(reach.addresses))  # the port is known now

    try:
        store = Store(db)
    except (DatabaseInUse, SchemaTooNew) as exc:
        listener.close()
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
    lan = reach.mode == "lan"
    policy = WebPolicy.serving([*reach.host_names(), *args.allow_host])

    def show_code(code: str) -> None:
        print(f"pairing code: {code}")
        print(f"a tablet pairs by opening {reach.public_url}/?pair={code}", flush=True)

    access = Access(lan=lan, pairing_code=new_code() if lan else "")
    if lan:
        access.on_new_code = show_code
        _new_codes_on_request(access)

    def listening() -> None:
        print(getattr(args, "engine_line", "engine: plain Python"))
        print(f"tower: {tower.mode}" + (f" ({tower.link.port})" if tower.link else ""))
        print(f"saved games: {db}")
        if restored is not None:
            print(f"continuing game {restored}")
        for line in reach_lines(reach, port):
            print(line)
        if lan:
            show_code(access.pairing_code)
            print("a new pairing code: press Enter here (or send SIGHUP)", flush=True)
        sys.stdout.flush()

    app = create_app(session, access, on_listening=listening, policy=policy, reach=reach)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        ws_ping_interval=20.0,
        ws_max_size=BODY_CAP,  # a larger WebSocket message is refused before it is read
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[listener])
    finally:
        session.close()
        store.close()
    return 0
