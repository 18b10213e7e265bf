"""Kingdomino on the game platform: data, kingdoms, the rules driver, views, computer players."""
