"""Kingdomino's host side: the generic adapter plus the scoring assistant's route."""

from host.games.kingdomino.adapter import Adapter

__all__ = ["Adapter"]
