"""The host's side of issue 22: every game's scoring announces itself (with or without the
lights), and each role's game view is computed once per revision and never mutated by a caller.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from host.app.session import Role, Session
from host.app.store import Store
from tests.app.conftest import session_step

GAMES = {
    "kingdomino": {"game": "kingdomino", "seed": 3},
    "elcaballero": {
        "game": "elcaballero",
        "players": ["red", "blue"],
        "mode": "dealer",
        "catalogue": "synthetic",
        "seed": 3,
    },
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_scoring_is_announced(tmp_path: Path, game: str) -> None:
    """Kingdomino and El Caballero draw no lights sweep: their scorings are announced all the
    same, one `scoring` message (the game's latest entry) for each change that scored
    (Kingdomino reports none: its final count is not a scoring event, and nothing is sent)."""
    session = Session(Store(tmp_path / "castillo.db"), checks_enabled=False)
    session.new_game(GAMES[game])
    told: list[dict[str, Any]] = []
    session.add_listener(
        lambda messages: told.extend(m for m in messages if m["type"] == "scoring")
    )
    active = session.active
    assert active is not None and not active.adapter.lights
    rng = random.Random(3)
    changes_that_scored = 0
    while True:
        before = len(active.adapter.scorings(active.game))
        if not session_step(session, rng):
            break
        assert session.active is active
        scorings = active.adapter.scorings(active.game)
        if len(scorings) > before:
            changes_that_scored += 1
            assert told and told[-1]["scoring"] == scorings[-1]
    assert active.game.is_terminal()
    assert changes_that_scored >= (game == "elcaballero")
    assert len(told) == changes_that_scored
    session.close()


def test_each_roles_view_is_computed_once_per_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from host.app.session import views as session_views  # here: the old app had no views

    built: list[tuple[str, str | None]] = []
    real = session_views._game_view

    def counting(active: Any, role: Role, lang: str) -> dict[str, Any]:
        built.append((role.kind, role.colour))
        return real(active, role, lang)

    monkeypatch.setattr(session_views, "_game_view", counting)
    session = Session(Store(tmp_path / "castillo.db"), checks_enabled=False)
    session.new_game(GAMES["elcaballero"])
    roles = [Role.table(), Role("seat", "red"), Role("seat", "blue")]
    built.clear()
    first = [session.state_for(role) for role in roles for _ in range(5)]
    assert sorted(built) == sorted((r.kind, r.colour) for r in roles)  # once each
    # every caller gets its own top-level dict: adding a key changes no other caller's state
    first[0]["snapshot"] = "mine"
    again = session.state_for(Role.table())
    assert "snapshot" not in again and again == first[1]
    # a change (a new revision) builds each view again, and it shows the change
    rev = session.rev
    assert session_step(session, random.Random(1))
    assert session.rev > rev
    built.clear()
    after = session.state_for(Role.table())
    assert built == [("table", None)] and after["rev"] == session.rev
    assert after["log"] != again["log"]
    # a seat's language is part of its view: a new one is seen at once
    session.set_language(Role("seat", "red"), "cs")
    assert session.state_for(Role("seat", "red"))["lang"] == "cs"
    session.close()


def test_the_seats_route_does_not_edit_the_shared_state(client: TestClient) -> None:
    created = client.post("/api/games", json=GAMES["elcaballero"]).json()
    assert created["seats"]
    urls = [s.get("url") for s in client.get("/api/seats").json()["seats"]]
    assert all(url and url.startswith("http") for url in urls), urls
    # asked again at the same revision: the address is not added twice
    assert [s.get("url") for s in client.get("/api/seats").json()["seats"]] == urls
    # and the table's state keeps the seat links as the session made them (no address)
    table = client.get("/api/state").json()
    assert [s.get("url") for s in table["seats"]] == [u[u.index("/seat/") :] for u in urls]


def test_only_a_game_with_the_tower_has_throw_checks(tmp_path: Path) -> None:
    """Kingdomino and El Caballero declare no tower: they get no `Checks` at all, and every
    piece that reads the throw checks copes (the state shows them disabled, nothing is due,
    the table's answers to an issue are refused as a bad request, the tower status works)."""
    from host.api.errors import ActionError
    from host.tower.checks import Checks

    for game in sorted(GAMES):
        (tmp_path / game).mkdir()
        session = Session(Store(tmp_path / game / "castillo.db"))
        session.new_game(GAMES[game])
        active = session.active
        assert active is not None and active.checks is None, game
        state = session.state_for(Role.table())
        assert state["checks"] == Checks((), enabled=False).public()
        assert session.next_deadline() is None and session.run_due() is False
        assert "recent" not in session.tower_status()
        for answer, args in ((session.confirm, (1, ["red"])), (session.resolve, (1, "done"))):
            with pytest.raises(ActionError) as refused:
                answer(*args)
            assert refused.value.code == "check" and "no open issue 1" in refused.value.reason
        session_step(session, random.Random(2))  # play goes on
        session.close()
    # El Grande declares it: its checks exist, enabled or not
    for enabled in (True, False):
        (tmp_path / f"elgrande-{enabled}").mkdir()
        session = Session(Store(tmp_path / f"elgrande-{enabled}" / "c.db"), checks_enabled=enabled)
        session.new_game({"game": "elgrande", "players": ["purple", "green", "blue"], "seed": 3})
        assert session.active is not None and session.active.checks is not None
        assert session.active.checks.enabled is enabled
        session.close()


def test_the_tower_code_names_no_games_pieces() -> None:
    """host/tower's throw checks take a game's words from its facts (El Grande's adapter
    supplies castillo, caballeros, Grande, Revelation): no name or string in their code says
    them (comments and docstrings may explain El Grande's use; `grande` stays as the tower's
    event kind, docs/protocol.md, and the API's issue kind)."""
    import io
    import re
    import tokenize

    words = re.compile(r"castillo|caballero|revelation|Grande", re.IGNORECASE)
    root = Path(__file__).resolve().parents[2]
    found = []
    for name in ("checks.py", "matching.py"):
        source = (root / "host" / "tower" / name).read_text()
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
        for i, token in enumerate(tokens):
            if token.type not in (tokenize.NAME, tokenize.STRING):
                continue
            previous = tokens[i - 1].type if i else tokenize.NEWLINE
            docstring = token.type == tokenize.STRING and previous in (
                tokenize.INDENT,
                tokenize.NEWLINE,
                tokenize.NL,
                tokenize.DEDENT,
            )
            text = token.string.strip("\"'")
            if docstring or text in ("grande", "grande:"):
                continue
            if words.search(text):
                found.append(f"{name}:{token.start[0]}: {token.string}")
    assert not found, found


def test_a_game_names_its_own_pieces_in_the_checks_texts() -> None:
    """The same issue in El Grande's words (its adapter's) and in a game's that names none."""
    from host.games.elgrande.tower_words import TOWER_WORDS
    from host.tower.checks import Checks, GameFacts, TowerWords

    texts = []
    for words in (TOWER_WORDS, TowerWords()):
        checks = Checks(("purple", "green"))
        facts = GameFacts(("purple", "green"), "main", 1, {}, {}, 0, "", words=words)
        checks.sync_game(facts, 0.0)
        checks.tower("grande", {}, {"grande:1": 1}, 1.0)
        (issue,) = checks.issues
        texts.append(issue.text)
    assert texts == [
        "A Grande fell into the castillo: take it out",
        "A special piece fell into the container: take it out",
    ]
