"""The table session: the one place that joins the engine, the tower, the lights and the store.

It knows no game: what it needs of one beyond the engine protocol comes from the game's host
adapter (host/games/__init__.py), which also says whether the game uses the tower (throw
checks) and the lights.

Everything that changes a game goes through `Session` under one lock, in this order:
check it (the engine or the throw checks refuse bad input without changing anything), apply it,
write it to the game log (durable), then tell the clients and the lights. The apply and the
write are one transaction: a refusal changes nothing, and anything else that fails before the
commit (a game's bookkeeping, the disk) reloads the game from the log and answers
`server_error`/`storage`, so memory never runs ahead of the disk. What follows the commit (the
lights, the clients, a computer seat) is logged when it fails and never undoes the action.
Tower events come the other way: the SQLite sink (the link's durable sink) writes the ledger
entry and its game-log entry in one commit, applies it, and only then does the link ack the
device.

Restoring a game replays its log through the same code (`Transaction.apply`): the engine actions
and undos, the tower entries, the clock ticks and the table's corrections, so the engine state
and the throw checks come back exactly as they were.

The pieces, one job each:

- `model`: who a client is (`Role`), a seat link (`Seat`), the game in play (`ActiveGame`),
  what an engine change did (`Event`);
- `hub`: `Session`, the thin front the routes call, holding what the pieces share;
- `pipeline`: the action pipeline (who may act, a throw check that blocks, refusals);
- `transaction`: the record (a change applied and made durable as one, or rolled back);
- `events`: what an engine change did, as the engine reports it (`GameSpec.events_since`,
  engine/core/events.py), told to the pieces that react to it;
- `capabilities`: the tower and the lights a game declares, each with its hooks (react to
  events, block an action until a check is settled, add to a view);
- `seats`: seat links and their tokens, claims, connections and languages;
- `computers`: computer seats and hints;
- `tower_port`: the tower link's sink, the throw windows, the lights and the tower status;
- `games`: new, imported, continued, restored and exported games;
- `views`: each role's `state`, each role's game view built once per revision.
"""

from __future__ import annotations

from host.api.errors import ActionError as ActionError  # re-exported: the routes and the tests
from host.app.session.computers import _secret as _secret  # re-exported: the tests
from host.app.session.hub import Session as Session
from host.app.session.model import LANGUAGES as LANGUAGES
from host.app.session.model import LOG_LINES as LOG_LINES
from host.app.session.model import TOKEN_BYTES as TOKEN_BYTES
from host.app.session.model import ActiveGame as ActiveGame
from host.app.session.model import Listener as Listener
from host.app.session.model import Role as Role
from host.app.session.model import Seat as Seat
from host.app.session.tower_port import TOWER_WARNING_S as TOWER_WARNING_S
from host.app.session.transaction import REFUSALS as REFUSALS
