"""The side-by-side bench against the Java agent (bench/kingdomino_java.py): without the agent it
says why in one line and never fails `make bench`; a bad option gets one clear line; our side
decides at seat 0's turns 2, 6 and 10 and counts its playouts."""

from __future__ import annotations

import pytest

from bench import kingdomino_java as bench
from engine.kingdomino.game import PLACE


def test_without_the_agent_it_says_why_and_returns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(bench.ENV, raising=False)
    bench.main()
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [
        f"kingdomino_java skipped: {bench.ENV} is not set (a built "
        "github.com/mgedda/kdom-ai and fastutil's jar)"
    ]


def test_a_class_path_naming_nothing_is_said_so() -> None:
    reason = bench.why_skipped("/no/such/kingdominoplayer.jar")
    assert reason == f"{bench.ENV} names what does not exist: /no/such/kingdominoplayer.jar"


@pytest.mark.parametrize(
    ("flag", "said"),
    [
        ("--runs=x", "invalid literal"),
        ("--runs=0", "--runs must be 1..100"),
        ("--speed=2", "unknown option(s) --speed"),
    ],
)
def test_a_bad_option_gets_one_line(
    flag: str, said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(bench.ENV, "/no/such.jar")
    bench.main(flag)
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("kingdomino_java: ") and said in out[0]


def test_the_stages_are_seat_0s_turns_2_6_10_with_a_placement_to_make() -> None:
    positions = bench._positions(3)
    assert len(positions) == 3
    dominoes = []
    for game in positions:
        assert game.current_players() == (0,) and game.state.step == PLACE
        dominoes.append(game.state.kingdoms[0].dominoes)
    # one domino placed a turn from turn 2 on, at most (a domino that fits nowhere is discarded)
    assert dominoes[0] == 0 and 0 < dominoes[1] <= 4 and 4 < dominoes[2] <= 8


def test_our_side_counts_playouts_at_each_stage() -> None:
    result = bench._ours(seconds=0.05, games=1, warmup=0.0, seed=1)
    for stage in bench.STAGES:
        playouts, wall, cpu = result[stage]
        assert playouts > 0 and wall > 0 and cpu >= 0
