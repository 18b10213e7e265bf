"""What the table app's API and a game's own routes share: the refusal a client is answered
with (`errors.ActionError`) and the reader of untrusted JSON (`json_input`). A game's adapter
(host/games) uses these, never the app itself (host/app)."""
