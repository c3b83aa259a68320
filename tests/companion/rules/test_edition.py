"""Editions as data: the four bundled editions, card names, and malformed edition files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.rules.edition import Edition, Movement, bundled_ids, load_edition
from companion.rules.errors import BadInput, ClueError, EditionError, UnknownCard

CLASSIC_SUSPECTS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green", "Mrs. Peacock", "Professor Plum")
CLASSIC_WEAPONS = {"Candlestick", "Knife", "Lead Pipe", "Revolver", "Rope", "Wrench"}
CLASSIC_ROOMS = {"Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library", "Lounge", "Hall",
                 "Study"}


# The four bundled editions


def test_four_editions_are_bundled() -> None:
    assert bundled_ids() == ("big_bang_theory", "classic", "doctor_who", "master_detective")


def test_classic_cards_and_rules() -> None:
    classic = load_edition("classic")
    assert classic.deck.suspects == CLASSIC_SUSPECTS
    assert set(classic.deck.weapons) == CLASSIC_WEAPONS
    assert set(classic.deck.rooms) == CLASSIC_ROOMS
    assert (len(classic.deck.suspects), len(classic.deck.weapons), len(classic.deck.rooms)) == (6, 6, 9)
    assert (classic.min_players, classic.max_players, classic.dice) == (3, 6, 1)
    assert (classic.first, classic.deal, classic.refute, classic.accuse) == ("Miss Scarlet", "all", "first", "anywhere")
    assert set(classic.require_board().rooms) == CLASSIC_ROOMS


def test_master_detective_cards_and_rules() -> None:
    md = load_edition("master_detective")
    assert md.deck.suspects[:6] == CLASSIC_SUSPECTS
    assert set(md.deck.suspects[6:]) == {"Sergeant Gray", "Madame Rose", "Monsieur Brunette", "Miss Peach"}
    assert set(md.deck.weapons) == CLASSIC_WEAPONS | {"Poison", "Horseshoe"}
    assert (len(md.deck.suspects), len(md.deck.weapons), len(md.deck.rooms)) == (10, 8, 12)
    assert {"Carriage House", "Gazebo", "Drawing Room", "Conservatory", "Library", "Kitchen", "Billiard Room",
            "Dining Room"} <= set(md.deck.rooms)
    assert "Cloakroom" not in md.deck.rooms  # every mover starts there, but it is never the crime scene
    assert (md.min_players, md.max_players, md.dice) == (3, 10, 2)
    assert (md.deal, md.refute, md.accuse) == ("all", "every", "anywhere")
    assert md.first_player(("Miss Scarlet", "Mr. Green", "Miss Peach")) is None  # the highest roller starts


def test_big_bang_theory_cards_and_rules() -> None:
    bbt = load_edition("big_bang_theory")
    assert set(bbt.deck.suspects) == {"Penny", "Raj", "Leonard", "Howard", "Bernadette", "Amy"}
    assert set(bbt.deck.weapons) == {"Petrified Toothbrush", "Dismantled Shelbot", "Dog-eared Comic",
                                     "Erased Equation Board", "Stained Cushion", "Wiped Hard Drive"}
    assert set(bbt.deck.rooms) == {"Bathroom", "Bedroom (Leonard)", "Bedroom (Sheldon)", "Kitchen", "Laundry Room",
                                   "Living Room (Penny)", "Living Room (Sheldon & Leonard)", "Roof", "Stairwell"}
    assert (bbt.min_players, bbt.max_players, bbt.dice) == (2, 6, 2)
    assert (bbt.deal, bbt.refute, bbt.accuse) == ("equal", "first", "Centre")


def test_doctor_who_cards_and_rules() -> None:
    dw = load_edition("doctor_who")
    assert set(dw.deck.suspects) == {"Clara Oswald", "Strax", "Jenny", "Madame Vastra", "River Song", "Amy & Rory"}
    assert set(dw.deck.weapons) == {"Hallucinogenic Lipstick", "Cyberman Gun", "Vortex Manipulator", "Strax's Gun",
                                    "Sonic Screwdriver", "The Moment"}
    assert set(dw.deck.rooms) == {"Victorian London", "The Moon", "Gallifrey", "Skaro", "Trenzalore", "Demon's Run",
                                  "The Library", "Starship UK", "Platform One"}
    assert (dw.min_players, dw.max_players, dw.dice) == (2, 6, 2)
    assert (dw.deal, dw.refute, dw.accuse) == ("equal", "first", "Centre")


def test_miss_scarlet_moves_first_and_without_her_the_next_suspect_round_the_board() -> None:
    classic = load_edition("classic")
    assert classic.first_player(("Mrs. White", "Miss Scarlet", "Mr. Green")) == "Miss Scarlet"
    assert classic.first_player(("Professor Plum", "Mrs. White", "Colonel Mustard")) == "Colonel Mustard"
    assert classic.first_player(("Professor Plum", "Mrs. Peacock", "Mr. Green")) == "Mr. Green"


def test_an_edition_without_a_board_cannot_be_played(tmp_path: Path) -> None:
    text = write_edition(tmp_path).read_text(encoding="utf-8")
    path = tmp_path / "boardless.toml"
    path.write_text(text[: text.index("[board]")], encoding="utf-8")
    edition = load_edition(str(path))
    assert edition.board is None
    with pytest.raises(EditionError) as caught:
        edition.require_board()
    assert edition.name in str(caught.value) and "board" in str(caught.value)


@pytest.mark.parametrize("edition_id", ["master_detective", "big_bang_theory", "doctor_who"])
def test_every_bundled_edition_has_a_board(edition_id: str) -> None:
    assert load_edition(edition_id).require_board().rooms


# Names as people type them


@pytest.mark.parametrize(
    ("typed", "printed"),
    [("mrs white", "Mrs. White"), ("MISS SCARLET", "Miss Scarlet"), ("lead  pipe", "Lead Pipe"),
     ("billiard room", "Billiard Room"), ("Mr Green", "Mr. Green")],
)
def test_card_names_match_case_insensitively(typed: str, printed: str) -> None:
    assert load_edition("classic").deck.resolve(typed) == printed


def test_an_unknown_card_lists_the_valid_names() -> None:
    deck = load_edition("classic").deck
    with pytest.raises(UnknownCard) as caught:
        deck.resolve("Mrs. Whyte")
    message = str(caught.value)
    assert "Mrs. Whyte" in message
    assert all(card in message for card in deck.all)
    assert isinstance(caught.value, ValueError)


def test_a_card_of_the_wrong_category_lists_that_category() -> None:
    deck = load_edition("classic").deck
    assert deck.resolve("rope", "weapon") == "Rope"
    with pytest.raises(UnknownCard) as caught:
        deck.resolve("Hall", "weapon")
    message = str(caught.value)
    assert all(weapon in message for weapon in CLASSIC_WEAPONS)
    assert "Study" not in message


def test_the_score_pads_misprint_names_the_toothbrush() -> None:
    deck = load_edition("big_bang_theory").deck
    assert deck.resolve("Petified Toothbrush") == "Petrified Toothbrush"
    assert deck.resolve("petified toothbrush", "weapon") == "Petrified Toothbrush"
    assert deck.category_of("Petified Toothbrush") == "weapon"


def test_sergeant_gray_answers_to_sgt_gray() -> None:
    assert load_edition("master_detective").deck.resolve("sgt gray") == "Sergeant Gray"


# Loading editions by name


@pytest.mark.parametrize(
    ("name", "edition_id"),
    [("classic", "classic"), ("Classic", "classic"), ("CLASSIC", "classic"), ("Cluedo", "classic"),
     ("master detective", "master_detective"), ("Master Detective", "master_detective"),
     ("master-detective", "master_detective"), ("CLUE Master Detective", "master_detective"),
     ("Big Bang Theory", "big_bang_theory"), ("doctor who", "doctor_who")],
)
def test_an_edition_loads_by_any_spelling_of_its_name(name: str, edition_id: str) -> None:
    assert load_edition(name).id == edition_id


@pytest.mark.parametrize("edition_id", ["classic", "master_detective", "big_bang_theory", "doctor_who"])
def test_an_edition_loads_by_its_own_printed_name(edition_id: str) -> None:
    name = load_edition(edition_id).name
    assert load_edition(name).id == edition_id


def test_an_unknown_edition_lists_the_valid_ones() -> None:
    with pytest.raises(BadInput) as caught:
        load_edition("Monopoly")
    message = str(caught.value)
    assert "Monopoly" in message
    assert all(edition_id in message for edition_id in bundled_ids())


# Malformed edition files

TINY_MAP = """\
# a tiny board: the Attic above, the Bar below
AAa..1
AAA..2
#....3
BBb...
"""

TINY_EDITION = """\
# A tiny edition for testing the loader.
id = "tiny"
name = "Tiny CLUE"

