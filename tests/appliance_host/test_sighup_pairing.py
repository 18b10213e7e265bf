"""`systemctl reload castillo` sends SIGHUP: a real `castillo run` (in a private network
namespace, serving the network) renews its pairing code. The old code no longer pairs, the new
one does; the output says so without the code (under systemd it is the journal); the host's own
screen reads the new code; the game in play, its seats and the paired devices are untouched."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from typing import Any

from tests.app.netns import REPO, Served, castillo_run, in_ns, needs_netns, wire

# a few HTTP requests from one namespace: [method, path, body, token] each; prints
# [[status, answer], …]
REQUESTS = """
import json, sys, httpx
base, steps = sys.argv[1], json.loads(sys.argv[2])
out = []
for method, path, body, token in steps:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    reply = httpx.request(method, base + path, json=body, headers=headers, timeout=20)
    out.append([reply.status_code, reply.json()])
print(json.dumps(out))
"""
PLAYERS = ["purple", "green", "blue", "orange"]


def _requests(ns: str, base: str, *steps: list[Any]) -> list[list[Any]]:
    done = subprocess.run(
        in_ns(ns, sys.executable, "-c", REQUESTS, base, json.dumps(list(steps))),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    answer: list[list[Any]] = json.loads(done.stdout)
    return answer


def _printed_until(served: Served, wanted: str, wait_s: float = 20.0) -> list[str]:
    seen: list[str] = []
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        seen += served.more_lines(wait_s=0.5)
        if any(line.startswith(wanted) for line in seen):
            return seen
    raise AssertionError(f"no {wanted!r} line within {wait_s} s:\n" + "\n".join(seen))


@needs_netns
def test_sighup_renews_the_pairing_code_and_leaves_the_game_alone() -> None:
    with wire() as made, castillo_run(made.server_ns) as served:
        old = served.pairing_code
        here = next(u for u in served.urls() if "127.0.0.1" in u).rstrip("/")
        port = here.rsplit(":", 1)[1]
        screen = f"http://127.0.0.1:{port}"  # the host's own screen, in the server's namespace
        guest = f"http://{made.server_ip}:{port}"  # a tablet on the network
        game = {"players": PLAYERS, "mode": "dealer", "seed": 5, "short_game": True}
        (created, shown, before) = _requests(
            made.server_ns,
            screen,
            ["POST", "/api/games", game, None],
            ["GET", "/api/pairing", None, None],
            ["GET", "/api/state", None, None],
        )
        assert created[0] == 200 and shown == [200, {"code": old, "url": shown[1]["url"]}]
        seats = {s["colour"]: s["token"] for s in created[1]["seats"]}
        ((paired_status, paired),) = _requests(
            made.client_ns, guest, ["POST", "/api/pair", {"code": old}, None]
        )
        assert paired_status == 200
        token = paired["token"]

        served.proc.send_signal(signal.SIGHUP)
        said = _printed_until(served, "pairing code renewed (SIGHUP)")
        assert served.proc.poll() is None  # SIGHUP does not end the app

        (renewed, after, *seat_views) = _requests(
            made.server_ns,
            screen,
            ["GET", "/api/pairing", None, None],
            ["GET", "/api/state", None, None],
            *(["GET", f"/api/seat/{t}/state", None, None] for t in seats.values()),
        )
        new = renewed[1]["code"]
        assert renewed[0] == 200 and new and new != old
        assert not any(new in line for line in said), said  # the log holds no code
        # the game in play is untouched: same game, same revision, every seat link works
        assert after[1]["game_id"] == before[1]["game_id"] == created[1]["id"]
        assert after[1]["rev"] == before[1]["rev"]
        assert all(view[0] == 200 for view in seat_views), seat_views

        old_try, new_try, still = _requests(
            made.client_ns,
            guest,
            ["POST", "/api/pair", {"code": old}, None],
            ["POST", "/api/pair", {"code": new}, None],
            ["GET", "/api/state", None, token],  # paired before: still the table
        )
        assert old_try[0] == 403 and old_try[1]["error"] == "forbidden"
        assert new_try[0] == 200 and new_try[1]["token"]
        assert still[0] == 200 and still[1]["game_id"] == created[1]["id"]
        # the guest cannot read the code the host's screen shows
        ((refused, answer),) = _requests(made.client_ns, guest, ["GET", "/api/pairing", None, None])
        assert refused == 403 and new not in json.dumps(answer)
