"""The game platform every game stands on: actions and their verb tables, the state protocol,
options, records and specific errors (docs/game-protocol.md). No game here; no I/O but reading
a record file."""
