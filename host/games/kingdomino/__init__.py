"""Kingdomino in the table app: until its plugin lands, the generic adapter plays it from the
engine's spec; `static/i18n/<lang>/engine.json` holds the engine's refusal texts."""

from host.games import GameAdapter as Adapter

__all__ = ["Adapter"]
