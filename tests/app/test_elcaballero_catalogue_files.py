"""El Caballero's catalogue files at the table (issue 23), without a browser: the lobby offers
the data folder's `catalogues/*.toml` and `castillo run --catalogue FILE`'s; a refused file is a
400 naming the line on the `catalogue` field (with a translation key), never a 500; a name not
offered, or a client's own cards, are refused; a game played with a file survives a restart and
its exported record replays to the same result without the file; the lobby warns about table
mode with the SYNTHETIC set in every language; `castillo run` exits 2 on a refused file."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine import registry
from engine.core import record as core_record
from engine.elcaballero.catalogue import parse_catalogue, to_entries
from engine.elcaballero.spec import SPEC
from host.app.access import Access
from host.app.server import create_app
from host.cli import main
from host.games.elcaballero import catalogues
from tests.app.conftest import LoopbackClient, Table
from tests.engine.elcaballero.test_catalogue_files import GOOD, line_of

BUNDLES = Path(__file__).resolve().parents[2] / "host" / "games" / "elcaballero" / "static" / "i18n"
LANGS = ("en", "cs", "pl", "uk")
BAD = GOOD.replace("count = 7", "count = seven")  # not TOML
BAD_LINE = line_of(BAD, "seven")


@pytest.fixture
def shelf(tmp_path: Path) -> Iterator[Path]:
    """The data folder's catalogues: ours.toml (good), broken.toml (BAD_LINE is not TOML),
    notes.txt (not a catalogue); restored afterwards."""
    folder = tmp_path / catalogues.FOLDER
    folder.mkdir()
    (folder / "ours.toml").write_text(GOOD, encoding="utf-8")
    (folder / "broken.toml").write_text(BAD, encoding="utf-8")
    (folder / "notes.txt").write_text("not a catalogue", encoding="utf-8")
    catalogues.configure(tmp_path)
    yield tmp_path
    catalogues.configure(None)


def entry(client: TestClient) -> dict[str, Any]:
    games = client.get("/api/catalogue").json()["games"]
    found: dict[str, Any] = next(g for g in games if g["id"] == "elcaballero")
    return found


def test_the_lobby_offers_the_data_folders_catalogue_files(client: TestClient, shelf: Path) -> None:
    options = {o["name"]: o for o in entry(client)["options"]}
    assert options["catalogue"]["choices"] == ["", "synthetic", "broken.toml", "ours.toml"]
    assert options["catalogue"]["default"] == ""
    assert "catalogue_cards" not in options and "catalogue_label" not in options
    # a file copied in is offered without a restart
    (shelf / catalogues.FOLDER / "later.toml").write_text(GOOD, encoding="utf-8")
    assert "later.toml" in {o["name"]: o for o in entry(client)["options"]}["catalogue"]["choices"]


def test_a_refused_file_is_named_with_its_line_on_the_catalogue_field(
    client: TestClient, shelf: Path
) -> None:
    body = {"game": "elcaballero", "players": ["red", "blue"], "catalogue": "broken.toml"}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400, answer.text
    refused = answer.json()
    assert refused["error"] == "bad_options"
    assert list(refused["errors"]) == ["catalogue"]
    assert refused["errors"]["catalogue"].startswith(f"broken.toml, line {BAD_LINE}: not TOML")
    assert refused["key"] == "ec.catalogue_refused_line"
    assert refused["params"]["field"] == "catalogue" and refused["params"]["line"] == BAD_LINE
    for lang in LANGS:  # the lobby words it in every language
        text = json.loads((BUNDLES / lang / "ui.json").read_text(encoding="utf-8"))[refused["key"]]
        assert "{line}" in text and "{file}" in text and "{problem}" in text, (lang, text)
    assert client.get("/api/state").json().get("game") is None  # no game was started


def test_a_refused_cards_problem_comes_with_its_key_and_parameters(
    client: TestClient, shelf: Path
) -> None:
    """The problem itself is a key and parameters too (the card's nested in them), so the lobby
    words it in the page's language: every key it names is in every bundle."""
    bad = GOOD.replace('edges = "LSSS"', 'edges = "LSSL"')
    (shelf / catalogues.FOLDER / "wrong-edge.toml").write_text(bad, encoding="utf-8")
    body = {"game": "elcaballero", "players": ["red", "blue"], "catalogue": "wrong-edge.toml"}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400, answer.text
    params = answer.json()["params"]
    assert params["line"] == line_of(bad, "LSSL") and params["file"] == "wrong-edge.toml"
    assert params["problem"] == "card #2 (CORNER): edge W is land in edges but its region is sea"
    assert params["problem_key"] == "ec.catalogue.card_id"
    nested = params["problem_params"]
    assert nested["n"] == 2 and nested["id"] == "CORNER"
    assert nested["problem_key"] == "ec.card.edge_land_region_sea"
    assert nested["problem_params"] == {"edge": "W"}
    for lang in LANGS:
        words = json.loads((BUNDLES / lang / "ui.json").read_text(encoding="utf-8"))
        assert "{edge}" in words[nested["problem_key"]], lang
        assert "{problem}" in words[params["problem_key"]] and "{n}" in words[params["problem_key"]]
    # a file the TOML parser refuses: its own key, the line in the frame
    broken = client.post("/api/games", json={**body, "catalogue": "broken.toml"}).json()
    assert broken["params"]["problem_key"] == "ec.catalogue.not_toml"
    assert broken["params"]["problem_params"] == {}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"catalogue": "../catalogues/ours.toml"}, "catalogue"),
        ({"catalogue": "notes.txt"}, "catalogue"),
        ({"catalogue": "missing.toml"}, "catalogue"),
        ({"catalogue": "ours.toml", "catalogue_cards": ["ISLAND 48 LNESW"]}, "catalogue_cards"),
        ({"catalogue": "synthetic", "catalogue_label": "real!"}, "catalogue_label"),
    ],
)
def test_only_an_offered_file_is_read_and_a_client_sends_no_cards(
    client: TestClient, shelf: Path, body: dict[str, Any], field: str
) -> None:
    answer = client.post(
        "/api/games", json={"game": "elcaballero", "players": ["red", "blue"], **body}
    )
    assert answer.status_code == 400, answer.text
    assert list(answer.json()["errors"]) == [field]
    # the lobby words each refusal in its language: a key every bundle translates
    key = answer.json().get("key")
    assert key, answer.text
    for lang in LANGS:
        words = json.loads((BUNDLES / lang / "ui.json").read_text(encoding="utf-8"))
        assert key in words, (lang, key)
        if lang != "en":
            assert words[key] != json.loads((BUNDLES / "en" / "ui.json").read_text())[key]


