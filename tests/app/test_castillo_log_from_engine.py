"""The table's log hides what the engine hides, and says each step as the engine says it
(issue 22, docs/castillo-secrecy.md).

The engine decides which history steps the public log leaves out now
(`engine.elgrande.views.hidden_steps`) and how a secret step reads (`public_step`: "?" for each
secret argument). The table's log lines carry the history index of their step (`step`) and are
filtered by it, never by their text. Before, the host matched the English text of its lines
again ("to castillo" right after a "pick " line) and stripped the engine's "?": so a pick
whose caballero went into the castillo after an undone move stayed on the log (it named the
colour the castillo gained), a pick whose caballero left the castillo's way after an undone
throw was hidden though the engine shows it, and a secret step read `deal purple` on the
table's log but `deal purple ?` in the engine's view.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.elgrande.game import Game
from engine.elgrande.verbs import VERBS
from engine.elgrande.views import hidden_steps, public_step, turn_start
from host.app.session import Role, Session
from host.app.session.model import ActiveGame
from host.app.store import Store
from host.games import adapter_for
from host.games.elgrande.secrecy import CASTILLO_STEP, public_log_lines, step_fields

PLAYERS = ["purple", "green", "blue"]


def _session(tmp_path: Path, **options: Any) -> Session:
    session = Session(Store(tmp_path / "castillo.db"), checks_enabled=False)
    body = {"game": "elgrande", "players": PLAYERS, "mode": "dealer", "seed": 4, **options}
    session.new_game(body)
    return session


def _active(session: Session) -> ActiveGame:
    active = session.active
    assert active is not None and isinstance(active.game, Game)
    return active


def _game(session: Session) -> Game:
    game = _active(session).game
    assert isinstance(game, Game)
    return game


def _act(session: Session, text: str) -> None:
    game = _game(session)
    player = game.current_players()[0]
    session.act(Role("seat", game.state.colours[player]), text)


def _random_step(session: Session, rng: random.Random) -> None:
    """One step of a random seat that acts now: the castillo often (it has to be tested)."""
    game = _game(session)
    player = rng.choice(game.current_players())
    legal = [str(a) for a in game.legal_actions(player)]
    castillo = [t for t in legal if t in ("place castillo", "to castillo")]
    text = castillo[0] if castillo and rng.random() < 0.5 else rng.choice(legal)
    session.act(Role("seat", game.state.colours[player]), text)


def _cancelled(lines: list[dict[str, Any]]) -> set[int]:
    """The `n` of the lines of steps taken back: an undo line and the latest line of its step
    before it (the test's own reading of the lines' `step`)."""
    open_lines: dict[int, list[int]] = {}
    out: set[int] = set()
    for line in lines:
        if line["kind"] == "action":
            open_lines.setdefault(line["step"], []).append(line["n"])
        elif line["kind"] == "undo":
            out.add(line["n"])
            if open_lines.get(line["step"]):
                out.add(open_lines[line["step"]].pop())
    return out


def check_log_against_engine(session: Session) -> dict[str, Any]:
    """The table's log, read as a client gets it, against the engine: the lines of the steps
    the history holds are exactly the steps the engine does not hide (from the first step the
    log still keeps), each as the engine's view says it, and no line carries the session's own
    field. Returns the table's state."""
    active, game = _active(session), _game(session)
    state = session.state_for(Role.table())
    kept = list(active.log)  # everything, hidden lines too (the session's own copy)
    steps = [line["step"] for line in kept if line["kind"] in ("action", "undo")]
    first = min(steps, default=len(game.history))
    hidden = hidden_steps(game.state)
    cancelled = _cancelled(kept)
    raw = shown_raw(session)  # the session's line of each line shown (clients' `n` differ)
    assert len(raw) == len(state["log"])
    shown = {
        mine["step"]: line
        for mine, line in zip(raw, state["log"], strict=True)
        if line["kind"] == "action" and mine["n"] not in cancelled
    }
    expected = [i for i in range(first, len(game.history)) if i not in hidden]
    assert sorted(shown) == expected, (sorted(set(shown) ^ set(expected)), sorted(hidden))
    options = game.options
    for i, line in shown.items():
        player, action = game.history[i]
        assert line["text"] == public_step(action, options), (i, line)
        assert line["actor"] == ("chance" if player < 0 else game.state.colours[player])
    # the engine's own public log: the same steps, the same words (a disc once revealed names
    # its region there; the table's log names it on its `reveal` line)
    engine_log = game.view(None)["log"]
    visible = [i for i in range(len(game.history)) if i not in hidden]
    assert len(engine_log) == len(visible)
    for i, (actor, text) in zip(visible, engine_log, strict=True):
        if i in shown and not (text.startswith("disc ") and text != "disc ?"):
            assert [actor, text] == [shown[i]["actor"], shown[i]["text"]], i
    # the session's bookkeeping: with the castillo closed the steps of the lines shown would
    # tell where one was left out; no client gets them, whatever the options
    assert not [line for line in state["log"] if CASTILLO_STEP in line or "step" in line]
    return state


def shown_raw(session: Session) -> list[dict[str, Any]]:
    """The session's own lines (their `step`, their `n` as logged) of the window's lines every
    client is shown, in order."""
    active = _active(session)
    lines = active.lines()
    kept = {line["n"] for line in public_log_lines(_game(session), lines)}
    first = active.log[0]["n"]
    return [line for line in lines if line["n"] in kept and line["n"] >= first]


