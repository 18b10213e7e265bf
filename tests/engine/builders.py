"""Build El Grande positions for tests through the real engine.

A table-mode `Game` is advanced through its chance steps as the players would enter them
(`first purple`, `kingcard Toledo`, `home purple Granada`, `reveal 1 conspiracy`), power cards
are played, and then the position of a rulebook example is laid out directly on the state
(`game.state`: `pieces`, `court`, `king`, `grandes` and `tiles`). Every colour's caballeros stay
conserved: the province absorbs the difference, and a position that would need more caballeros
than a colour owns is refused.

>>> game = table_game(king="Castilla", homes={"purple": "Granada"})
>>> set_position(game, board={"Galicia": {"orange": 4}}, castillo={"purple": 3})
>>> count(game, "Galicia", "orange"), count(game, "castillo", "purple"), game.state.phase
(4, 3, 'power')
>>> assert_conserved(game)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.elgrande.actions import Action
from engine.elgrande.game import CHANCE, Game, Options

PLAYERS = ("purple", "green", "blue", "orange")
# Home regions handed out to players without one, in this order (skipping the King's region).
SPARE_HOMES = ("Sevilla", "Aragon", "Galicia", "Valencia", "Cataluna", "Navarra", "Toledo")


def table_game(
    players: Iterable[str] = PLAYERS,
    *,
    first: str | None = None,
    king: str = "Castilla",
    homes: Mapping[str, str] | None = None,
    reveal: Iterable[str] = (),
    **options: object,
) -> Game:
    """A table-mode game after set-up and the action-card reveal, waiting for power cards.

    `homes`: colour -> home region (the others get spare regions); `reveal`: card ids to turn
    up (their decks come from the data; decks not named show their first card)."""
    colours = tuple(players)
    game = Game(Options(players=colours, mode="table", **options))  # type: ignore[arg-type]
    start = first or colours[0]
    game.apply(f"first {start}", CHANCE)
    _setup_steps(game, "setup_king")
    game.apply(f"kingcard {king}", CHANCE)
    chosen = dict(homes or {})
    taken = {game.state.area(r) for r in chosen.values()} | {game.state.king}
    for colour in colours:
        if colour not in chosen:
            spare = next(r for r in SPARE_HOMES if game.state.area(r) not in taken)
            chosen[colour] = spare
            taken.add(game.state.area(spare))
    seat = colours.index(start)
    for i in range(len(colours)):
        colour = colours[(seat + i) % len(colours)]
        game.apply(f"home {colour} {chosen[colour]}", CHANCE)
    _setup_steps(game, "reveal")
    wanted = {game.state.data.cards[card].deck: card for card in reveal}
    while game.state.phase == "reveal":
        deck = int(game.legal_actions(CHANCE)[0].arg)
        card = wanted.get(deck) or game.state.decks[deck][0]
        game.apply(f"reveal {deck} {card}", CHANCE)
    return game


def _setup_steps(game: Game, until: str) -> None:
    """Set-up steps of optional rules (cards set aside for alternative cards, Power Shift cards
    dealt and passed): every actor takes the first action listed."""
    while game.state.phase not in (until, "power"):
        for seat in game.current_players():
            game.apply(game.legal_actions(seat)[0], seat)


def play_powers(game: Game, values: Mapping[str, int]) -> None:
    """Play each colour's power card in the order the engine asks for them."""
    while game.state.phase == "power":
        colour = game.state.colours[game.current_player()]
        game.apply(f"power {values[colour]}")


def _invalidate(game: Game) -> None:
    # The engine caches legal actions and actors per state; the state was edited behind its back.
    game.state.touched()


