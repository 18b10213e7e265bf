"""El Caballero's host side: its adapter (host/games/__init__.py) and its UI plugin (static/)."""

from host.games.elcaballero.adapter import Adapter

__all__ = ["Adapter"]
