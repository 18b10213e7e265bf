"""The simulated tower: cubes down the chute (`/api/sim/drop`) and the castillo's gate
(`/api/sim/gate`), for the table only. A request is checked before it reaches the tower (a bad
one is 400 with or without a simulated tower; without one, 409 `not_simulated`)."""

from __future__ import annotations

from host.app.routes.actions import command_router

router = command_router([("/api/sim/drop", "drop", False), ("/api/sim/gate", "gate", False)])
