"""The `castillo` command line: each subcommand group lives in `host.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules in host.commands that contribute subcommands, in help order.
COMMAND_MODULES: tuple[str, ...] = (
    "run",
    "game",
    "move",
    "tower",
    "doctor",
    "score",
    "tower_sim",
    "kiosk",
    "wifi",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="castillo", description="The Castillo kit for El Grande.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"host.commands.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # before any command imports the engine: the compiled build when it is current
    from host import engine_build

    try:
        engine_line = engine_build.choose()
    except engine_build.EngineChoiceError as exc:
        print(f"castillo: {exc}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    args.engine_line = engine_line
    handler = args.handler
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
