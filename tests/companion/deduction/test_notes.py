"""A player's hand-entered notes of a game played without the companion, read by `clue-companion notebook`."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import main
from companion.deduction.playout import random_game
from companion.record.replay import Replay

SEATS = ["Miss Scarlet", "Mrs. White", "Mr. Green"]
SETUP = {"type": "notes", "edition": "classic", "seats": SEATS,
         "hand": ["Rope", "Hall", "Mr. Green", "Knife", "Study", "Professor Plum"]}


def notebook(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, Any]],
             seat: str = "Mr. Green") -> list[dict[str, Any]]:
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["notebook", str(path), "--seat", seat, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def as_notes(record: list[dict[str, Any]], seat: str) -> list[dict[str, Any]]:
    """What a player at an ordinary table would have written down of a refereed game."""
    game = Replay(json.dumps(record[0]), view=seat)
    events = game.setup_events + [event for line in record[1:]
                                  for event in game.step(0, json.dumps(line))["events"]]
    seats = next(event["seats"] for event in events if event["type"] == "game_started")
    hand = next(event["cards"] for event in events if event["type"] == "cards_dealt" and event["seat"] == seat)
    face_up = next(event["face_up"] for event in events if event["type"] == "game_started")
    notes: list[dict[str, Any]] = [{"type": "notes", "edition": record[0]["edition"], "seats": seats,
                                    "hand": hand, "face_up": face_up}]
    for event in events:
        triple = {key: event.get(key) for key in ("suspect", "weapon", "room")}
        if event["type"] == "suggested":
            notes.append({"type": "suggest", "seat": event["seat"], **triple})
        elif event["type"] == "passed":
            notes.append({"type": "pass", "seat": event["seat"]})
        elif event["type"] == "card_shown":
            line = {"type": "show", "seat": event["by"], "to": event["to"]}
            notes.append(line | ({"card": event["card"]} if "card" in event else {}))
        elif event["type"] == "accused":
            notes.append({"type": "accuse", "seat": event["seat"], **triple, "correct": event["correct"]})
        elif event["type"] == "game_over" and not any(note.get("correct") for note in notes):
            notes.append({"type": "solution", **event["solution"]})
    return notes


def distinct(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    notebooks = [result["notebook"] for result in results]
    return [book for at, book in enumerate(notebooks) if at == 0 or book != notebooks[at - 1]]


def within(shorter: list[Any], longer: list[Any]) -> bool:
    """Whether ``shorter`` is ``longer`` with some items left out (a refereed line can add several facts)."""
    rest = iter(longer)
    return all(any(item == other for other in rest) for item in shorter)


@pytest.mark.parametrize("seed", [3, 8])
def test_notes_of_a_game_give_the_same_notebooks_as_its_refereed_record(tmp_path, capsys, seed):
    record = random_game(random.Random(seed))
    seat = record[0]["seats"][1]
    refereed = notebook(tmp_path, capsys, record, seat)
    noted = notebook(tmp_path, capsys, as_notes(record, seat), seat)
    assert all(result["ok"] for result in noted)
    assert within(distinct(refereed), distinct(noted))
    assert noted[-1]["notebook"] == refereed[-1]["notebook"]
    assert noted[-1]["notebook"]["can_accuse"]


def test_a_player_who_passed_and_then_showed_the_card_is_reported_with_both_lines(tmp_path, capsys):
    results = notebook(tmp_path, capsys, [
        SETUP,
        {"type": "suggest", "seat": "Mr. Green", "suspect": "Colonel Mustard", "weapon": "Wrench", "room": "Lounge"},
        {"type": "show", "seat": "Mrs. White", "card": "Wrench"},
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Mrs. Peacock", "weapon": "Wrench", "room": "Kitchen"},
        {"type": "pass", "seat": "Mrs. White"},
    ])
    assert results[2]["notebook"]["certain"]["Wrench"] == "Mrs. White"
    last = results[-1]
    assert last["ok"] and last["notebook"] is None
    assert last["contradiction"]["entries"] == ["line 3: Mrs. White showed Mr. Green Wrench",
                                                "line 5: Mrs. White passed"]


def test_a_show_must_go_from_one_player_to_another(tmp_path, capsys):
    results = notebook(tmp_path, capsys, [
        SETUP,
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Colonel Mustard", "weapon": "Wrench", "room": "Lounge"},
        {"type": "show", "seat": "Mrs. White", "to": "Mrs. White"},
        {"type": "show", "seat": "Miss Scarlet"},
    ])
    assert results[2]["error"]["message"] == "Mrs. White cannot show a card to themselves"
    assert results[3]["error"]["message"] == "Miss Scarlet made the suggestion and does not answer it"


def test_showing_someone_a_card_you_do_not_hold_is_a_contradiction(tmp_path, capsys):
    results = notebook(tmp_path, capsys, [
        SETUP,
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Colonel Mustard", "weapon": "Wrench", "room": "Lounge"},
        {"type": "show", "seat": "Mr. Green", "card": "Wrench"},
    ])
    assert "line 1: Mr. Green holds" in results[-1]["contradiction"]["message"]
    assert "line 3: Mr. Green showed Miss Scarlet Wrench" in results[-1]["contradiction"]["entries"]


def test_a_pass_then_a_card_shown_by_someone_else_narrows_the_envelope(tmp_path, capsys):
    results = notebook(tmp_path, capsys, [
        SETUP,
        {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Colonel Mustard", "weapon": "Rope", "room": "Lounge"},
        {"type": "pass", "seat": "Mrs. White"},
        {"type": "show", "seat": "Mr. Green", "card": "Rope"},
        {"type": "roll", "seat": "Mrs. White", "dice": [4]},
    ])
    book = results[3]["notebook"]
    assert book["impossible"]["Colonel Mustard"] == ["Mrs. White", "Mr. Green"]
    assert results[4]["ok"] and results[4]["notebook"] == book
    # Mrs. White's hand of six is drawn from 15 unknown cards less her two known misses;
    # the numbers are the exact counts, not estimates.
    assert book["cards"]["Colonel Mustard"]["Miss Scarlet"] + book["cards"]["Colonel Mustard"]["envelope"] == \
        pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize(("line", "message"), [
    ({"type": "pass", "seat": "Mrs. White"}, "no suggestion is under way"),
    ({"type": "suggest", "seat": "Nobody", "suspect": "Professor Plum", "weapon": "Rope", "room": "Hall"}, "is not seated"),
    ({"type": "suggest", "seat": "Mrs. White", "suspect": "Professor Plum", "weapon": "Spoon", "room": "Hall"}, "unknown weapon"),
    ({"type": "accuse", "seat": "Mrs. White", "suspect": "Professor Plum", "weapon": "Rope", "room": "Hall", "correct": "no"},
     "true or false"),
    ({"type": "guess"}, "unknown line type"),
    ({"type": "notes", **SETUP}, "only be the first line"),
    ({"type": "pass", "seat": "Mrs. White", "extra": 1}, "unknown field"),
    ({"type": "show", "seat": "Mrs. White", "to": "Mrs. White"}, "no suggestion is under way"),
])
def test_a_bad_line_is_rejected_with_a_message_and_reading_goes_on(tmp_path, capsys, line, message):
    results = notebook(tmp_path, capsys, [SETUP, line, {"type": "end_turn"}])
    assert not results[1]["ok"] and message in results[1]["error"]["message"]
    assert results[2]["ok"]


@pytest.mark.parametrize(("change", "message"), [
    ({"hand": ["Rope"]}, "hand holds 6 cards with 3 players, not 1"),
    ({"hand": ["Rope", "Rope", "Hall", "Knife", "Study", "Professor Plum"]}, "listed twice"),
    ({"seats": ["Miss Scarlet"]}, "3 to 6 players"),
    ({"edition": "monopoly"}, "unknown edition"),
    ({"face_up": ["Lounge"]}, "no cards lie face up"),
    ({"hand_sizes": {"Miss Scarlet": 6, "Mrs. White": 6}}, "no size for Mr. Green"),
])
def test_a_bad_notes_line_stops_with_exit_2(tmp_path, capsys, change, message):
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps(SETUP | change) + "\n")
    assert main(["notebook", str(path), "--seat", "Mr. Green"]) == 2
    assert message in capsys.readouterr().err


def test_uneven_hands_follow_the_deal_and_can_be_given(tmp_path, capsys):
    seats = ["Miss Scarlet", "Mrs. White", "Mr. Green", "Mrs. Peacock"]  # 18 cards: 5, 5, 4, 4
    setup = SETUP | {"seats": seats, "hand": ["Rope", "Hall", "Knife", "Study"]}
    assert notebook(tmp_path, capsys, [setup])[0]["notebook"]["deals"] > 0
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps(setup | {"hand": ["Rope"]}) + "\n")
    assert main(["notebook", str(path), "--seat", "Miss Scarlet"]) == 2
    given = setup | {"hand_sizes": {"Miss Scarlet": 4, "Mrs. White": 4, "Mr. Green": 5, "Mrs. Peacock": 5}}
    assert notebook(tmp_path, capsys, [given], "Miss Scarlet")[0]["ok"]


def test_an_edition_that_lays_leftovers_face_up_needs_them_listed(tmp_path, capsys):
    setup = {"type": "notes", "edition": "doctor_who", "seats": ["Clara Oswald", "Strax", "Jenny", "River Song"],
             "hand": ["Strax", "Cyberman Gun", "The Moon", "Gallifrey"]}  # 18 cards: 4 each, 2 face up
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps(setup) + "\n")
    assert main(["notebook", str(path), "--seat", "Clara Oswald"]) == 2
    assert "lays 2 leftover card(s) face up with 4 players" in capsys.readouterr().err
    listed = setup | {"face_up": ["Jenny", "Victorian London"]}
    book = notebook(tmp_path, capsys, [listed], "Clara Oswald")[0]["notebook"]
    assert book["certain"]["Strax"] == "Clara Oswald"
    assert "Jenny" not in book["cards"] and book["places"][-1] == "envelope"
