"""The steps of a Kingdomino round (`State.step`) and the integer move for a discard.

>>> STEP_NAMES[PLACE]
'place'
"""

from __future__ import annotations

from typing import Final

# Final: mypyc compiles them in as constants (a plain module name is looked up at each use).
DRAW: Final = 0
KING: Final = 1
PLACE: Final = 2
CLAIM: Final = 3
OVER: Final = 4
STEP_NAMES: Final = ("draw", "king", "place", "claim", "over")
DISCARD: Final = -1