def _play_to_the_end(client: TestClient, tokens: dict[str, str], rng: random.Random) -> None:
    for _ in range(5000):
        state = client.get("/api/state").json()
        if state["prompt"]["key"] == "over":
            return
        if state["game"]["acting"] == ["chance"]:
            text = rng.choice(state["legal"])
        else:
            for token in tokens.values():
                legal = client.get(f"/api/seat/{token}/state").json()["legal"]
                if legal:
                    answer = client.post(
                        f"/api/seat/{token}/action", json={"text": rng.choice(legal)}
                    )
                    assert answer.status_code == 200, answer.text
                    break
            continue
        answer = client.post("/api/action", json={"text": text})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game does not end")


def test_a_game_with_a_file_survives_a_restart_and_its_record_replays_without_it(
    table: Table, client: TestClient, shelf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    created = client.post(
        "/api/games",
        json={"game": "elcaballero", "players": ["red", "blue"], "catalogue": "ours.toml"},
    )
    assert created.status_code == 200, created.text
    state = client.get("/api/state").json()
    assert state["options"]["catalogue"] == "ours.toml"
    assert len(state["options"]["catalogue_cards"]) == 3  # what the plugin draws the cards with
    assert state["game"]["catalogue"] == "Our box"
    assert sorted(state["legal"]) == ["start ISLAND", "start STRAIT"]  # one tap each
    tokens = {seat["colour"]: seat["token"] for seat in created.json()["seats"]}
    _play_to_the_end(client, tokens, random.Random(3))
    final = client.get("/api/state").json()
    scores = {p["colour"]: p["score"] for p in final["game"]["players"]}
    game_id = final["game_id"]
    record = client.get(f"/api/games/{game_id}/record").json()
    # the file is gone: neither the restart nor the replay needs it
    for path in (shelf / catalogues.FOLDER).iterdir():
        path.unlink()
    table.close()
    again = Table(table.db)
    try:
        with LoopbackClient(create_app(again.session, Access())) as fresh:
            saved = fresh.get("/api/games").json()["games"]
            line = next(g for g in saved if g["id"] == game_id)
            assert line["finished"] and line["scores"] == scores, line
            assert line["options"]["catalogue"] == "ours.toml"
            assert "catalogue_cards" not in line["options"]  # the list names, never deals
            answer = fresh.post(f"/api/games/{game_id}/continue", json={})
            assert answer.status_code == 200, answer.text
            assert fresh.get("/api/state").json()["game"]["catalogue"] == "Our box"
    finally:
        again.close()
        table.session = again.session  # the fixture closes what is open
        table.store = again.store
    _, replayed = registry.replay(record)
    assert dict(zip(replayed.seat_names(), replayed.returns(), strict=True)) == scores
    exported = shelf / "record.json"
    exported.write_text(json.dumps(record), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(exported), "--json"]) == 0  # castillo replay
    replay = json.loads(capsys.readouterr().out)
    assert replay["finished"] and replay["scores"] == scores, replay


