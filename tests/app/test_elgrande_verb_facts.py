"""El Grande's adapter reads what it asks of a verb from the engine's verb table
(engine/elgrande/verbs.py), never from a list of its own: which steps are secret choices made
on a seat's page, which the table never lists as buttons, which chance steps a seat enters,
which wait for the tower's castillo count, and how the public log words a secret step."""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande.game import Game, Options
from engine.elgrande.verbs import VERBS
from engine.elgrande.views import public_step
from engine.registry import get
from host.games import adapter_for

ADAPTER = adapter_for(get("elgrande"))


def example(kind: str) -> Action:
    """An action of the verb with placeholder arguments of the right arity."""
    return Action(kind, *[f"a{i}" for i in range(VERBS[kind].arity)])


def test_each_verb_fact_the_host_asks_is_the_verb_tables() -> None:
    for verb in VERBS.verbs.values():
        action = example(verb.name)
        # secret choice: hidden from the others and made on the seat's own device
        assert ADAPTER.secret(action) == (verb.secret_from is not None and verb.seat_only)
        assert ADAPTER.not_at_table(action) == verb.seat_only
        assert ADAPTER.seat_enters(action) == (verb.chance and verb.seat_only)
        assert ADAPTER.waits_for_scoring_check(action) == ("castillo-count" in verb.tags)


def test_the_table_enters_a_set_aside_card_a_seat_its_own_deal() -> None:
    """`remove` hides its card but is a chance step the table enters; `shift` is entered on
    the seat's page (never a table button) yet is no secret; `deal` is a seat's own chance."""
    assert "remove" in VERBS.secret and not ADAPTER.secret(example("remove"))
    assert not ADAPTER.secret(example("shift")) and ADAPTER.not_at_table(example("shift"))
    assert ADAPTER.seat_enters(example("deal")) and ADAPTER.secret(example("deal"))


def test_the_public_text_of_a_step_is_the_engines_redaction() -> None:
    """One redacted form: the table's log says what the engine's view says ("?" for each
    secret argument)."""
    shown = {
        "deal purple sun": "deal purple ?",
        "remove 2 ?": "remove 2 ?",
        "remove 2 Intrigue": "remove 2 ?",
        "disc Aragon": "disc ?",
        "pass sun": "pass ?",
        "powerback 7": "powerback ?",
        "shift 7 sun": "shift 7 sun",
        "place castillo": "place castillo",
    }
    for text, public in shown.items():
        action = VERBS.parse(text)
        assert ADAPTER.public_text(action) == public == public_step(action), text
    closed = Game(Options(players=("purple", "green", "blue")))
    opened = Game(Options(players=("purple", "green", "blue"), open_power_cards=True))
    powerback = VERBS.parse("powerback 7")
    assert ADAPTER.public_text(powerback, closed) == "powerback ?"
    assert ADAPTER.public_text(powerback, opened) == "powerback 7"
