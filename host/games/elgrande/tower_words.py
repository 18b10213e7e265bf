"""El Grande's words in the throw checks' English texts (host/tower names no game's pieces):
the tower counts caballeros into the castillo, tells a Grande apart, and the Revelation card
lifts and refills the castillo."""

from __future__ import annotations

from host.tower.checks import TowerWords

TOWER_WORDS = TowerWords(
    container="castillo", pieces="caballeros", special="Grande", recount="Revelation"
)