def test_run_offers_its_catalogue_file_first(client: TestClient, tmp_path: Path) -> None:
    given = tmp_path / "elsewhere" / "family-box.toml"
    given.parent.mkdir()
    given.write_text(GOOD, encoding="utf-8")
    try:
        assert catalogues.configure(tmp_path, given) is not None
        option = {o["name"]: o for o in entry(client)["options"]}["catalogue"]
        assert option["choices"] == ["", "synthetic", "family-box.toml"]
        assert option["default"] == "family-box.toml"
        body = {"game": "elcaballero", "players": ["red", "blue"], "catalogue": "family-box.toml"}
        assert client.post("/api/games", json=body).status_code == 200
    finally:
        catalogues.configure(None)


def test_the_lobby_warns_about_table_mode_with_the_synthetic_set(client: TestClient) -> None:
    warnings = entry(client)["warnings"]
    assert warnings == [
        {"when": {"mode": "table", "catalogue": "synthetic"}, "key": "ec.lobby.synthetic_table"}
    ]
    english = json.loads((BUNDLES / "en" / "ui.json").read_text(encoding="utf-8"))
    for lang in LANGS:
        texts = json.loads((BUNDLES / lang / "ui.json").read_text(encoding="utf-8"))
        for key in ("ec.lobby.synthetic_table", "ec.copies_left", "ec.catalogue_refused"):
            assert texts[key] and (lang == "en" or texts[key] != english[key]), (lang, key)


@pytest.mark.parametrize("kind", ["bad", "fifo", "missing"])
def test_run_exits_2_on_a_refused_catalogue_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = tmp_path / "cards.toml"
    if kind == "bad":
        path.write_text(BAD, encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(path)  # read, it would block: it is refused unread
    argv = ["run", "--local", "--no-tower", "--port", "0", "--data-dir", str(tmp_path / "data")]
    try:
        code = main([*argv, "--catalogue", str(path)])
    finally:
        catalogues.configure(None)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"castillo run: {path}"), err
    expected = {
        "bad": f", line {BAD_LINE}: not TOML",
        "fifo": ": the file is a FIFO",
        "missing": ": cannot read the file",
    }[kind]
    assert expected in err and "Traceback" not in err, err
    assert not (tmp_path / "data" / "castillo.db").exists()  # refused before anything opened


def test_an_imported_record_has_its_catalogue_checked_again(
    client: TestClient, tmp_path: Path
) -> None:
    catalogue = parse_catalogue(GOOD, "ours.toml")
    options = SPEC.options_from_json(
        {
            "players": ["red", "blue"],
            "mode": "dealer",
            "seed": 3,
            "catalogue": "ours.toml",
            "catalogue_label": catalogue.label,
            "catalogue_cards": list(to_entries(catalogue)),
        }
    )
    game = SPEC.new_state(options)
    _play_state(game)
    record = core_record.to_record(SPEC, game)
    answer = client.post("/api/games/import", json=record)
    assert answer.status_code == 200, answer.text
    tampered = json.loads(json.dumps(record))
    tampered["options"]["catalogue_cards"][0] = "ISLAND 40 LNESW<script>"
    answer = client.post("/api/games/import", json=tampered)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "bad_record" and "catalogue_cards" in answer.json()["reason"]


def _play_state(game: Any) -> None:
    rng = random.Random(8)
    while not game.is_terminal():
        player = game.current_players()[0]
        game.apply(rng.choice(game.legal_actions(player)), player)
