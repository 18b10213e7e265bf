"""Table app benchmarks over the real path.

1. Cube -> UI: a cube leaves the simulated tower's sensor (the real firmware in MicroPython
   behind a pty) -> the link -> the app's SQLite sink (fsync) -> the session -> the WebSocket
   -> a client has parsed the `state` that shows it. Target p99 <= 100 ms. The app (uvicorn,
   real sockets) runs in this process so the simulator's virtual exit time can be mapped to host
   time with a SYNC before each batch, as bench/tower_latency.py does (the mapping errs late, so
   latencies err high). The client's JSON parsing is included.
2. Host RSS during a game: `castillo run --sim` as its own process plays a whole short game
   driven over HTTP (every castillo placement thrown through the virtual dropper, issues
   resolved as a table would); its resident memory is sampled. Target <= 200 MB.
"""

from __future__ import annotations

import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from bench._sim_clock import percentile, timed_batch
from host.app.server import Access, create_app
from host.app.session import Session
from host.app.store import Store
from host.app.towers import TowerRuntime
from host.tower.sim.dropper import Dropper
from host.tower.sim.launcher import SimTower
from host.tower.sim.sensor_model import SensorModel
from host.tower.sim_link import SimTowerLink

LATENCY_TARGET_P99_MS = 100.0
RSS_TARGET_MB = 200.0
BATCHES = 10
CUBES_PER_BATCH = 10
RATE_HZ = 4.0
COLOURS = ("purple", "green", "blue", "orange")
CUBE_KINDS = ("drop", "uncertain", "merged", "grande")
PLAYERS = ["purple", "green", "blue", "orange"]
REPO = Path(__file__).resolve().parent.parent
RUN_SIM = [sys.executable, "-m", "host.cli", "run", "--sim", "--local", "--port", "0"]


class Arrivals:
    """A WebSocket client: when each cube's log line first arrived in a parsed state."""

    def __init__(self, url: str) -> None:
        self.ws = connect(url, max_size=None)
        self.lock = threading.Lock()
        self.items: list[float] = []
        self.seen = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for raw in self.ws:
                message = json.loads(raw)
                now = time.perf_counter()
                if message.get("type") != "state":
                    continue
                for line in message["state"].get("log") or []:
                    cube = line["kind"] == "tower" and line["text"] in CUBE_KINDS
                    if cube and line["n"] > self.seen:
                        self.seen = line["n"]
                        with self.lock:
                            self.items.append(now)
        except Exception:
            return

    def take(self) -> list[float]:
        with self.lock:
            items, self.items = self.items, []
        return items


def cube_to_ui(folder: Path) -> tuple[list[float], list[str]]:
    sim = SimTower.start(speed=1.0)
    store = Store(folder / "latency.db")
    session = Session(store)
    link = SimTowerLink(sim, sink=session.sink)
    session.attach_tower(TowerRuntime("sim", link, sim))
    link.start()
    link.wait_connected(10.0)
    session.new_game({"players": PLAYERS, "mode": "dealer", "seed": 1})
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(session, Access()), log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    client = Arrivals(f"ws://127.0.0.1:{port}/ws?role=table")
    latencies: list[float] = []
    discarded: list[str] = []
    model = SensorModel(seed=21)
    try:
        time.sleep(0.5)
        for batch in range(BATCHES):
            dropper = Dropper(seed=300 + batch)
            dropper.singles(CUBES_PER_BATCH, RATE_HZ, COLOURS)
            result = timed_batch(sim, dropper, model, client.take, 0.3, "updates")
            if isinstance(result, str):
                discarded.append(f"batch {batch}: {result}")
            else:
                latencies.extend(result)
    finally:
        client.ws.close()
        server.should_exit = True
        thread.join(timeout=5)
        session.close()
        store.close()
        sim.stop()
    return latencies, discarded


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def play_with_sim(http: httpx.Client, rng: random.Random, deadline: float) -> int:
    """A whole short game through the API: random legal actions, castillo throws dropped."""
    created = http.post(
        "/api/games", json={"players": PLAYERS, "mode": "dealer", "short_game": True, "seed": 8}
    ).json()
    seats = {s["colour"]: s["token"] for s in created["seats"]}
    actions = 0
    while time.monotonic() < deadline:
        state = http.get("/api/state").json()
        if state["game"]["phase"] == "over" and not state["checks"]["issues"]:
            return actions
        issues = state["checks"]["issues"]
        if issues:
            resolve(http, issues[0])
            continue
        if state["checks"]["open"] and any(o["waiting"] for o in state["checks"]["open"]):
            time.sleep(0.05)  # cubes on their way
            continue
        url, legal = "/api/action", state["legal"]
        if not legal:
            for colour in state["game"]["acting"]:
                seat = http.get(f"/api/seat/{seats[colour]}/state").json()
                if seat["legal"]:
                    url, legal = f"/api/seat/{seats[colour]}/action", seat["legal"]
                    break
        if not legal:
            time.sleep(0.05)  # the scoring check waits for the last throws
            continue
        text = rng.choice(legal)
        actor = state["acting_as"]
        answer = http.post(url, json={"text": text})
        if answer.status_code == 200:
            actions += 1
            if text in ("place castillo", "to castillo"):
                colour = (
                    actor if text == "place castillo" else str(state["game"]["step"]["picked"][0])
                )
                http.post("/api/sim/drop", json={"cubes": [colour]})
    raise TimeoutError("the game did not finish in time")


