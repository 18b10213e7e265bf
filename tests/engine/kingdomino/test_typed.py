"""The scoring assistant's typed entry (engine/kingdomino/typed.py): dominoes typed one a line
("17 c4e") are laid by the rules and come out as the rows `castillo score` reads; a line the
rules refuse is named with a reason that has its text in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.kingdomino.position import score_position
from engine.kingdomino.typed import TypedKingdomError, kingdom_rows

I18N = Path(__file__).resolve().parents[3] / "host" / "games" / "kingdomino" / "static" / "i18n"
LANGUAGES = ("en", "cs", "pl", "uk")


def test_dominoes_are_laid_where_the_notation_says() -> None:
    # 3 is F0 F0: forest on e3 and e4, north of the castle (e5); 16 is W0 S0: its wheat on f5,
    # beside the castle, its swamp east of it on g5
    rows = kingdom_rows("3 e3s\n16 f5e", 5)
    assert rows == [
        ". . F0 . .",
        ". . F0 . .",
        ". . C W0 S0",
        ". . . . .",
        ". . . . .",
    ]


def test_a_kingdom_that_fits_its_frame_centred_keeps_the_castle_in_the_middle() -> None:
    """Middle Kingdom reads the castle's place in the rows: a centred kingdom stays centred."""
    rows = kingdom_rows("1 f5e\n2 d5w", 5)
    assert rows[2] == "W0 W0 C W0 W0"
    result = score_position({"kingdoms": {"pink": rows}, "middle_kingdom": True})
    assert result["bonus"]["pink"]["middle_kingdom"] == 10


def test_a_kingdom_off_centre_is_framed_from_its_corner() -> None:
    rows = kingdom_rows("1 f5e\n2 h5e", 5)  # wheat runs four squares east of the castle
    assert rows[0] == "C W0 W0 W0 W0"
    result = score_position({"kingdoms": {"pink": rows}, "middle_kingdom": True})
    assert result["bonus"]["pink"]["middle_kingdom"] == 0


def test_the_mighty_duel_lays_on_a_7_by_7_frame_around_g7() -> None:
    rows = kingdom_rows("1 h7e\n2 j7e\n3 g6n", 7)  # wheat east of the castle, forest north
    assert len(rows) == 7 and all(len(r.split()) == 7 for r in rows)
    assert rows[0].startswith("F0 ") and rows[1].startswith("F0 ")
    assert rows[2] == "C W0 W0 W0 W0 . ."


REFUSED = [
    ("3 e3s\nhello", 2, "kingdomino.typed.bad_line"),
    ("49 e3s", 1, "kingdomino.typed.no_such_domino"),
    ("3 e3s\n3 d5w", 2, "kingdomino.typed.twice"),
    ("3 z9s", 1, "kingdomino.typed.bad_square"),
    ("3 e3s\n4 e3e", 2, "kingdomino.refuse.occupied"),
    ("13 a1e", 1, "kingdomino.refuse.no_contact"),
    ("1 f5e\n2 h5e\n11 d5w", 3, "kingdomino.refuse.too_wide"),
    ("\n".join(f"{n} a1e" for n in range(1, 50)), 49, "kingdomino.typed.too_many"),
]


@pytest.mark.parametrize(("typed", "line", "key"), REFUSED)
def test_a_line_the_rules_refuse_is_named_with_its_reason(typed: str, line: int, key: str) -> None:
    with pytest.raises(TypedKingdomError) as refused:
        kingdom_rows(typed, 5)
    assert refused.value.line == line
    assert refused.value.key == key
    assert refused.value.params["line"] == line
    assert str(refused.value).startswith(f"line {line}: ")


def test_no_contact_names_the_terrains_of_the_domino() -> None:
    with pytest.raises(TypedKingdomError) as refused:
        kingdom_rows("13 a1e", 5)  # W0 F0, far from the castle
    assert refused.value.params["first"] == "W" and refused.value.params["second"] == "F"
    assert "wheat or forest" in refused.value.reason


def test_blank_lines_and_spaces_are_ignored_and_nothing_typed_is_the_castle_alone() -> None:
    assert kingdom_rows("\n   3   e3s  \n\n", 5)[0] == ". . F0 . ."
    assert kingdom_rows("", 5)[2] == ". . C . ."


def bundle(language: str) -> dict[str, str]:
    texts: dict[str, str] = {}
    for name in ("score.json", "engine.json"):
        texts.update(json.loads((I18N / language / name).read_text("utf-8")))
    return texts


def test_every_reason_of_a_typed_line_has_its_text_in_every_language() -> None:
    """The page words a refused line as kingdomino.score.typed_line around the reason's key."""
    english = bundle("en")
    keys = ["kingdomino.score.typed_line", *(key for _, _, key in REFUSED)]
    for language in LANGUAGES:
        texts = bundle(language)
        for key in keys:
            assert key in texts, (language, key)
            found = set(re.findall(r"{(\w+)}", texts[key]))
            assert found == set(re.findall(r"{(\w+)}", english[key])), (language, key)