def set_position(
    game: Game,
    *,
    board: Mapping[str, Mapping[str, int]] | None = None,
    castillo: Mapping[str, int] | None = None,
    court: Mapping[str, int] | None = None,
    king: str | None = None,
    grandes: Mapping[str, str] | None = None,
    tiles: Mapping[str, str] | None = None,
) -> None:
    """Lay out a position. `board` replaces every region (regions not named become empty);
    `castillo` replaces the castillo; `court`, `grandes` and `tiles` (tile id -> area) change
    only the colours or tiles named. The province takes up the difference."""
    state = game.state
    if board is not None:
        for r in range(state.R):
            state.pieces[r] = [0] * state.n
        for region, counts in board.items():
            area = state.area(region)
            assert area < state.R, f"{region} is not a region"
            for colour, n in counts.items():
                state.pieces[area][state.colour(colour)] = n
    if castillo is not None:
        state.pieces[state.CASTILLO] = [0] * state.n
        for colour, n in castillo.items():
            state.pieces[state.CASTILLO][state.colour(colour)] = n
    for colour, n in (court or {}).items():
        state.court[state.colour(colour)] = n
    if king is not None:
        state.king = state.area(king)
    for colour, region in (grandes or {}).items():
        state.grandes[state.colour(colour)] = state.area(region)
    for tile, area in (tiles or {}).items():
        state.tiles[tile] = state.area(area)
    per_colour = state.data.caballeros_per_colour
    for p, colour in enumerate(state.colours):
        used = sum(row[p] for row in state.pieces) + state.court[p]
        if used > per_colour:
            raise ValueError(f"{colour} would need {used} caballeros; a colour owns {per_colour}")
        state.province[p] = per_colour - used
    _invalidate(game)


def set_grey_hands(game: Game, hands: Mapping[str, Iterable[str]]) -> None:
    """Power Shift: give players these modifier cards in hand (instead of the ones dealt)."""
    board = game.state
    for colour, cards in hands.items():
        board.grey_hands[board.colour(colour)] = list(cards)
    _invalidate(game)


def assert_conserved(game: Game) -> None:
    """Regions + castillo + court + province = the caballeros a colour owns, none negative."""
    board = game.state
    per_colour = board.data.caballeros_per_colour
    for p, colour in enumerate(board.colours):
        places = [row[p] for row in board.pieces] + [board.court[p], board.province[p]]
        assert min(places) >= 0, f"{colour}: negative count in {places}"
        assert sum(places) == per_colour, f"{colour}: {sum(places)} caballeros, not {per_colour}"


def count(game: Game, area: str, colour: str) -> int:
    """Caballeros of a colour in a region, the castillo or (`court`) the court."""
    board = game.state
    index = board.area(area)
    if index == board.COURT:
        return board.court[board.colour(colour)]
    return board.pieces[index][board.colour(colour)]


def legal(game: Game, player: str | None = None) -> set[str]:
    """The legal actions (as text) of a colour, or of whoever acts now."""
    seat = None if player is None else game.state.colour(player)
    return {str(a) for a in game.legal_actions(seat)}


def of_kind(game: Game, kind: str, player: str | None = None) -> set[str]:
    """The arguments of the legal actions of one verb, e.g. the areas of `place`."""
    seat = None if player is None else game.state.colour(player)
    return {f"{a.arg} {a.arg2}".strip() for a in game.legal_actions(seat) if a.kind == kind}


def acting(game: Game) -> list[str]:
    return ["chance" if p == CHANCE else game.state.colours[p] for p in game.current_players()]


def pass_turn(game: Game) -> None:
    """The acting player takes no caballeros, takes the first face-up card and does nothing."""
    turn = game.state.turn
    assert turn is not None and game.state.phase == "take"
    game.apply("take 0")
    game.apply(game.legal_actions()[0])
    while game.state.turn is turn and game.state.phase == "main" and game.state.frame is None:
        moves = game.legal_actions()
        game.apply(Action("skip") if Action("skip") in moves else Action("done"))


def pass_round(game: Game) -> None:
    """Reveal the first card of each deck, play the lowest power cards, pass every turn."""
    start = game.state.round_index
    while game.state.phase == "reveal":
        game.apply(game.legal_actions(CHANCE)[0], CHANCE)
    while game.state.phase == "power":
        game.apply(game.legal_actions()[0])
    while game.state.round_index == start and game.state.phase in ("take", "card", "main"):
        pass_turn(game)


def play_to_general_scoring(game: Game) -> None:
    """Pass rounds until the discs of the next general scoring are asked for."""
    while game.state.phase != "scoring":
        pass_round(game)
