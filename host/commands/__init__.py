"""One module per `castillo` subcommand group; each exposes `register(subparsers)`."""
