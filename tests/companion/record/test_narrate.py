"""Narration reads as English: articles, plural seats, possessive names, bonus cards by title."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.record.narrate import bonus_title, describe
from companion.rules.edition import bundled_ids, load_edition

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_a_deck_name_starting_with_a_vowel_takes_an() -> None:
    event = {"type": "drew", "seat": "Strax", "deck": "Intrigue Card", "card_id": "psychic_paper-1"}
    assert describe(event) == "Strax draws an Intrigue Card: Psychic Paper."
    event = {"type": "drew", "seat": "Penny", "deck": "Sheldon Card", "card_id": "roommate_agreement-1"}
    assert describe(event) == "Penny draws a Sheldon Card: Roommate Agreement, clause 37."


def test_a_card_drawn_by_another_seat_stays_hidden() -> None:
    assert describe({"type": "drew", "seat": "Strax", "deck": "Intrigue Card"}) == "Strax draws an Intrigue Card."


def test_a_played_card_is_named_by_its_title_from_the_edition() -> None:
    edition = load_edition("doctor_who")
    assert describe({"type": "card_played", "seat": "Strax", "card_id": "tardis-2"}, edition) == "Strax plays TARDIS."
    assert describe({"type": "card_played", "seat": "Penny", "card_id": "my_spot-1"}) == "Penny plays That's my spot!"


def test_every_bundled_bonus_card_has_a_title_not_an_id() -> None:
    for edition_id in bundled_ids():
        deck = load_edition(edition_id).bonus
        for card_id in deck.instances() if deck else ():
            title = bonus_title(card_id)
            assert title and "_" not in title and not re.search(r"-\d+$", title), (edition_id, card_id, title)
            assert deck.card(card_id).text.startswith(title.rstrip("!"))


def test_a_possessive_weapon_takes_no_article() -> None:
    suggested = {"type": "suggested", "seat": "Amy & Rory", "suspect": "Strax", "weapon": "Strax's Gun",
                 "room": "Starship UK"}
    assert describe(suggested) == "Amy & Rory suggest Strax with Strax's Gun in the Starship UK."
    assert describe({"type": "weapon_moved", "weapon": "Strax's Gun", "to": "Demon's Run"}) == \
        "Strax's Gun is brought into Demon's Run."
    assert describe({"type": "weapon_moved", "weapon": "Lead Pipe", "to": "Lounge"}) == \
        "The Lead Pipe is brought into the Lounge."


@pytest.mark.parametrize(("event", "sentence"), [
    ({"type": "rolled", "seat": "Amy & Rory", "dice": [3, 5], "total": 8}, "Amy & Rory roll 3 + 5: 8 to move."),
    ({"type": "cards_dealt", "seat": "Amy & Rory", "count": 6}, "Amy & Rory are dealt 6 cards."),
    ({"type": "moved", "seat": "Amy & Rory", "to": "The Moon", "via": "passage"},
     "Amy & Rory take the secret passage to The Moon."),
    ({"type": "snooped", "seat": "Amy & Rory", "target": "Strax", "card": "Starship UK"},
     "Amy & Rory snoop on Strax and see Starship UK."),
    ({"type": "passed", "seat": "Amy & Rory"}, "Amy & Rory cannot answer."),
    ({"type": "eliminated", "seat": "Amy & Rory"}, "Amy & Rory are out, but still answer suggestions."),
    ({"type": "game_over", "winner": "Amy & Rory", "solution": {"suspect": "Strax", "weapon": "Strax's Gun",
                                                                "room": "Gallifrey"}},
     "Amy & Rory win! It was Strax with Strax's Gun in the Gallifrey."),
    ({"type": "rolled", "seat": "Strax", "dice": [2, 4], "total": 6}, "Strax rolls 2 + 4: 6 to move."),
    ({"type": "eliminated", "seat": "Sheldon & Leonard"}, "Sheldon & Leonard are out, but still answer suggestions."),
])
def test_a_seat_of_two_people_takes_a_plural_verb(event: dict[str, object], sentence: str) -> None:
    assert describe(event) == sentence


@pytest.mark.parametrize("sample", sorted(EXAMPLES.glob("*-sample.jsonl")), ids=lambda path: path.stem)
def test_no_sample_narration_shows_an_id_or_a_slip(sample: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(sample), "--narrate"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    text = "\n".join(line for line in done.stdout.splitlines() if not re.match(r"line \d+ refused \(", line))
    assert not re.search(r"\b[a-z]+_[a-z_]+(-\d+)?\b", text), "a raw card id"
    assert not re.search(r"\ba [AEIOU]", text), "'a' before a vowel"
    assert not re.search(r"\b[Tt]he \w+'s\b", text), "an article before a possessive name"
    assert not re.search(r"& \w+ (is|has|\w+s) ", text.replace("'s turn", "")), "a plural seat with a singular verb"


@pytest.mark.parametrize("square", ["h25", "aa5", "an40"])
def test_a_square_is_called_a_square_past_column_z_too(square: str) -> None:
    assert describe({"type": "moved", "seat": "Ada", "to": square, "via": "roll"}) == f"Ada moves to square {square}."
