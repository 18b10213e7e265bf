"""El Caballero (Kramer and Ulrich, Hans im Glück 1998) on the game platform: area cards as data
(`cards`, `catalogue`), the map with its regions (`board`), where an area card may go
(`placement`), scoring (`scoring`) and the scoring of a position given as data (`position`).
The rules as this engine reads them: docs/elcaballero-rules.md; the card format:
docs/elcaballero-cards.md."""
