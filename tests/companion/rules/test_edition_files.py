"""User editions: the editor document, its files and checks, the export file, and loading from the user folder."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from user_boards import small_document

from companion.rules.board import Board
from companion.rules.board_diff import board_diff
from companion.rules.edition import (
    EDITIONS_VARIABLE,
    Edition,
    bundled_ids,
    load_bundled,
    load_edition,
)
from companion.rules.edition_check import check_document
from companion.rules.edition_files import (
    MAX_EXPORT,
    DocumentError,
    EditionFiles,
    blank_document,
    document_of,
    export_text,
    files_of,
    import_text,
    load_files,
)
from companion.rules.errors import BadInput, ClueError, EditionError
from companion.rules.toml_writer import quote, toml_text
from companion.rules.user_editions import list_editions, save_files


@pytest.fixture
def user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "editions"
    monkeypatch.setenv(EDITIONS_VARIABLE, str(folder))
    return folder


def same_board(one: Board, other: Board) -> None:
    assert (one.width, one.height, one.squares, one.neighbours) == (other.width, other.height, other.squares,
                                                                    other.neighbours)
    assert (one.rooms, dict(one.exits), dict(one.cells), one.door_cells) == (
        other.rooms, dict(other.exits), dict(other.cells), other.door_cells)
    assert (dict(one.starts), dict(one.passages), dict(one.marks), dict(one.spots)) == (
        dict(other.starts), dict(other.passages), dict(other.marks), dict(other.spots))
    assert (one.start_room, one.passage_pairs, one.joins, dict(one.aliases)) == (
        other.start_room, other.passage_pairs, other.joins, dict(other.aliases))


def same_edition(one: Edition, other: Edition) -> None:
    """Equal as games: cards, players, every rule, the board (not where the files are)."""
    assert (one.id, one.name, one.deck.suspects, one.deck.weapons, one.deck.rooms) == (
        other.id, other.name, other.deck.suspects, other.deck.weapons, other.deck.rooms)
    assert dict(one.deck.aliases) == dict(other.deck.aliases)
    fields = ("min_players", "max_players", "dice", "first", "deal", "refute", "accuse", "weapons_start",
              "movement", "question_die", "must_suggest", "variants", "bonus", "colours", "labels")
    assert [getattr(one, name) for name in fields] == [getattr(other, name) for name in fields]
    assert dict(one.powers) == dict(other.powers)
    assert (one.board is None) == (other.board is None)
    if one.board is not None and other.board is not None:
        same_board(one.board, other.board)


# ---- round trips ------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", bundled_ids())
def test_every_bundled_edition_survives_document_files_and_loading(edition_id: str) -> None:
    bundled = load_edition(edition_id)
    document = document_of(bundled)
    assert check_document(document) == []
    same_edition(load_files(files_of(document)), bundled)


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_every_bundled_edition_survives_export_and_import(edition_id: str) -> None:
    bundled = load_edition(edition_id)
    text = export_text(bundled)
    assert "rows = [" in text and "map =" not in text
    same_edition(load_files(import_text(text)), bundled)


def test_a_new_edition_takes_its_cards_and_map_from_the_document_and_its_rules_from_the_base() -> None:
    document = {**small_document(), "base": "big_bang_theory"}
    grid = document["map"]
    grid["rows"][3] = "1...Xx...2"  # the Centre, where accusations are made in Big Bang Theory
    grid["rooms"]["X"] = "Centre"
    edition = load_files(files_of(document))
    bbt = load_edition("big_bang_theory")
    assert edition.deck.suspects == ("Ada", "Bo", "Cy") and edition.base == "big_bang_theory"
    assert (edition.dice, edition.deal, edition.must_suggest, edition.bonus) == (bbt.dice, bbt.deal, True, bbt.bonus)
    assert edition.powers == {}  # the base's powers belong to suspects this edition does not have
    assert edition.first == "highest roll"
    assert edition.colours == {"Ada": "#aa3300"} and edition.labels == {"Ada": "ADA"}


def test_the_base_first_suspect_gives_way_to_the_editions_own() -> None:
    assert load_files(files_of(small_document())).first == "Ada"


def test_the_document_round_trips_through_the_files(user_folder: Path) -> None:
    save_files(user_folder, files_of(small_document()))
    again = document_of(load_edition("our_board"))
    expected = small_document()
    assert again["map"]["rows"] == expected["map"]["rows"]
    assert {key: again[key] for key in ("id", "name", "base", "players", "cards", "colours", "labels")} == {
        key: expected[key] for key in ("id", "name", "base", "players", "cards", "colours", "labels")}


def test_strings_are_escaped_for_toml() -> None:
    awkward = 'He said "hi"\\ \t\u0001 é'
    text = toml_text({"name": awkward, "table": {awkward: [awkward]}})
    assert tomllib.loads(text) == {"name": awkward, "table": {awkward: [awkward]}}
    assert quote('"') == '"\\""'


def test_card_names_with_quotes_and_backslashes_survive() -> None:
    document = small_document()
    document["cards"]["weapons"] = ['The "Big" Pan', "Back\\slash"]
    assert load_files(files_of(document)).deck.weapons == ('The "Big" Pan', "Back\\slash")


# ---- loading user editions ----------------------------------------------------------------------------

def test_a_user_edition_loads_by_id_and_by_name_and_is_listed(user_folder: Path) -> None:
    save_files(user_folder, files_of(small_document()))
    edition = load_edition("our_board")
    assert edition.source == "yours" and load_edition("Our Board") is edition
    entries = {entry.id: entry for entry in list_editions()}
    assert (entries["our_board"].source, entries["our_board"].base) == ("yours", "classic")
    assert entries["classic"].source == "bundled"


def test_a_correction_overrides_the_bundled_edition_and_the_bundled_one_stays_reachable(user_folder: Path) -> None:
    document = document_of(load_edition("classic"))
    document["map"]["rows"][7] = "#" + document["map"]["rows"][7][1:]  # a8: hallway -> void
    save_files(user_folder, files_of(document))
    corrected = load_edition("classic")
    assert corrected.source == "correction" and "a8" not in corrected.require_board().squares
    assert "a8" in load_bundled("classic").require_board().squares
    assert board_diff(load_bundled("classic").require_board(), corrected.require_board()) == ["a8: hallway -> void"]
    assert {entry.id: entry.source for entry in list_editions()}["classic"] == "correction"


def test_the_cache_follows_the_variable_and_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    document = small_document()
    save_files(one, files_of(document))
    save_files(two, files_of({**document, "name": "Our Other Board"}))
    monkeypatch.setenv(EDITIONS_VARIABLE, str(one))
    assert load_edition("our_board").name == "Our Board"
    monkeypatch.setenv(EDITIONS_VARIABLE, os.pathsep.join((str(two), str(one))))
    assert load_edition("our_board").name == "Our Other Board"  # the first folder wins
    save_files(two, files_of({**document, "name": "Renamed Board Again"}))
    assert load_edition("our_board").name == "Renamed Board Again"  # saved again: read afresh
    monkeypatch.delenv(EDITIONS_VARIABLE)
    with pytest.raises(BadInput, match="unknown edition 'our_board'"):
        load_edition("our_board")


def test_a_user_file_whose_id_differs_from_its_name_is_refused(user_folder: Path) -> None:
    save_files(user_folder, files_of(small_document()))
    (user_folder / "our_board.toml").rename(user_folder / "other.toml")
    with pytest.raises(EditionError, match="named other.toml"):
        load_edition("other")
    assert [entry.problem is not None for entry in list_editions() if entry.id == "other"] == [True]


def test_user_folder_names_that_are_not_ids_are_never_paths(user_folder: Path) -> None:
    with pytest.raises(BadInput, match="unknown edition"):
        load_edition("../../etc/passwd")


@pytest.mark.parametrize(("key", "value", "message"), [
    ("colours", {"Ada": "red"}, "expected a colour"),
    ("colours", {"Zed": "#112233"}, "not a card"),
    ("labels", {"Ada": "ABCDE"}, "expected a label"),
])
def test_colours_and_labels_are_checked_by_the_loader(key: str, value: dict[str, str], message: str) -> None:
    files = files_of(small_document())
    data = tomllib.loads(files.toml)
    data["cards"][key] = value
    with pytest.raises(EditionError, match=message):
        load_files(EditionFiles(files.id, toml_text(data), files.map))


# ---- saving --------------------------------------------------------------------------------------------

def test_saving_writes_both_files_readable_by_all_and_nothing_else(user_folder: Path) -> None:
    path = save_files(user_folder, files_of(small_document()))
    assert path == user_folder / "our_board.toml"
    assert sorted(p.name for p in user_folder.iterdir()) == ["our_board.toml", "our_board.txt"]
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in user_folder.iterdir())
    assert stat.S_IMODE(user_folder.stat().st_mode) & 0o755 == 0o755


def test_saving_refuses_an_unsound_edition_and_writes_nothing(user_folder: Path) -> None:
    files = files_of(small_document())
    with pytest.raises(BadInput, match="not saved"):
        save_files(user_folder, EditionFiles(files.id, files.toml, files.map.replace("1...", "....")))
    assert not user_folder.exists() or not list(user_folder.iterdir())


def test_files_of_a_bad_document_lists_its_problems() -> None:
    document = small_document()
    document["cards"]["rooms"].append("Dungeon")
    with pytest.raises(DocumentError) as raised:
        files_of(document)
    assert [problem.message for problem in raised.value.problems] == [
        "the room card 'Dungeon' is not on the map: give it a letter and paint it"]


# ---- checks ---------------------------------------------------------------------------------------------

def problems_of(document: dict[str, Any]) -> list[tuple[str | None, str]]:
    return [(problem.square, problem.message) for problem in check_document(document)]


def test_map_problems_point_at_their_squares() -> None:
    document = small_document()
    document["map"]["rows"][5] = "CCc....4.."
    problem = check_document(document)[0]
    assert (problem.row, problem.column, problem.square) == (5, 7, "h6")
    assert "unknown character '4'" in problem.message


def test_a_door_to_nowhere_points_at_the_door() -> None:
    document = small_document()
    document["map"]["rows"][0] = "AAAa##BBBB"
    document["map"]["rows"][1] = "AAAA..bBBB"
    assert ("d1", "door d1 of the Attic opens onto no hallway square") in problems_of(document)


def test_an_unreachable_room_points_at_its_first_square() -> None:
    document = small_document()
    document["map"]["rows"][1] = "AAAA..bBBB"
    document["map"]["passages"] = []
    assert problems_of(document) == [("a1", "the Attic cannot be reached from the start: no door or passage leads to it")]


def test_card_and_player_problems_are_listed_together() -> None:
    document = small_document()
    document["cards"]["suspects"].append("ada")
    document["players"] = {"min": 3, "max": 7}
    document["labels"] = {"Bo": "toolong"}
    assert problems_of(document) == [
        (None, "two cards are called 'ada' (and 'Ada')"),
        (None, "players: need 2 <= min (3) <= max (7) <= the 4 suspects"),
        (None, "labels: 'Bo' is 'toolong'; expected 1 to 4 characters"),
    ]


def test_a_bonus_space_needs_a_base_with_bonus_cards() -> None:
    document = small_document()
    document["map"]["rows"][2] = "....$....."
    document["map"]["marks"] = {"$": "bonus"}
    assert problems_of(document) == [("e3", "a bonus space ('$'), but the rules base classic has no bonus cards to draw")]
    assert check_document({**document, "base": "doctor_who", "map": {**document["map"], "start_room": None}}) != []


def test_the_loaders_own_checks_come_last() -> None:
    document = {**small_document(), "base": "big_bang_theory"}
    document["map"] = {**document["map"], "start_room": None}
    assert problems_of(document) == [(None, "accuse is 'Centre': not 'anywhere', a room or a mark of the map")]


def test_a_character_may_mean_one_thing() -> None:
    document = small_document()
    document["map"]["starts"] = {"1": "Ada", "2": "Bo", ".": "Cy"}
    assert (None, "the character '.' means both hallway and start Cy") in problems_of(document)


@pytest.mark.parametrize("bad", [None, [], "x", {"id": 3}, {**small_document(), "map": {"rows": "x"}},
                                 {**small_document(), "players": {"min": True, "max": 3}},
                                 {**small_document(), "base": "nonesuch"}, {**small_document(), "id": "Bad Id"},
                                 {**small_document(), "map": {**small_document()["map"], "rows": ["# comment"]}},
                                 {**small_document(), "map": {**small_document()["map"], "rows": ["x" * 41]}}])
def test_a_malformed_document_is_problems_not_an_exception(bad: object) -> None:
    found = check_document(bad)
    assert found and all(problem.square is None for problem in found)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)


@settings(max_examples=60, deadline=None)
@given(part=st.sampled_from(["players", "cards", "map", "colours", "labels", "id", "base"]), value=JSON)
def test_any_json_in_any_part_is_checked_without_raising(part: str, value: object) -> None:
    check_document({**small_document(), part: value})


@settings(max_examples=60, deadline=None)
@given(part=st.sampled_from(["rows", "rooms", "starts", "marks", "passages", "joins", "hallway", "void",
                             "start_room", "spots", "aliases"]), value=JSON)
def test_any_json_in_any_part_of_the_map_is_checked_without_raising(part: str, value: object) -> None:
    check_document({**small_document(), "map": {**small_document()["map"], part: value}})


@settings(max_examples=40, deadline=None)
@given(row=st.integers(0, 7), column=st.integers(0, 9), char=st.sampled_from(".#ABCabc123$Z"))
def test_any_painted_square_is_checked_without_raising(row: int, column: int, char: str) -> None:
    document = small_document()
    line = document["map"]["rows"][row]
    document["map"]["rows"][row] = line[:column] + char + line[column + 1:]
    for problem in check_document(document):
        assert problem.square is None or (problem.row is not None and problem.column is not None)


# ---- blank documents and the export file ------------------------------------------------------------------

def test_a_blank_document_has_the_size_asked_and_the_bases_cards() -> None:
    blank = blank_document(load_edition("classic"), 12, 9)
    assert blank["map"]["rows"] == ["#" * 12] * 9
    assert blank["cards"]["suspects"] == list(load_edition("classic").deck.suspects)
    assert blank_document(load_edition("classic"), 3, 2, "hallway")["map"]["rows"] == ["..."] * 2
    assert check_document(blank)  # nothing painted yet: the rooms are missing
    with pytest.raises(BadInput):
        blank_document(load_edition("classic"), 41, 9)


@pytest.mark.parametrize(("text", "message"), [
    ("id = 3", "id must be"),
    ("not toml [", "not valid TOML"),
    ('id = "x"\n[board]\nmap = "x.txt"', "rows = "),
    ('id = "x"\n[board]\nrows = ["# a"]', "would read as a comment"),
    ('id = "x"\n[board]\nrows = [1]', "non-empty list of strings"),
    ("x = " + "[" * 5000, "nested too deeply"),
    ("# " + "x" * MAX_EXPORT, "larger than 256 KiB"),
])
def test_a_bad_export_file_is_refused_with_one_line(text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message) as raised:
        import_text(text)
    assert "\n" not in str(raised.value)


def test_an_export_with_an_unsound_edition_says_what_is_wrong() -> None:
    text = export_text(load_edition("classic")).replace('dice = 1', 'dice = 9')
    with pytest.raises(BadInput, match="dice must be 1 to 3"):
        import_text(text)


def test_an_export_with_an_unknown_key_is_refused() -> None:
    text = export_text(load_edition("classic")).replace('dice = 1', 'dice = 1\ncheat = true')
    with pytest.raises(ClueError, match="unknown key 'cheat'"):
        import_text(text)
