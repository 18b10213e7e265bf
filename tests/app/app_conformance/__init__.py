"""The app conformance suite's machinery (tests/app/test_app_conformance.py, `make soak`).

- `plans`: which games to play for a registered game: every player count in both table modes,
  every option with a non-default value at least once;
- `server`: `castillo run` as a real process on a fixed loopback port, killed with SIGKILL and
  restarted on the same data;
- `player`: one random complete game through the running server, as the pages play it (a
  WebSocket per seat link and for the table), checked against a local copy of the engine;
- `cli`: the `castillo` command line with the test-only Nim registered (the server and
  `castillo replay` of a Nim record run it).
"""
