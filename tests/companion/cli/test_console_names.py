"""The console names pieces, places and seats by any unique part, as people type them."""

from __future__ import annotations

import io

import pytest

from companion.cli.console import Console
from companion.cli.names import UnclearName, completions, match_name
from companion.rules.edition import load_edition


class Table:
    """A stand-in for the mock table that records what the console asks of it."""

    def __init__(self, edition: str, seats: tuple[str, ...]) -> None:
        self.edition = load_edition(edition)
        self.seats = seats
        self.handhelds: dict[str, object] = {}
        self.done: list[tuple[str, ...]] = []

    def view(self, seat: str | None = None) -> dict[str, object]:
        return {"seats": list(self.seats), "stage": "playing"}

    def move(self, name: str, place: str) -> bool:
        self.done.append(("move", name, place))
        return True

    def tap(self, card: str, seat: str | int) -> None:
        self.done.append(("tap", card, str(seat)))

    def press(self, seat: str, button: str) -> None:
        self.done.append(("press", seat, button))

    def caught_up(self, seat: str) -> None:
        """The real rig waits for the handheld to draw the press's outcome."""


CLASSIC_SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")


def play(lines: list[str], edition: str = "classic",
         seats: tuple[str, ...] = CLASSIC_SEATS) -> tuple[list[tuple[str, ...]], str]:
    table, out = Table(edition, seats), io.StringIO()
    Console(table, out).run(lines)  # type: ignore[arg-type]
    return table.done, out.getvalue()


@pytest.mark.parametrize(("line", "done"), [
    ("move scarlet lounge", ("move", "Miss Scarlet", "Lounge")),
    ("move SCAR lou", ("move", "Miss Scarlet", "Lounge")),
    ("move col must dining room", ("move", "Colonel Mustard", "Dining Room")),
    ("move mrs white the billiard", ("move", "Mrs. White", "Billiard Room")),
    ("move plum h25", ("move", "Professor Plum", "h25")),
    ("move lead cons", ("move", "Lead Pipe", "Conservatory")),
    ('move "miss scarlet" "dining room"', ("move", "Miss Scarlet", "Dining Room")),
    ("move 'miss scarlet' 'dining room'", ("move", "Miss Scarlet", "Dining Room")),
    ("tap kni white", ("tap", "Knife", "Mrs. White")),
    ("tap rev 2", ("tap", "Revolver", "Colonel Mustard")),
    ("tap rope centre", ("tap", "Rope", "0")),
])
def test_names_are_any_unique_part_in_any_case(line: str, done: tuple[str, ...]) -> None:
    assert play([line]) == ([done], "")


def test_an_ambiguous_name_says_which_names_it_could_be() -> None:
    done, out = play(["move mrs lounge"])
    assert done == []
    assert out.splitlines()[0] == "? 'mrs' could be Mrs. White or Mrs. Peacock: type more of the name"
    done, out = play(["move gun skaro"], "doctor_who", ("Strax", "Jenny", "River Song"))
    assert (done, out) == ([], "? 'gun' could be Cyberman Gun or Strax's Gun: type more of the name\n")


def test_doctor_who_names_with_apostrophes_and_ampersands() -> None:
    seats = ("Clara Oswald", "Amy & Rory", "Strax")
    done, out = play(["move strax's gun demon's run", "move amy skaro", "tap vortex amy", "move strax moon"],
                     "doctor_who", seats)
    assert out == ""
    assert done == [("move", "Strax's Gun", "Demon's Run"), ("move", "Amy & Rory", "Skaro"),
                    ("tap", "Vortex Manipulator", "Amy & Rory"), ("move", "Strax", "The Moon")]


def test_an_unknown_seat_lists_the_seats_with_their_numbers() -> None:
    answer = play(["press nobody ok"])[1]
    assert answer == "? no seat 'nobody'; seats: 1 Miss Scarlet, 2 Colonel Mustard, 3 Mrs. White\n"


def test_matching_prefers_an_exact_name_and_completes_from_the_typed_word() -> None:
    weapons = ("Strax's Gun", "Cyberman Gun")
    suspects = ("Strax", "Jenny")
    assert match_name("strax", (*suspects, *weapons), "piece") == "Strax"
    assert match_name("cyb", weapons, "weapon") == "Cyberman Gun"
    with pytest.raises(UnclearName, match="'gun' could be Strax's Gun or Cyberman Gun"):
        match_name("gun", weapons, "weapon")
    with pytest.raises(UnclearName, match="unknown weapon 'rope'; valid: Strax's Gun, Cyberman Gun"):
        match_name("rope", weapons, "weapon")
    assert completions(["strax's", "g"], weapons) == ["Gun"]
    assert completions(["g"], weapons) == ["Gun"]
    assert completions(["cy"], weapons) == ["Cyberman Gun"]
    assert completions(["x"], weapons) == []


def test_raw_place_and_remove_at_a_table_without_a_virtual_board_say_why() -> None:
    # A camera table whose cards are on the phones has no board of readers (the stand-in has none either).
    done, said = play(["place 04:A2:1B:3C 2", "remove 04:A2:1B:3C"])
    assert done == []
    assert said.count("this table has no virtual board of readers") == 2 and "Traceback" not in said
