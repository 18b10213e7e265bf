"""`castillo tower-sim`: run the simulated tower (real firmware in MicroPython behind a pty).

- no options: start it and print the device path; it runs until Ctrl-C;
- ``--trace FILE [--calibrate-first K] [--json]``: calibrate from the first K labelled cubes of
  each colour, play the rest through the firmware and print how it counted (FILE: a regular
  file of at most 64 MiB, read by the rules for users' files, engine/core/userfiles.py);
- ``--make-trace FILE``: write a synthetic labelled trace from the sensor model.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from engine.core import userfiles
from host.tower.sim.gen_trace import synthetic_trace
from host.tower.sim.launcher import SimTower
from host.tower.sim.runner import run_trace
from host.tower.sim.trace import parse_csv, write_csv

# A trace is one CSV row (some 30 bytes) per sensor sample: a long recording is a few MiB.
MAX_TRACE_BYTES = 64 << 20


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "tower-sim", help="run the simulated castillo tower on a pty, or replay a sensor trace"
    )
    p.add_argument("--trace", type=Path, help="CSV trace t_us,r,g,b,c,beam,label to replay")
    p.add_argument(
        "--calibrate-first",
        type=int,
        default=0,
        metavar="K",
        help="calibrate from the first K labelled cubes of each colour in the trace",
    )
    p.add_argument("--json", action="store_true", help="print the trace result as JSON")
    p.add_argument("--make-trace", type=Path, metavar="FILE", help="write a synthetic trace")
    p.add_argument("--cubes", type=int, default=200, help="cubes in a synthetic trace")
    p.add_argument("--rate", type=float, default=5.0, help="cubes per second (synthetic trace)")
    p.add_argument("--handfuls", type=int, default=0, help="handfuls of 6 (synthetic trace)")
    p.add_argument("--seed", type=int, default=1, help="random seed (synthetic trace)")
    p.add_argument(
        "--speed",
        type=float,
        default=None,
        help="run virtual time at this multiple of real time (default: fast while cubes fall)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.make_trace is not None:
        rows = synthetic_trace(args.cubes, args.rate, args.seed, handfuls=args.handfuls)
        write_csv(rows, args.make_trace)
        print(f"{args.make_trace}: {len(rows)} rows")
        return 0
    if args.trace is not None:
        try:
            rows = parse_csv(userfiles.read_text(args.trace, MAX_TRACE_BYTES))
        except userfiles.UnreadableFile as refused:
            print(f"tower-sim: {refused}", file=sys.stderr)
            return 2
        except ValueError as exc:
            print(f"tower-sim: cannot read {args.trace}: {exc}", file=sys.stderr)
            return 2
        result = run_trace(rows, args.calibrate_first, {"speed": args.speed})
        if args.json:
            print(json.dumps(result.as_dict()))
        else:
            for key, value in result.as_dict().items():
                print(f"{key:10} {value}")
        return 0
    with SimTower.start(speed=args.speed) as tower:
        print(tower.port, flush=True)
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            return 0
