"""When several rules refuse one action, the refusal names the one the player cannot put right this turn first.

Each row is a pair of refusals that can meet on one action: the action
refused for both reasons says the first; the same action where only the
second reason holds says the second (so the pair really met). The order,
from the engine down: the game is over; the seat is out; it is not her
turn; she accuses from a place accusations are not made from (she has
moved: no answer or question this turn puts that right); she waits for an
answer; she owes a question; a card is misspelt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from games import MUSTARD, PLUM, SCARLET, WHITE, game, play, rejected, scarlet_brings_mustard_into_the_lounge
from house_games import BBT, CLARA, DW, HOWARD, JENNY, PENNY, RAJ, table

from companion import Accuse, ClueError, GameState, Move, Roll, Show, Suggest, apply
from companion.rules.actions import Action, EndTurn, UsePower


def anywhere(state: GameState) -> GameState:
    """The same game in an edition that lets one accuse from anywhere (a house rule)."""
    return state.evolve(edition=replace(state.edition, accuse="anywhere"))


def penny_enters_the_roof() -> GameState:
    return play(table(BBT, PENNY, {PENNY: "Kitchen"}), Move(PENNY, "Roof"))[0]


def penny_asks_on_the_roof() -> GameState:
    return play(penny_enters_the_roof(), Suggest(PENNY, HOWARD, "Wiped Hard Drive"))[0]  # Howard holds the Roof


def clara_goes_to_skaro() -> GameState:
    return play(table(DW, CLARA), UsePower(CLARA, room="Skaro"))[0]


def scarlet_out() -> GameState:
    return play(game(), Accuse(SCARLET, MUSTARD, "Rope", "Hall"), EndTurn(SCARLET))[0]


def scarlet_in_the_lounge() -> GameState:
    return play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))[0]


def mustard_must_show() -> GameState:
    return play(scarlet_in_the_lounge(), Suggest(SCARLET, MUSTARD, "Knife"))[0]


BBT_GUESS = (HOWARD, "Wiped Hard Drive", "Kitchen")
DW_GUESS = (JENNY, "Strax's Gun", "Platform One")


@dataclass(frozen=True)
class Pair:
    both: Callable[[], GameState]
    action: Action
    first: str
    only_second: Callable[[], GameState]
    second_action: Action
    second: str


PAIRS = {
    "BBT: accusing from the room just entered": Pair(
        penny_enters_the_roof, Accuse(PENNY, *BBT_GUESS), "accusation_location",
        lambda: anywhere(penny_enters_the_roof()), Accuse(PENNY, *BBT_GUESS), "must_suggest"),
    "DW: accusing from the location just entered": Pair(
        clara_goes_to_skaro, Accuse(CLARA, *DW_GUESS), "accusation_location",
        lambda: anywhere(clara_goes_to_skaro()), Accuse(CLARA, *DW_GUESS), "must_suggest"),
    "BBT: accusing from a room while the question is answered": Pair(
        penny_asks_on_the_roof, Accuse(PENNY, *BBT_GUESS), "accusation_location",
        lambda: anywhere(penny_asks_on_the_roof()), Accuse(PENNY, *BBT_GUESS), "wrong_phase"),
    "BBT: accusing from a room with a misspelt suspect": Pair(
        lambda: table(BBT, PENNY, {PENNY: "Kitchen"}), Accuse(PENNY, "Sheldon", "Wiped Hard Drive", "Kitchen"),
        "accusation_location",
        lambda: table(BBT, PENNY), Accuse(PENNY, "Sheldon", "Wiped Hard Drive", "Kitchen"), "unknown_card"),
    "house rule: a question owed and a misspelt suspect": Pair(
        lambda: anywhere(penny_enters_the_roof()), Accuse(PENNY, "Sheldon", "Wiped Hard Drive", "Kitchen"),
        "must_suggest",
        lambda: anywhere(table(BBT, PENNY, {PENNY: "Roof"})), Accuse(PENNY, "Sheldon", "Wiped Hard Drive", "Kitchen"),
        "unknown_card"),
    "BBT: accusing out of turn from a room": Pair(
        lambda: table(BBT, PENNY, {RAJ: "Kitchen"}), Accuse(RAJ, *BBT_GUESS), "not_your_turn",
        lambda: table(BBT, RAJ, {RAJ: "Kitchen"}), Accuse(RAJ, *BBT_GUESS), "accusation_location"),
    "out of the game and out of turn": Pair(
        scarlet_out, Accuse(SCARLET, PLUM, "Wrench", "Kitchen"), "eliminated",
        scarlet_out, Accuse(WHITE, PLUM, "Wrench", "Kitchen"), "not_your_turn"),
    "the game is over, and it was not her turn": Pair(
        lambda: play(game(), Accuse(SCARLET, PLUM, "Wrench", "Kitchen"))[0], Accuse(MUSTARD, PLUM, "Wrench", "Kitchen"),
        "game_over",
        game, Accuse(MUSTARD, PLUM, "Wrench", "Kitchen"), "not_your_turn"),
    "suggesting out of turn, not in a room": Pair(
        game, Suggest(MUSTARD, PLUM, "Rope"), "not_your_turn",
        game, Suggest(SCARLET, PLUM, "Rope"), "not_in_room"),
    "suggesting a second time, a misspelt weapon": Pair(
        lambda: play(game(), scarlet_brings_mustard_into_the_lounge())[0], Suggest(SCARLET, PLUM, "Spoon"),
        "wrong_phase",
        scarlet_in_the_lounge, Suggest(SCARLET, PLUM, "Spoon"), "unknown_card"),
    "suggesting on a square, a misspelt weapon": Pair(
        game, Suggest(SCARLET, PLUM, "Spoon"), "not_in_room",
        scarlet_in_the_lounge, Suggest(SCARLET, PLUM, "Spoon"), "unknown_card"),
    "suggesting while the last one is answered, a misspelt weapon": Pair(
        mustard_must_show, Suggest(SCARLET, PLUM, "Spoon"), "wrong_phase",
        scarlet_in_the_lounge, Suggest(SCARLET, PLUM, "Spoon"), "unknown_card"),
    "showing out of turn a card not named": Pair(
        mustard_must_show, Show(WHITE, "Rope"), "not_your_turn",
        mustard_must_show, Show(MUSTARD, "Rope"), "cannot_show"),
    "moving out of turn, before a roll": Pair(
        game, Move(MUSTARD, "Lounge"), "not_your_turn",
        game, Move(SCARLET, "Ballroom"), "illegal_move"),
}


@pytest.mark.parametrize("name", PAIRS)
def test_the_refusal_the_player_cannot_put_right_this_turn_comes_first(name: str) -> None:
    pair = PAIRS[name]
    assert rejected(pair.both(), pair.action) == pair.first
    assert rejected(pair.only_second(), pair.second_action) == pair.second  # the second reason held too


def test_the_accusation_from_a_room_names_the_centre() -> None:
    with pytest.raises(ClueError, match=r"accusations are made only from the Centre; Penny is on Roof"):
        apply(penny_enters_the_roof(), Accuse(PENNY, *BBT_GUESS))
