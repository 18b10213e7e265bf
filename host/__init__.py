"""The host: serial link to the tower, table session, web UI, persistence and CLI."""