@pytest.mark.parametrize("open_castillo", [False, True], ids=["closed", "open"])
def test_the_tables_log_shows_the_steps_the_engine_shows_in_its_words(
    tmp_path: Path, open_castillo: bool
) -> None:
    """Random play with Power Shift (secret passes) and many castillo throws: after every
    step the table's log and the engine's view agree on which steps are shown and on how each
    reads."""
    session = _session(
        tmp_path,
        power_shift=True,
        open_castillo=open_castillo,
    )
    rng = random.Random(7)
    secret_lines: set[str] = set()
    for _ in range(260):
        if _game(session).is_terminal():
            break
        _random_step(session, rng)
        state = check_log_against_engine(session)
        secret_lines |= {
            line["text"].split()[0]
            for line in state["log"]
            if line["kind"] == "action" and line["text"].endswith(" ?")
        }
    game = _game(session)
    assert {"pass", "disc"} <= secret_lines, secret_lines  # the redacted forms met
    throws = [a for _, a in game.history if str(a) in ("place castillo", "to castillo")]
    assert len(throws) >= 3
    if not open_castillo:
        assert hidden_steps(game.state)  # earlier turns' throws were left out


def _until_a_move_may_end_in_the_castillo(session: Session, rng: random.Random) -> str:
    """Play on at random until a caballero is picked whose move may end in the castillo or in
    a region; the region."""
    for _ in range(3000):
        game = _game(session)
        assert not game.is_terminal(), "no move to the castillo offered"
        player = game.current_players()[0]
        legal = [str(a) for a in game.legal_actions(player)]
        regions = [t for t in legal if t.startswith("to ") and t != "to castillo"]
        if game.history[-1][1].kind == "pick" and "to castillo" in legal and regions:
            return regions[0]
        # no castillo throws before: the turn under test makes the only one
        choices = [t for t in legal if "castillo" not in t] or legal
        session.act(Role("seat", game.state.colours[player]), rng.choice(choices))
    raise AssertionError("no move to the castillo offered")


def _end_the_turn(session: Session, rng: random.Random) -> None:
    game = _game(session)
    turn = game.state.turn
    while game.state.turn is turn:
        legal = [str(a) for a in game.legal_actions(game.current_players()[0])]
        quiet = [t for t in ("skip", "done") if t in legal]
        others = [t for t in legal if "castillo" not in t] or legal
        _act(session, quiet[0] if quiet else rng.choice(others))


@pytest.mark.parametrize(
    ("tried", "final"),
    [("region", "to castillo"), ("to castillo", "region")],
    ids=["undone-move-then-castillo", "undone-castillo-then-move"],
)
def test_a_picks_line_follows_where_its_caballero_went(
    tmp_path: Path, tried: str, final: str
) -> None:
    """A move tried, taken back and made again elsewhere: once the turn is over the pick is
    hidden exactly when its caballero went into the castillo (it names the colour the castillo
    gained), the undone throw's lines are hidden, the undone move's lines are not."""
    session = _session(tmp_path)
    rng = random.Random(11)
    region = _until_a_move_may_end_in_the_castillo(session, rng)
    game = _game(session)
    active = _active(session)
    pick_step = len(game.history) - 1
    pick_line = active.log[-1]
    assert pick_line["kind"] == "action" and pick_line["text"].startswith("pick ")
    first, second = (region if m == "region" else m for m in (tried, final))
    _act(session, first)
    colour = game.state.colours[game.current_players()[0]]
    session.undo(Role("seat", colour))
    _act(session, second)
    assert pick_line in shown_raw(session)  # heard during the turn
    _end_the_turn(session, rng)
    after = session.state_for(Role.table())
    raw = shown_raw(session)
    shown = [
        (line["kind"], line["text"])
        for mine, line in zip(raw, after["log"], strict=True)
        if mine["n"] > pick_line["n"]
    ]
    into_castillo = final == "to castillo"
    assert (pick_line in raw) != into_castillo
    assert ("action", "to castillo") not in shown and ("undo", "to castillo") not in shown
    assert ("action", region) in shown  # a move to a region is no secret, taken back or not
    assert (("undo", region) in shown) == (tried == "region")
    assert (pick_step in hidden_steps(game.state)) == into_castillo
    check_log_against_engine(session)


def test_a_confirmed_throw_is_left_out_once_its_turn_is_over(tmp_path: Path) -> None:
    """The table's `confirm` corrections are of the throws just made: left out with them once
    the turn is over, by where they stand among the lines of the steps; a resolve line stays."""
    session = _session(tmp_path)
    rng = random.Random(11)
    _until_a_move_may_end_in_the_castillo(session, rng)
    game = _game(session)
    start = turn_start(game.state)
    assert start < len(game.history)
    lines: list[dict[str, Any]] = []
    n = 0

    def note(kind: str, text: str, **extra: Any) -> None:
        nonlocal n
        n += 1
        lines.append({"n": n, "kind": kind, "actor": "table", "text": text, **extra})

    for i, (_player, action) in enumerate(game.history):
        if i == start:
            note("correction", "confirm purple")  # a throw of the turn before
            note("correction", "accept_game", note="")
        fields = step_fields(action)
        note("action", public_step(action, game.options), step=i, **fields)
    note("correction", "confirm green")  # this turn's
    shown = [line["text"] for line in public_log_lines(game, lines)]
    assert "confirm purple" not in shown and "confirm green" in shown
    assert "accept_game" in shown
    assert [line for line in public_log_lines(game, lines) if CASTILLO_STEP in line] == []


def test_the_redacted_form_is_one() -> None:
    """Every secret step reads the same wherever it is shown: the engine's view, the table's
    log and its undo lines ("?" for each secret argument)."""
    adapter = adapter_for(registry.get("elgrande"))
    for text in ("deal purple sun", "disc Toledo", "pass 7", "powerback 3", "remove 2 ?"):
        action = VERBS.parse(text)
        assert adapter.public_text(action) == public_step(action), text
        assert public_step(action).endswith(" ?") and public_step(action).count("?") == 1
