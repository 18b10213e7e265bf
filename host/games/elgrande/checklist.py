"""The dealer's set-up checklist: what to lay out on the real table once the app has drawn a
dealer-mode game's start (the King, each home region, courts and provinces, power cards, the
first-player marker, the first round's action cards). Each item is a translation key
(`checklist.*`) with parameters; every fact in it is public.
"""

from __future__ import annotations

from typing import Any

from engine.elgrande.game import CHANCE, Game

Item = dict[str, Any]


def setup_checklist(game: Game) -> list[Item] | None:
    """The checklist while a dealer-mode game has had no player's action yet; else None."""
    if game.options.mode != "dealer" or game.is_terminal():
        return None
    if any(player != CHANCE for player, _ in game.history):
        return None
    view = game.view(None)
    items: list[Item] = [{"key": "checklist.king", "params": {"area": view["king"]}}]
    for colour, home in view["grandes"].items():
        items.append({"key": "checklist.home", "params": {"colour": colour, "area": home}})
    court, hands = view["court"], view["hand_sizes"]
    # the views show provinces to their own seats only (the castillo's secret); before the
    # first player acts the castillo is empty, so they tell nothing
    province = dict(zip(game.state.colours, game.state.province, strict=True))
    reserves = {
        colour: {
            "court": court.get(colour, 0),
            "province": province.get(colour, 0),
            "power": hands.get(colour, 0),
        }
        for colour in view["players"]
    }
    shared = list(reserves.values())
    if all(reserve == shared[0] for reserve in shared):
        items.append({"key": "checklist.reserve_all", "params": shared[0]})
    else:
        for colour, reserve in reserves.items():
            items.append({"key": "checklist.reserve", "params": {"colour": colour, **reserve}})
    items.append({"key": "checklist.first", "params": {"colour": view["first_player"]}})
    if view["face_up"]:
        items.append({"key": "checklist.cards", "params": {"cards": list(view["face_up"])}})
    return items
