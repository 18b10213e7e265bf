"""`castillo move` and the computer player's `choose(state, seat)`: the interface for outside
harnesses (issue 24). The move printed is legal for the acting seat, read from a file or stdin;
`choose` thinks on a private copy (the state passed in, and a dealer game's future draws, are
untouched); every refusal is one line on stderr and exit code 2."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.core.protocol import CHANCE
from engine.core.record import to_record
from engine.core.spec import SeatNotActing
from engine.kingdomino.game import Game
from engine.kingdomino.options import Options
from host.cli import main

KINGDOMINO = registry.get("kingdomino")


def random_game(steps: int, mode: str = "dealer", seed: int = 3) -> Game:
    """A two-seat Kingdomino game after `steps` random player actions (chance drawn by the
    dealer, or at random in table mode)."""
    game = Game(Options(players=("pink", "blue"), mode=mode, seed=seed))
    rng = random.Random(seed)
    done = 0
    while not game.is_terminal() and (steps < 0 or done < steps):
        actor = game.current_players()[0]
        legal = game.legal_actions(actor)
        game.apply(legal[rng.randrange(len(legal))], actor)
        done += actor != CHANCE
    return game


def write(tmp_path: Path, game: Any, spec: Any = KINGDOMINO) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(to_record(spec, game)), encoding="utf-8")
    return path


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    for word in words:
        assert word in captured.err, captured.err


@pytest.mark.parametrize("strength", [["--level", "1"], ["--level", "3"], ["--seconds", "0.05"]])
def test_move_prints_a_legal_action_of_the_acting_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strength: list[str]
) -> None:
    game = random_game(9)
    (seat,) = game.current_players()
    colour = game.seat_names()[seat]
    path = write(tmp_path, game)
    assert main(["move", "--game", "kingdomino", "--seat", colour, *strength, str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert game.is_legal(seat, out.strip()), out
    assert out.strip() in {str(action) for action in game.legal_actions(seat)}


def test_move_reads_the_record_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = random_game(14)
    (seat,) = game.current_players()
    record = json.dumps(to_record(KINGDOMINO, game)).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(record), encoding="utf-8"))
    colour = game.seat_names()[seat]
    assert main(["move", "--game", "kingdomino", "--seat", colour, "--level", "2", "-"]) == 0
    assert game.is_legal(seat, capsys.readouterr().out.strip())


@pytest.mark.parametrize("level", [1, 2, 3])
def test_choose_leaves_the_state_and_its_future_draws_alone(level: int) -> None:
    game, twin = random_game(9), random_game(9)
    (seat,) = game.current_players()
    before, history = json.dumps(game.snapshot(), sort_keys=True), list(game.history)
    action = KINGDOMINO.computer(level).choose(game, seat)
    assert json.dumps(game.snapshot(), sort_keys=True) == before
    assert game.history == history
    assert game.is_legal(seat, action)
    # The dealer's next draws are the ones the twin (never thought on) deals.
    for state in (game, twin):
        state.apply(str(action), seat)
    while len(game.history) < len(history) + 12 and not game.is_terminal():
        actor = game.current_players()[0]
        step = game.legal_actions(actor)[0]
        game.apply(step, actor)
        twin.apply(str(step), actor)
    assert [str(a) for _, a in game.history] == [str(a) for _, a in twin.history]
    assert game.snapshot() == twin.snapshot()


def test_choose_refuses_a_seat_that_does_not_act() -> None:
    game = random_game(9)
    (seat,) = game.current_players()
    with pytest.raises(SeatNotActing, match="does not act now"):
        KINGDOMINO.computer(1).choose(game, 1 - seat)
    finished = random_game(-1)
    assert finished.is_terminal()
    with pytest.raises(SeatNotActing, match="the game is over"):
        KINGDOMINO.computer(1).choose(finished, 0)


def test_move_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = random_game(9)
    (seat,) = game.current_players()
    path = str(write(tmp_path, game))
    other = game.seat_names()[1 - seat]
    base = ["move", "--game", "kingdomino", "--level", "1"]
    refused(capsys, [*base, "--seat", other, path], f"{other} does not act now")
    refused(capsys, [*base, "--seat", "green", path], "no seat 'green'", "pink, blue")
    refused(capsys, ["move", "--game", "chess", "--seat", "pink", path], "unknown game 'chess'")
    refused(capsys, [*base[:3], "--level", "9", "--seat", other, path], "levels are 1, 2, 3, 4, 5")
    refused(capsys, [*base[:3], "--seconds", "0", "--seat", other, path], "--seconds")
    refused(capsys, [*base[:3], "--seconds", "nan", "--seat", other, path], "--seconds")
    refused(capsys, [*base[:3], "--seconds", "1e9", "--seat", other, path], "at most 600")
    refused(capsys, [*base, "--seat", other, str(tmp_path / "none.json")], "cannot read")
    (tmp_path / "list.json").write_text("[]", encoding="utf-8")
    refused(capsys, [*base, "--seat", other, str(tmp_path / "list.json")], "JSON object")
    broken = to_record(KINGDOMINO, game)
    broken["actions"].append([other, "claim 99"])
    (tmp_path / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    refused(capsys, [*base, "--seat", other, str(tmp_path / "broken.json")], "does not replay")
    finished = write(tmp_path, random_game(-1))
    refused(capsys, [*base, "--seat", "pink", str(finished)], "the game is over")


def test_move_refuses_a_chance_step_in_table_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(Options(players=("pink", "blue"), mode="table", seed=1))
    assert game.current_players() == (CHANCE,)
    path = str(write(tmp_path, game))
    refused(
        capsys,
        ["move", "--game", "kingdomino", "--seat", "pink", "--level", "1", path],
        "a chance step",
    )


def test_move_refuses_a_record_of_another_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = registry.get("elgrande")
    path = write(tmp_path, spec.new_state(spec.test_options(4)[0]), spec)
    refused(
        capsys,
        ["move", "--game", "kingdomino", "--seat", "pink", "--level", "1", str(path)],
        "the record is of El Grande, not Kingdomino",
    )


def test_games_without_a_computer_player_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.engine.platform.nim import SPEC as NIM  # the test-only game: no computer player

    game_id = NIM.id
    registry.register(NIM)
    try:
        spec = registry.get(game_id)
        state = spec.new_state(spec.test_options(2)[0])
        path = write(tmp_path, state, spec)
        colour = state.seat_names()[0]
        refused(
            capsys,
            ["move", "--game", game_id, "--seat", colour, str(path)],
            f"{spec.title} has no computer player yet",
        )
    finally:
        registry.unregister(NIM)
