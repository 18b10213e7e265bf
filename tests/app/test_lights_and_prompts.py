"""Lights as a pure function of the table's state, the prompts' state table, and the scenes
the session really sends to the tower."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine.elgrande.game import Game, Options
from host.app.session import ActionError, Role
from host.games.elgrande.prompts import game_prompt, prompt_for, prompt_texts, seat_prompt
from host.tower.checks import Checks
from host.tower.lights import LightsState, ledmap_order, palette, program, sweep_of
from tests.app.conftest import PLAYERS, Table

SEGMENTS = frozenset(
    (
        "castillo",
        "Galicia",
        "Portugal",
        "Castilla",
        "Navarra",
        "France",
        "Aragon",
        "Cataluna",
        "Valencia",
        "Toledo",
        "Granada",
        "Sevilla",
    )
)


def test_king_highlights_and_castillo() -> None:
    pal = palette()
    state = LightsState(
        king="Toledo",
        highlights=(("Aragon", "green"), ("castillo", "green"), ("Toledo", "green")),
    )
    (frame,) = program(state, SEGMENTS).loop
    assert frame.segs["Toledo"] == pal.king and "Toledo" not in frame.anim
    assert frame.segs["Aragon"] == pal.players["green"] and frame.anim["Aragon"] == "pulse"
    assert frame.segs["castillo"] == pal.players["green"]
    assert "Galicia" not in frame.segs  # not a target: dark
    assert program(state, SEGMENTS).intro == ()


def test_castillo_ring_shows_waiting_and_blocked_throws() -> None:
    pal = palette()
    waiting = program(LightsState(waiting_throw=True), SEGMENTS).loop[0]
    assert waiting.segs["castillo"] == pal.check_waiting and waiting.anim["castillo"] == "blink"
    blocked = program(LightsState(waiting_throw=True, blocked=True), SEGMENTS).loop[0]
    assert blocked.segs["castillo"] == pal.warning
    idle = program(LightsState(), SEGMENTS).loop[0]
    assert idle.segs == {"castillo": pal.castillo_idle}


def test_warning_flash_is_an_intro() -> None:
    flash = program(LightsState(king="Granada"), SEGMENTS, flash=True)
    (intro,) = flash.intro
    assert set(intro.segs) == SEGMENTS and set(intro.anim.values()) == {"blink"}
    assert flash.loop == program(LightsState(king="Granada"), SEGMENTS).loop


def test_scoring_sweep_alternates_tied_winners() -> None:
    scoring = {
        "areas": [
            {"area": "Aragón", "ranks": {"green": 1, "blue": 2}},
            {"area": "Toledo", "ranks": {"purple": 1, "orange": 1}},
            {"area": "castillo", "ranks": {}},
        ]
    }
    sweep = sweep_of(scoring, {"Aragón": "Aragon", "Toledo": "Toledo", "castillo": "castillo"})
    assert sweep == (
        ("Aragon", ("green",)),
        ("Toledo", ("orange", "purple")),
        ("castillo", ()),
    )
    frames = program(LightsState(sweep=sweep), SEGMENTS).loop
    pal = palette()
    assert len(frames) == 2 and all(f.seconds > 0 for f in frames)
    assert [f.segs["Toledo"] for f in frames] == [pal.players["orange"], pal.players["purple"]]
    assert all(f.segs["Aragon"] == pal.players["green"] for f in frames)
    assert all("castillo" not in f.segs for f in frames)


def test_unknown_segments_are_never_sent() -> None:
    frame = program(LightsState(king="Atlantis", highlights=(("Mars", "red"),)), SEGMENTS).loop[0]
    assert set(frame.segs) <= SEGMENTS


def random_states(rng_seed: int, games: int = 3) -> Iterator[Game]:
    """Every state of a few random short dealer games (the same game object, moved on)."""
    rng = random.Random(rng_seed)
    for seed in range(games):
        game = Game(Options(players=tuple(PLAYERS), mode="dealer", seed=seed, short_game=True))
        while not game.is_terminal():
            yield game
            player = rng.choice(game.current_players())
            game.apply(rng.choice(game.legal_actions(player)), player)
        yield game


def test_every_reachable_state_has_a_known_prompt() -> None:
    texts = prompt_texts()
    seen: set[str] = set()
    for game in random_states(8):
        prompt = game_prompt(game)
        seen.add(prompt.key)
        assert prompt.key in texts, f"no prompt text for {prompt.key}"
        assert "{" not in prompt.text, prompt.text
        if len(game.current_players()) == 1 and game.current_players()[0] >= 0:
            actor = game.state.colours[game.current_players()[0]]
            assert all(h.colour == actor for h in prompt.highlights)
    assert {"power", "take", "card", "main.place", "disc.general", "over"} <= seen


def test_every_seat_page_gets_its_prompt_from_the_server() -> None:
    """The seat pages' prompts come from the server's state table (the page only translates):
    a secret choice names itself, a seat with nothing to do names whom the table waits for."""
    texts = prompt_texts()
    seen: set[str] = set()
    for game in random_states(11):
        acting = game.current_players()
        seen.add(game_prompt(game).key)
        for seat in range(len(PLAYERS)):
            legal = [str(a) for a in game.legal_actions(seat)] if seat in acting else []
            own = seat_prompt(game, seat, legal)
            if own is None:
                assert legal or game.is_terminal(), "a waiting seat is told whom it waits for"
                continue
            seen.add(own.key)
            assert own.key in texts and "{" not in own.text, own.key
            if own.key == "seat.wait":
                who = {game.state.colours[p] for p in acting if p >= 0}
                assert not legal and set(own.params["who"]) == who
            if any(text.startswith("disc ") for text in legal):
                assert own.key.startswith("seat.disc")
    assert {"seat.power", "seat.wait", "seat.disc.general", "main.place_only"} <= seen


def test_a_general_scoring_disc_says_how_many_of_yours_go_and_where_the_king_sends_them() -> None:
    rng = random.Random(5)
    game = Game(Options(players=tuple(PLAYERS), mode="dealer", seed=2, short_game=True))
    while game.state.frame is None or getattr(game.state.frame, "purpose", None) != "general":
        player = rng.choice(game.current_players())
        game.apply(rng.choice(game.legal_actions(player)), player)
    for seat in game.current_players():
        legal = [str(a) for a in game.legal_actions(seat)]
        prompt = seat_prompt(game, seat, legal)
        assert prompt is not None
        own = game.state.pieces[game.state.CASTILLO][seat]
        if own:
            assert prompt.key == "seat.disc.general"
            assert prompt.params == {"castillo": own, "king": game.state.tok[game.state.king]}
            assert (
                f"your {own} caballeros" in prompt.text
                and game.state.tok[game.state.king] in prompt.text
            )
        else:
            assert prompt.key == "seat.disc.general.empty"


def test_an_open_issue_overrides_the_game_prompt() -> None:
    game = Game(Options(players=tuple(PLAYERS), mode="dealer", seed=1))
    checks = Checks(PLAYERS)
    checks.tower("grande", {"c": "green"}, {"grande:green": 1}, 1.0)
    prompt = prompt_for(game, checks)
    assert prompt.key == "check.grande" and prompt.actors == ("table",)
    assert prompt.highlights == ()


def unpack(scene: dict[str, Any]) -> dict[str, Any]:
    """A packed scene command's fields back as segs/anim (rrggbb + letter per segment)."""
    letters = {"s": "solid", "p": "pulse", "b": "blink", "w": "sweep"}
    leds, segs, anim = scene["leds"], {}, {}
    for k, name in enumerate(ledmap_order()):
        item = leds[7 * k : 7 * k + 7]
        if item[6] != "-":
            segs[name] = [int(item[i : i + 2], 16) for i in (0, 2, 4)]
            anim[name] = letters[item[6]]
    return {"segs": segs, "anim": anim}


