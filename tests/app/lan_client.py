"""The devices of the LAN tests, each run inside a network namespace (tests/app/netns.py); each
prints a JSON report of what it saw. Nothing but the address given is contacted.

`python -m tests.app.lan_client BASE CODE` (tests/app/test_lan_netns.py):
- the tablet: `/api/info`, a wrong code (refused), Start without a token (refused), the right
  code, then Start, the saved games and a seat's code with its token;
- the phone: the seat URL the code carries, the seat page, and its private state over the
  WebSocket.

`python -m tests.app.lan_client flood HOST PORT JSON` (tests/app/test_connection_limits.py): a
client that opens many TCP connections (from each source address in JSON's `sources`,
`per_source` of them), sends nothing on some and half a request on the others, and holds them
`hold_s` seconds; it reports when the server closed each one.

`python -m tests.app.lan_client probe URL SECONDS` (the host's own screen): GET URL on a fresh
connection every 0.1 s; the latency of each answer (null: none within 5 s).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
from typing import Any

import httpx
from websockets.sync.client import connect

GAME = {"players": ["purple", "green", "blue", "orange"], "mode": "table", "short_game": True}


def wrong_code(code: str) -> str:
    return ("0" if code[0] != "0" else "1") + code[1:]


def tablet(http: httpx.Client, code: str) -> dict[str, Any]:
    report: dict[str, Any] = {"info": http.get("/api/info").json()}
    report["wrong_code"] = http.post("/api/pair", json={"code": wrong_code(code)}).status_code
    report["start_unpaired"] = http.post("/api/games", json=GAME).status_code
    paired = http.post("/api/pair", json={"code": code})
    report["pair"] = paired.status_code
    auth = {"Authorization": f"Bearer {paired.json().get('token', '')}"}
    started = http.post("/api/games", json=GAME, headers=auth)
    report["start"] = started.status_code
    report["seats"] = started.json().get("seats", [])
    report["games"] = http.get("/api/games", headers=auth).status_code
    qr = http.get("/api/seats/purple/qr.svg", headers=auth)
    report["qr_status"], report["qr_svg"] = qr.status_code, qr.text
    return report


def phone(seat_url: str) -> dict[str, Any]:
    """What a phone does after scanning: open the URL, then the page's WebSocket."""
    page = httpx.get(seat_url, timeout=10)
    token = seat_url.rsplit("/", 1)[1]
    ws_url = seat_url.split("/seat/", 1)[0].replace("http", "ws", 1) + f"/ws?seat={token}"
    with connect(ws_url, open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        state = json.loads(ws.recv(timeout=10))
    return {
        "page": page.status_code,
        "page_type": page.headers.get("content-type", ""),
        "hello": hello,
        "seat": state["state"]["seat"],
        "hand": state["state"]["game"].get("hand"),
    }


HALF_SENT = b"GET /api/state HTTP/1.1\r\nHost: x\r\nUser-Agent: slow"  # never finished


async def _hold_one(
    host: str, port: int, source: str, half: bool, hold_s: float, out: dict[str, Any]
) -> None:
    started = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, local_addr=(source, 0)), timeout=10
        )
    except (OSError, TimeoutError):
        out["failed"] += 1
        return
    out["opened"] += 1
    if half:
        writer.write(HALF_SENT)
    closed_after: float | None = None
    try:
        # b"" (FIN), a reset, or anything the server sends: the server ended the connection
        await asyncio.wait_for(reader.read(4096), timeout=hold_s)
        closed_after = time.monotonic() - started
    except TimeoutError:
        pass
    except OSError:
        closed_after = time.monotonic() - started
    out["closed_after"].append(closed_after)
    writer.transport.abort()


async def _flood(host: str, port: int, plan: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"opened": 0, "failed": 0, "closed_after": []}
    tasks = []
    for source in plan["sources"]:
        for i in range(plan["per_source"]):
            half = i % 2 == 1
            tasks.append(_hold_one(host, port, source, half, plan["hold_s"], out))
    await asyncio.gather(*tasks)
    return out


def flood(host: str, port: int, plan: dict[str, Any]) -> dict[str, Any]:
    return asyncio.run(_flood(host, port, plan))


def probe(url: str, seconds: float) -> list[float | None]:
    """The host's screen: a GET on a fresh connection every 0.1 s."""
    latencies: list[float | None] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        try:
            answer = httpx.get(url, timeout=5)
            latencies.append(time.monotonic() - started if answer.status_code == 200 else None)
        except httpx.HTTPError:
            latencies.append(None)
        time.sleep(max(0.0, 0.1 - (time.monotonic() - started)))
    return latencies


def slow_headers(host: str, port: int, every_s: float, limit_s: float) -> dict[str, Any]:
    """A request's head sent one byte every `every_s` seconds: when the server hung up."""
    started = time.monotonic()
    with socket.create_connection((host, port), timeout=5) as conn:
        conn.settimeout(every_s)
        head = HALF_SENT + b"x" * 10_000
        for i in range(len(head)):
            if time.monotonic() - started > limit_s:
                return {"closed_after": None, "sent": i}
            try:
                conn.sendall(head[i : i + 1])
                if conn.recv(4096) == b"":
                    return {"closed_after": time.monotonic() - started, "sent": i + 1}
            except TimeoutError:
                continue
            except OSError:
                return {"closed_after": time.monotonic() - started, "sent": i}
    return {"closed_after": None, "sent": len(head)}


def main() -> None:
    if sys.argv[1] == "flood":
        print(json.dumps(flood(sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4]))))
        return
    if sys.argv[1] == "probe":
        print(json.dumps(probe(sys.argv[2], float(sys.argv[3]))))
        return
    if sys.argv[1] == "slow":
        every, limit = float(sys.argv[4]), float(sys.argv[5])
        print(json.dumps(slow_headers(sys.argv[2], int(sys.argv[3]), every, limit)))
        return
    base, code = sys.argv[1], sys.argv[2]
    with httpx.Client(base_url=base, timeout=10) as http:
        report = tablet(http, code)
    seat = next(s for s in report["seats"] if s["colour"] == "purple")
    report["phone"] = phone(seat["url"])
    print(json.dumps(report))


if __name__ == "__main__":
    main()
