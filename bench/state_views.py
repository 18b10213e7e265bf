"""Each role's state once per revision (issue 22): the time to serve the table's and every
seat's state to N clients each after one change, with the per-revision view cache and without
it (every state built afresh, as before the cache), measured side by side (alternating rounds,
so the shared machine's load weighs on both alike): the ratio is the figure, not the seconds.

`python -m bench state_views [--json]`
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from host.app.session import Role, Session
from host.app.session.model import ActiveGame
from host.app.session.views import ViewCache, _game_view
from host.app.store import Store

CLIENTS = 4  # clients per role (a table tablet and each seat's phone, some reconnecting)
ROUNDS = 100  # changes measured, alternating cached and uncached
GAME = {
    "game": "elgrande",
    "players": ["purple", "green", "blue", "red"],
    "mode": "dealer",
    "seed": 3,
    "short_game": True,
}


class NoCache(ViewCache):
    """Every state built afresh (the app before the cache)."""

    def get(self, session: Session, active: ActiveGame, role: Role) -> dict[str, Any]:
        return _game_view(active, role, session.table_lang)


def _serve(session: Session, roles: list[Role]) -> float:
    """One change (a new revision), then every client's state: the seconds it took."""
    with session.lock:
        session.rev += 1
    started = time.perf_counter()
    for role in roles:
        for _ in range(CLIENTS):
            session.state_for(role)
    return time.perf_counter() - started


def measure() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(Store(Path(tmp) / "bench.db"), checks_enabled=False)
        session.new_game(GAME)
        active = session.active
        assert active is not None
        rng = random.Random(1)
        for _ in range(12):  # into the game: a log, cards, discs
            table = session.state_for(Role.table())
            if not table["legal"]:
                break
            session.act(Role.table(), rng.choice(table["legal"]))
        roles = [Role.table(), *(Role("seat", c) for c in active.seats)]
        cached, uncached = ViewCache(), NoCache()
        times: dict[str, float] = {"cached": 0.0, "uncached": 0.0}
        for n in range(ROUNDS):
            for name, cache in (("cached", cached), ("uncached", uncached))[:: 1 if n % 2 else -1]:
                session.views = cache
                times[name] += _serve(session, roles)
        session.close()
    served = ROUNDS * CLIENTS * len(roles)
    return {
        "states_per_change": CLIENTS * len(roles),
        "changes": ROUNDS,
        "uncached_ms_per_change": round(1000 * times["uncached"] / ROUNDS, 2),
        "cached_ms_per_change": round(1000 * times["cached"] / ROUNDS, 2),
        "ratio_uncached_to_cached": round(times["uncached"] / times["cached"], 2),
        "states_served": served,
    }


def main(*flags: str) -> None:
    result = measure()
    if "--json" in flags:
        print(json.dumps(result))
        return
    print(
        f"{result['states_per_change']} states after each of {result['changes']} changes "
        f"(shared load: compare the ratio): uncached {result['uncached_ms_per_change']} ms, "
        f"cached {result['cached_ms_per_change']} ms, ratio {result['ratio_uncached_to_cached']}"
    )


if __name__ == "__main__":
    main()