def resolve(http: httpx.Client, issue: dict[str, Any]) -> None:
    if issue["kind"] in ("empty", "recount"):
        http.post("/api/sim/gate", json={"open": True})
        time.sleep(0.3)
        http.post("/api/sim/gate", json={"open": False})
        time.sleep(0.5)
        if issue["kind"] == "empty":
            http.post("/api/resolve", json={"issue": issue["id"], "how": "done"})
        else:
            http.post("/api/resolve", json={"issue": issue["id"], "how": "skip"})
        return
    if issue["kind"] == "confirm":
        colours = [issue.get("best") or "purple"] * int(issue.get("cubes") or 1)
        http.post("/api/confirm", json={"check": issue["id"], "colours": colours})
        return
    http.post("/api/resolve", json={"issue": issue["id"], "how": issue["options"][-1]})


def host_rss(folder: Path) -> tuple[list[float], int]:
    proc = subprocess.Popen(
        [*RUN_SIM, "--data-dir", str(folder / "rss")],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    samples: list[float] = []
    stop = threading.Event()
    try:
        assert proc.stdout is not None
        base = ""
        while not base:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("castillo run did not start")
            if line.startswith("listening on "):
                base = line.split()[-1].rstrip("/")

        def sample() -> None:
            while not stop.is_set():
                samples.append(rss_mb(proc.pid))
                stop.wait(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        with httpx.Client(base_url=base, timeout=10.0) as http:
            actions = play_with_sim(http, random.Random(3), time.monotonic() + 240)
        stop.set()
        sampler.join()
    finally:
        stop.set()
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    return samples, actions


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        latencies, discarded = cube_to_ui(folder)
        samples, actions = host_rss(folder)
    if latencies:
        p50, p99 = statistics.median(latencies), percentile(latencies, 99)
        verdict = "met" if p99 <= LATENCY_TARGET_P99_MS else "MISSED"
        print(
            f"cube leaves sensor -> WebSocket state parsed: n={len(latencies)} p50={p50:.1f} ms "
            f"p99={p99:.1f} ms max={max(latencies):.1f} ms -> target p99 <= "
            f"{LATENCY_TARGET_P99_MS:.0f} ms {verdict}"
        )
    else:
        print("cube -> UI: NO SAMPLES - target NOT CHECKED")
    for reason in discarded:
        print(f"  discarded {reason}")
    peak = max(samples) if samples else 0.0
    verdict = "met" if samples and peak <= RSS_TARGET_MB else "MISSED"
    print(
        f"host RSS during a short game ({actions} actions, castillo run --sim): "
        f"median={statistics.median(samples) if samples else 0:.1f} MB peak={peak:.1f} MB "
        f"-> target <= {RSS_TARGET_MB:.0f} MB {verdict}"
    )


if __name__ == "__main__":
    main()
