"""El Grande's host side: its adapter (host/games/__init__.py) and what the adapter uses."""

from host.games.elgrande.adapter import Adapter

__all__ = ["Adapter"]
