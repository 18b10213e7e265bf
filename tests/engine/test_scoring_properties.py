"""Property tests of El Grande's scoring rules (`score_area` and `castillo score` positions).

The rules, from the rulebook: only players with a caballero score; tied players all take the
next lower place and the players after them move down one place as well; the King and Grande
bonuses go only to a sole first place; a scoring tile replaces the printed values; with 2–3
players only two places score.

Two plausible-sounding properties were checked before being asserted:

- "Total points awarded never exceed the sum of the values plus bonuses" is FALSE under the tie
  rule: the rulebook's own Navarra example awards 3 + 3 + 3 + 1 = 10 on a 5/3/1 region (sum 9).
  What does hold: every place value goes to at most one group of tied players, and without ties
  the total is at most the sum of the scoring places' values
  (test_total_can_exceed_the_printed_values_with_ties, test_each_place_goes_to_one_group).
- "Adding a caballero never lowers that player's points in that area" is TRUE for non-increasing
  values (every printed scale and tile is): with one more caballero a player either joins the
  group just above, whose place is at least as good, or stays with the players above unchanged
  and leaves a tie. It is asserted below, and test_data checks that every scale is
  non-increasing.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.elgrande import data as gamedata
from engine.elgrande.position import score_position
from engine.elgrande.scoring import GRANDE_BONUS, KING_BONUS, score_area

DATA = gamedata.load("2023")
COLOURS = DATA.colours
NAMES = ("a", "b", "c", "d", "e")
REGIONS = [r.name for r in DATA.regions]

# Per-test settings (a global profile would change other modules' property tests too).
AREA = settings(max_examples=100, deadline=None)
POSITION = settings(max_examples=40, deadline=None)

# Scoring scales are non-increasing (the printed ones, the castillo's and the tiles' are).
values_st = st.lists(st.integers(0, 9), min_size=1, max_size=3).map(
    lambda v: tuple(sorted(v, reverse=True))
)
counts_st = st.lists(st.integers(0, 6), min_size=2, max_size=5).map(
    lambda ns: dict(zip(NAMES, ns, strict=False))
)
places_st = st.sampled_from([None, 2, 3])


def _groups(counts: dict[str, int]) -> list[list[str]]:
    """Scoring players grouped by equal count, most first."""
    by_count: dict[int, list[str]] = {}
    for player, n in counts.items():
        if n > 0:
            by_count.setdefault(n, []).append(player)
    return [by_count[n] for n in sorted(by_count, reverse=True)]


def _rulebook_place(counts: dict[str, int], player: str) -> int:
    """The 0-based place whose value a player receives, as the rulebook words it: each group
    above takes one place if alone and two if tied ("the players after them move down one place
    as well"); a tied player takes the next lower place."""
    place = 0
    for group in _groups(counts):
        if player in group:
            return place + (1 if len(group) > 1 else 0)
        place += 1 if len(group) == 1 else 2
    raise AssertionError(f"{player} does not score")


@AREA
@given(counts_st, values_st, places_st)
def test_only_players_with_caballeros_score(
    counts: dict[str, int], values: Any, places: Any
) -> None:
    result = score_area("X", counts, values, places=places, king_here=True, grandes_here=NAMES)
    scoring = {p for p, n in counts.items() if n > 0}
    assert set(result.ranks) == scoring
    assert set(result.points) <= scoring and set(result.bonus) <= scoring
    for player, n in counts.items():
        if n == 0:
            assert result.total(player) == 0


@AREA
@given(counts_st, values_st, places_st)
def test_points_follow_the_rulebook_tie_rule(
    counts: dict[str, int], values: Any, places: Any
) -> None:
    result = score_area("X", counts, values, places=places)
    limit = len(values) if places is None else min(places, len(values))
    for player in result.ranks:
        place = _rulebook_place(counts, player)
        assert result.ranks[player] == place + 1
        assert result.points[player] == (values[place] if place < limit else 0)


@AREA
@given(counts_st, values_st, places_st)
def test_tied_players_score_alike_and_more_never_scores_less(
    counts: dict[str, int], values: Any, places: Any
) -> None:
    result = score_area("X", counts, values, places=places)
    for a in result.ranks:
        for b in result.ranks:
            if counts[a] == counts[b]:
                assert result.points[a] == result.points[b]
                assert result.ranks[a] == result.ranks[b]
            elif counts[a] > counts[b]:
                assert result.points[a] >= result.points[b]
                assert result.ranks[a] < result.ranks[b]
    tied = {p for p in result.ranks if Counter(counts.values())[counts[p]] > 1}
    assert set(result.tied) == tied


@AREA
@given(counts_st, values_st, st.booleans(), st.sets(st.sampled_from(NAMES)))
def test_bonuses_only_for_a_sole_first(
    counts: dict[str, int], values: Any, king: bool, grandes: set[str]
) -> None:
    result = score_area("X", counts, values, king_here=king, grandes_here=sorted(grandes))
    top = max(counts.values())
    leaders = [p for p, n in counts.items() if n == top and n > 0]
    sole = leaders[0] if len(leaders) == 1 else None
    for player, bonus in result.bonus.items():
        assert player == sole and bonus > 0
    if sole is not None:
        expected = (KING_BONUS if king else 0) + (GRANDE_BONUS if sole in grandes else 0)
        assert result.bonus.get(sole, 0) == expected
    assert sum(result.bonus.values()) <= KING_BONUS + GRANDE_BONUS


@AREA
@given(counts_st, values_st, places_st)
def test_each_place_goes_to_one_group(counts: dict[str, int], values: Any, places: Any) -> None:
    result = score_area("X", counts, values, places=places)
    owners: dict[int, set[int]] = {}
    for player, rank in result.ranks.items():
        owners.setdefault(rank, set()).add(counts[player])
    assert all(len(group_counts) == 1 for group_counts in owners.values())
    limit = len(values) if places is None else min(places, len(values))
    if not result.tied:
        assert sum(result.points.values()) <= sum(values[:limit])


def test_total_can_exceed_the_printed_values_with_ties() -> None:
    # The Navarra example: 3 + 3 + 3 + 1 = 10 points on a 5/3/1 region.
    result = score_area("Navarra", {"a": 2, "b": 2, "c": 2, "d": 1}, (5, 3, 1))
    assert sum(result.points.values()) == 10 > sum((5, 3, 1))


@AREA
@given(counts_st, values_st, places_st, st.sampled_from(NAMES), st.booleans(), st.booleans())
def test_one_more_caballero_never_lowers_that_players_score(
    counts: dict[str, int], values: Any, places: Any, player: str, king: bool, grande: bool
) -> None:
    if player not in counts:
        counts = {**counts, player: 0}
    grandes = [player] if grande else []
    before = score_area("X", counts, values, places=places, king_here=king, grandes_here=grandes)
    more = {**counts, player: counts[player] + 1}
    after = score_area("X", more, values, places=places, king_here=king, grandes_here=grandes)
    assert after.points[player] >= before.points.get(player, 0)
    assert after.total(player) >= before.total(player)


@AREA
@given(counts_st, values_st, places_st, st.randoms(use_true_random=False))
def test_player_order_and_names_do_not_matter(
    counts: dict[str, int], values: Any, places: Any, rng: Any
) -> None:
    result = score_area("X", counts, values, places=places, king_here=True, grandes_here=["a"])
    items = list(counts.items())
    rng.shuffle(items)
    renamed = {f"p-{player}": n for player, n in items}
    other = score_area("X", renamed, values, places=places, king_here=True, grandes_here=["p-a"])
    for player in counts:
        assert other.points.get(f"p-{player}") == result.points.get(player)
        assert other.bonus.get(f"p-{player}") == result.bonus.get(player)
        assert other.ranks.get(f"p-{player}") == result.ranks.get(player)


@AREA
@given(counts_st, values_st)
def test_first_place_only_scores_a_sole_first(counts: dict[str, int], values: Any) -> None:
    result = score_area("X", counts, values, first_place_only=True)
    scorers = [p for p, n in result.points.items() if n]
    assert len(scorers) <= 1
    for player in scorers:
        assert result.ranks[player] == 1 and result.points[player] == values[0]


# --------------------------------------------------------------------------- whole positions
def _position(players: list[str], board: dict[str, dict[str, int]], **extra: Any) -> dict[str, Any]:
    return {"players": players, "king": "Toledo", "regions": board, **extra}


players_st = st.integers(2, 5).flatmap(
    lambda n: st.permutations(COLOURS).map(lambda colours: list(colours[:n]))
)


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(players_st)
    regions = draw(st.lists(st.sampled_from(REGIONS), unique=True, max_size=5))
    board = {
        region: {c: draw(st.integers(0, 5)) for c in players if draw(st.booleans())}
        for region in regions
    }
    castillo = {c: draw(st.integers(0, 4)) for c in players if draw(st.booleans())}
    grande_places = st.sampled_from([*REGIONS, "castillo"])  # a Tournament throws them in
    grandes = {c: draw(grande_places) for c in players if draw(st.booleans())}
    areas = draw(st.lists(st.sampled_from([*REGIONS, "castillo"]), unique=True, max_size=2))
    tiles = dict(zip(areas, ["8-4-0", "4-0-0"], strict=False))
    discs = {c: draw(st.sampled_from([*REGIONS, None])) for c in players if draw(st.booleans())}
    return _position(
        players,
        board,
        king=draw(st.sampled_from([*REGIONS, "castillo", "France", "Portugal"])),
        castillo=castillo,
        grandes=grandes,
        tiles=tiles,
        discs=discs,
        scoring="general",
    )


@POSITION
@given(positions())
def test_general_scoring_totals_and_conservation(position: dict[str, Any]) -> None:
    result = score_position(position)
    areas = result["areas"]
    assert areas[0]["area"] == "castillo"
    assert [a["area"] for a in areas[1:]] == REGIONS
    expected = dict.fromkeys(position["players"], 0)
    for area in areas:
        for colour, points in area["points"].items():
            expected[colour] += points + area["bonus"].get(colour, 0)
    assert result["totals"] == expected
    # Every castillo caballero leaves the castillo: to its disc's region or back to court.
    before = Counter[str]()
    for counts in position["regions"].values():
        before.update(counts)
    after = Counter[str]()
    for area in areas[1:]:
        after.update(area["counts"])
    to_court = Counter[str]()
    for colour, move in result["castillo_moves"].items():
        assert move["count"] == position["castillo"].get(colour, 0)
        if move["to"] in ("court", "castillo"):
            to_court[colour] += move["count"]
            assert (move["to"] == "castillo") == (position["king"] == "castillo")
        else:
            assert move["to"] != position["king"]
    for colour in position["players"]:
        castillo = position["castillo"].get(colour, 0)
        assert after[colour] + to_court[colour] == before[colour] + castillo


@POSITION
@given(positions())
def test_two_or_three_players_score_two_places(position: dict[str, Any]) -> None:
    result = score_position(position)
    assert result["places"] == (2 if len(position["players"]) <= 3 else 3)
    for area in result["areas"]:
        for colour, rank in area["ranks"].items():
            if rank > result["places"]:
                assert area["points"][colour] == 0


@POSITION
@given(positions(), st.randoms(use_true_random=False))
def test_seat_order_does_not_change_the_scores(position: dict[str, Any], rng: Any) -> None:
    result = score_position(position)
    shuffled = list(position["players"])
    rng.shuffle(shuffled)
    again = score_position({**position, "players": shuffled})
    assert again["totals"] == result["totals"]
    assert [a["points"] for a in again["areas"]] == [a["points"] for a in result["areas"]]


@POSITION
@given(
    st.sampled_from([*REGIONS, "castillo"]),
    st.sampled_from(DATA.tiles),
    st.dictionaries(st.sampled_from(COLOURS[:4]), st.integers(0, 6)),
)
def test_a_tile_replaces_the_printed_values(area: str, tile: Any, counts: dict[str, int]) -> None:
    where = {"castillo": counts} if area == "castillo" else {"regions": {area: counts}}
    position = {
        "players": list(COLOURS[:4]),
        "king": "Toledo" if area != "Toledo" else "Galicia",
        "tiles": {area: tile.id},
        "scoring": {"regions": [area]},
        **where,
    }
    scored = score_position(position)["areas"][0]
    assert scored["values"] == list(tile.values) and scored["tile"] == tile.id
    assert scored["points"] == dict(score_area(area, counts, tile.values).points)


@POSITION
@given(st.integers(0, 6), st.sampled_from(["Castilla", "Galicia", "castillo"]))
def test_dummy_colour_takes_places_but_never_scores(blue: int, area: str) -> None:
    counts = {"purple": 2, "green": 1, "blue": blue}
    where = {"castillo": counts} if area == "castillo" else {"regions": {area: counts}}
    result = score_position(
        {
            "players": ["purple", "green"],
            "dummy": "blue",
            "king": "Toledo",
            "scoring": {"regions": [area]},
            **where,
        }
    )
    scored = result["areas"][0]
    assert "blue" not in scored["points"] and "blue" not in scored["bonus"]
    assert "blue" not in result["totals"]
    plain = score_area(area, counts, scored["values"], places=2)
    assert scored["ranks"] == plain.ranks
    assert scored["points"] == {c: n for c, n in plain.points.items() if c != "blue"}
