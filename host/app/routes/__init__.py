"""The table app's routes, one module per concern (docs/table-api.md is the contract).

`host.app.server.create_app` builds one `AppContext` (context.py), the middleware and the error
handlers, and includes these routers in this order:

- pages.py: the table and seat pages (and the `/static` folder)
- pairing.py: `/api/info`, the pairing code and pairing a device
- wifi.py: the machine's own Wi-Fi card and its QR code
- plugins.py: each game's own routes, its i18n bundle and its plugin folder
- verbs.py: a game's verb table, its parameters' kinds and its areas, for its pages (public)
- games.py: the catalogue; new, continue, import, export and the list of saved games
- seats.py: the table's and a seat's state, seat links, their QR codes, reissuing one
- actions.py: actions, undo, hints, checks and issues over HTTP (commands.py: one command,
  shared with the WebSocket)
- preview.py: what an action would do, worked out by the game's engine on copies (the table's
  and a seat's; El Caballero's placement preview)
- sim.py: the simulated tower's chute and gate
- websocket.py: `/ws`, one per client (hub.py: the clients and the fan-out of changes)
"""