[players]
min = 2
max = 3

[cards]
suspects = ["Miss Scarlet", "Colonel Mustard", "Mrs. White"]
weapons = ["Rope", "Knife"]
rooms = ["Attic", "Bar"]

[rules]
dice = 1
first = "Miss Scarlet"
deal = "all"
refute = "first"
accuse = "anywhere"
weapons_start = "rooms"

[board]
map = "tiny.txt"
hallway = "."
void = "#"

[board.rooms]
A = "Attic"
B = "Bar"

[board.starts]
"1" = "Miss Scarlet"
"2" = "Colonel Mustard"
"3" = "Mrs. White"

[board.passages]
pairs = [["Attic", "Bar"]]
"""


def write_edition(folder: Path, old: str = "", new: str = "", tiny_map: str = TINY_MAP) -> Path:
    assert old in TINY_EDITION
    (folder / "tiny.txt").write_text(tiny_map, encoding="utf-8")
    path = folder / "tiny.toml"
    path.write_text(TINY_EDITION.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), start=1) if fragment in line)


def load_error(path: Path) -> str:
    with pytest.raises(EditionError) as caught:
        load_edition(str(path))
    assert isinstance(caught.value, ClueError)
    return str(caught.value)


def test_a_tiny_edition_loads_with_its_map_beside_it(tmp_path: Path) -> None:
    edition = load_edition(str(write_edition(tmp_path)))
    assert isinstance(edition, Edition)
    assert (edition.id, edition.name, edition.dice) == ("tiny", "Tiny CLUE", 1)
    board = edition.require_board()
    assert board.start_of("Mrs. White") == "f3"
    assert board.passages == {"Attic": ("Bar",), "Bar": ("Attic",)}
    assert edition.deck.resolve("attic") == "Attic"


@pytest.mark.parametrize(
    ("old", "new", "marker", "what"),
    [
        ("dice = 1", "dice = = 1", "dice", "TOML"),
        ("dice = 1", 'dice = "one"', "dice", "dice"),
        ("dice = 1", "dice = 0", "dice", "dice"),
        ('suspects = ["Miss Scarlet", "Colonel Mustard", "Mrs. White"]', 'suspects = "Miss Scarlet"', "suspects",
         "suspects"),
        ('deal = "all"', 'deal = "some"', "deal", "equal"),
        ('refute = "first"', 'refute = "all"', "refute", "every"),
        ('first = "Miss Scarlet"', 'first = "Miss Scarlett"', "first", "Miss Scarlett"),
        ('weapons = ["Rope", "Knife"]', 'weapons = ["Rope", "rope"]', "weapons", "rope"),
        ('rooms = ["Attic", "Bar"]', 'rooms = ["Attic", "Rope"]', "rooms = [", "Rope"),
        ('rooms = ["Attic", "Bar"]', 'rooms = ["Attic", "Bar", "Cellar"]', "rooms = [", "Cellar"),
        ("[rules]", '[cards.aliases]\n"Colonel Custard" = "Colonel Mustered"\n\n[rules]', "Custard", "Mustered"),
        ("max = 3", "max = 4", "m", "players"),
    ],
)
def test_a_malformed_edition_names_the_file_line_and_problem(
    tmp_path: Path, old: str, new: str, marker: str, what: str
) -> None:
    path = write_edition(tmp_path, old, new)
    message = load_error(path)
    found = re.match(rf"{re.escape(str(path))}:(\d+): ", message)
    assert found, message
    text = path.read_text(encoding="utf-8")
    if marker == "m":  # a players range is wrong on either of its lines
        assert int(found.group(1)) in (line_of(text, "min ="), line_of(text, "max ="))
    else:
        assert int(found.group(1)) == line_of(text, marker)
    assert what in message


@pytest.mark.parametrize("key", ["dice = 1", 'deal = "all"', 'map = "tiny.txt"', 'name = "Tiny CLUE"'])
def test_a_missing_key_names_the_file_line_and_key(tmp_path: Path, key: str) -> None:
    path = write_edition(tmp_path, key + "\n", "")
    message = load_error(path)
    assert re.match(rf"{re.escape(str(path))}:\d+: ", message), message
    assert repr(key.split(" = ")[0]) in message and "missing" in message


def test_an_unknown_first_suspect_lists_the_valid_suspects(tmp_path: Path) -> None:
    message = load_error(write_edition(tmp_path, 'first = "Miss Scarlet"', 'first = "Miss Scarlett"'))
    assert all(suspect in message for suspect in ("Miss Scarlet", "Colonel Mustard", "Mrs. White"))


def test_the_map_path_is_relative_to_the_edition_file(tmp_path: Path) -> None:
    path = write_edition(tmp_path, 'map = "tiny.txt"', 'map = "boards/tiny.txt"')
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "tiny.txt").write_text(TINY_MAP.replace("AAA..2", "AAA.2"), encoding="utf-8")
    message = load_error(path)
    assert message.startswith(f"{tmp_path / 'boards' / 'tiny.txt'}:3: ")
    assert "wide" in message


def test_a_missing_map_file_is_named(tmp_path: Path) -> None:
    message = load_error(write_edition(tmp_path, 'map = "tiny.txt"', 'map = "nowhere.txt"'))
    assert str(tmp_path / "nowhere.txt") in message and "cannot read" in message


@pytest.mark.parametrize(
    ("old", "new", "tiny_map", "what"),
    [
        ("", "", TINY_MAP.replace("3", "."), "Mrs. White"),
        ('B = "Bar"', 'B = "Bar"\nC = "Cellar"', TINY_MAP, "Cellar"),
        ('pairs = [["Attic", "Bar"]]', 'pairs = [["Attic", "Roof"]]', TINY_MAP, "Roof"),
    ],
    ids=["missing start square", "room not on the map", "passage to an unknown room"],
)
def test_a_board_legend_naming_what_the_map_lacks_points_at_a_line(
    tmp_path: Path, old: str, new: str, tiny_map: str, what: str
) -> None:
    path = write_edition(tmp_path, old, new, tiny_map)
    message = load_error(path)
    assert what in message
    assert re.match(rf"({re.escape(str(path))}|{re.escape(str(tmp_path / 'tiny.txt'))}):\d+: ", message), message


def test_an_unreadable_edition_file_is_named(tmp_path: Path) -> None:
    message = load_error(tmp_path / "missing.toml")
    assert str(tmp_path / "missing.toml") in message


# The command line helper


def test_cli_lists_the_bundled_editions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edition"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == [
        "big_bang_theory: CLUE The Big Bang Theory",
        "classic: Classic CLUE",
        "doctor_who: CLUE Doctor Who",
        "master_detective: CLUE Master Detective",
    ]


def test_cli_summarises_classic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edition", "Classic"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Classic CLUE (classic): 3-6 players")
    assert lines[1] == "  suspects: " + ", ".join(CLASSIC_SUSPECTS)
    assert lines[-1] == "  board: 24x25, 188 hallway squares, 9 rooms, passages: 2"


def test_cli_summarises_master_detective(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edition", "master detective"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("CLUE Master Detective (master_detective): 3-10 players")
    assert lines[-1].startswith("  board: 26x26, ") and "13 rooms" in lines[-1]


def test_cli_checks_an_edition_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edition", str(write_edition(tmp_path))]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Tiny CLUE (tiny): 2-3 players")


@pytest.mark.parametrize("case", ["unknown", "malformed"])
def test_cli_a_bad_edition_is_one_line_on_stderr_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    if case == "unknown":
        argv, needle = ["edition", "Monopoly"], "classic"
    else:
        path = write_edition(tmp_path, 'deal = "all"', 'deal = "some"')
        argv, needle = ["edition", str(path)], f"{path}:{line_of(path.read_text(encoding='utf-8'), 'deal')}:"
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("clue-companion: ")
    assert needle in err and "Traceback" not in err


# Movement flags

def test_classic_moves_by_classic_rules_and_master_detective_declares_its_own() -> None:
    assert load_edition("classic").movement == Movement(False, False, False)
    assert load_edition("master_detective").movement == Movement(
        pass_through_rooms=True, jump_movers=True, passage_mid_roll=True
    )


def test_movement_flags_default_to_classic_when_the_table_is_absent(tmp_path: Path) -> None:
    assert load_edition(str(write_edition(tmp_path))).movement == Movement()


@pytest.mark.parametrize("flag", ["pass_through_rooms", "jump_movers", "passage_mid_roll"])
def test_a_board_edition_may_turn_on_each_movement_rule(tmp_path: Path, flag: str) -> None:
    path = write_edition(tmp_path, "[board]\n", f"[movement]\n{flag} = true\n\n[board]\n")
    assert getattr(load_edition(str(path)).movement, flag) is True


def test_a_movement_flag_must_be_true_or_false(tmp_path: Path) -> None:
    path = write_edition(tmp_path, "[board]\n", '[movement]\njump_movers = "yes"\n\n[board]\n')
    message = load_error(path)
    assert f"{path}:{line_of(path.read_text(), 'jump_movers')}:" in message
    assert "bool" in message


def test_an_unknown_movement_flag_is_refused(tmp_path: Path) -> None:
    path = write_edition(tmp_path, "[board]\n", "[movement]\nfly = true\n\n[board]\n")
    assert "unknown key 'fly'" in load_error(path)