def test_session_sends_the_scenes_to_the_tower(table: Table) -> None:
    session = table.session
    session.new_game({"players": PLAYERS, "mode": "dealer", "seed": 2})
    active = session.active
    assert active is not None
    game = active.game
    while not (game.state.phase == "main" and any(a.kind == "place" for a in game.legal_actions())):
        player = game.current_players()[0]
        legal = [a for a in game.legal_actions(player) if a.kind != "special"]
        session.act(Role("seat", game.state.colours[player]), str(legal[0]))
    actor = game.state.colours[game.current_players()[0]]
    king = game.state.tok[game.state.king]
    targets = {str(a.arg) for a in game.legal_actions() if a.kind == "place"}
    colour = list(palette().players[actor])
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        scenes = [unpack(s) for s in table.link.scenes]
        if scenes and scenes[-1]["segs"].get(next(iter(targets - {king}))) == colour:
            break
        time.sleep(0.02)
    segs = unpack(table.link.scenes[-1])["segs"]
    assert segs[king] == list(palette().king)
    for area in targets:
        assert segs[area] == colour
    with pytest.raises(ActionError):
        session.act(Role.table(), "power 99")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if any(set(unpack(s)["anim"].values()) == {"blink"} for s in table.link.scenes[-3:]):
            break
        time.sleep(0.02)
    assert any(
        set(s["anim"].values()) == {"blink"} and s["segs"].get("Toledo") == [255, 0, 0]
        for s in map(unpack, table.link.scenes)
    ), "no warning flash after a refused action"
