"""What El Grande's pages need to sort and word its actions, beside the verb table
(`GET /api/games/elgrande/verbs`, host.games.GameAdapter.vocabulary): the kinds of the
parameters of its prompts (host/games/elgrande/prompts.py) and of the engine's refusals
(engine/elgrande/refusals.py), and the area tokens an action's argument may name, read from the
game data (the regions of every edition, then the castillo, France, Portugal and the court).

>>> areas()[:3], areas()[-4:]
(['Galicia', 'Navarra', 'Aragon'], ['castillo', 'France', 'Portugal', 'court'])
"""

from __future__ import annotations

from typing import Final

from engine.elgrande import data
from engine.elgrande.refusals import PARAM_KINDS as REFUSAL_KINDS
from host.games.elgrande.prompts import PARAM_KINDS as PROMPT_KINDS

COURT = "court"  # a player's court: an area token of the notation (`place` from it)

PARAM_KINDS: Final = {"prompt": PROMPT_KINDS, "refusal": REFUSAL_KINDS}


def areas() -> list[str]:
    """Every area token, in board order (the regions as the data lists them)."""
    regions = dict.fromkeys(
        r.ascii for edition in data.EDITIONS for r in data.load(edition).regions
    )
    return [*regions, data.CASTILLO, *data.BORDERS, COURT]
