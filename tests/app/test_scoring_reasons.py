"""Scoring breakdowns carry their reasons as translation keys and parameters (issue "One kit,
many games": the client translates keys, it never parses English), and areas carry tokens."""

from __future__ import annotations

import pytest

from engine.elgrande.scoring import NOTE_TEXTS, score_area
from tests.app.ui_strings import page_strings, placeholders

LANGUAGES = ("en", "cs", "pl", "uk")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_key_has_its_text_with_the_same_parameters(lang: str) -> None:
    table = page_strings(lang)
    for key, english in NOTE_TEXTS.items():
        assert key in table, f"{lang}: {key} missing"
        assert placeholders(table[key]) == placeholders(english), (lang, key)


def test_a_tied_first_place_with_the_king_says_so_as_a_key() -> None:
    result = score_area(
        "Aragón", {"blue": 2, "green": 2}, (5, 4, 1), king_here=True, token="Aragon"
    )
    out = result.to_json()
    assert out["token"] == "Aragon" and out["area"] == "Aragón"
    assert out["why"] == [{"key": "note.king_tied", "params": {}}]
    assert out["notes"] == ["no King bonus: first place is tied"]


def test_a_grande_bonus_lost_names_its_owner_as_a_parameter() -> None:
    result = score_area(
        "Sevilla", {"blue": 1, "orange": 3}, (4, 3, 1), grandes_here=["blue"], token="Sevilla"
    )
    assert result.to_json()["why"] == [
        {"key": "note.grande_notfirst", "params": {"colour": "blue"}}
    ]


def test_the_score_cli_gives_keys_for_the_dummy_too() -> None:
    from engine.elgrande.position import score_position

    raw = {
        "players": ["purple", "green"],
        "dummy": "blue",
        "king": "Toledo",
        "regions": {"Galicia": {"purple": 2, "blue": 3}},
        "scoring": {"regions": ["Galicia"]},
    }
    out = score_position(raw)
    galicia = out["areas"][0]
    assert {"key": "note.dummy", "params": {"colour": "blue"}} in galicia["why"]
    assert galicia["token"] == "Galicia"
