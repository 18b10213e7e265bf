"""Every refusal key has its text in en, cs, pl and uk, with the same parameters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.kingdomino.game import REFUSALS, refuse

ROOT = Path(__file__).resolve().parents[3]
I18N = ROOT / "host" / "games" / "kingdomino" / "static" / "i18n"
LANGUAGES = ("en", "cs", "pl", "uk")


def bundle(language: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads((I18N / language / "engine.json").read_text("utf-8"))
    return texts


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"{(\w+)}", text))


def test_a_refusal_key_not_listed_cannot_be_raised() -> None:
    """refuse() checks its key against REFUSALS, so every key raised has its texts below."""
    assert refuse("claim 1", "why", "claimed", domino=1).key == "kingdomino.refuse.claimed"
    with pytest.raises(AssertionError):
        refuse("claim 1", "why", "not_a_listed_key")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_every_refusal_with_the_same_parameters(language: str) -> None:
    english, texts = bundle("en"), bundle(language)
    for key in REFUSALS:
        full = f"kingdomino.refuse.{key}"
        assert full in texts, f"{language}: {full} missing"
        assert placeholders(texts[full]) == placeholders(english[full]), f"{language}: {full}"
    assert set(texts) == set(english)
