"""A whole Classic game on mock hardware, played only with tags and handheld buttons.

Three players deal the real cards and scan their hands, roll real dice and enter them on their handhelds,
move their movers on the (virtual) board, and answer a suggestion by tapping a card on their pad.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli.mock_table import MockTable
from companion.rules.deal import deal_cards
from companion.rules.edition import load_edition
from companion.table.resume import replay_game
from companion.table.store import Store

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
CLASSIC = load_edition("classic")
DEAL, _ = deal_cards(CLASSIC, SEATS, 21)  # envelope: Miss Scarlet, Revolver, Dining Room


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[MockTable]:
    with Store(tmp_path / "games.db").open() as store, MockTable(store) as table:
        yield table


def screen(rig: MockTable, seat: str) -> tuple[str, list[str], int]:
    """A handheld's screen as (title and lines, items, cursor)."""
    text = rig.handhelds[seat].text().splitlines()
    items = [line[2:] for line in text if line.startswith(("> ", "  "))]
    cursor = next((at for at, line in enumerate(l for l in text if l.startswith(("> ", "  ")))
                   if line.startswith("> ")), 0)
    return "\n".join(text), items, cursor


def wait_screen(rig: MockTable, seat: str, words: str, timeout: float = 5.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        text, _, _ = screen(rig, seat)
        if words in text:
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"{seat}'s handheld never showed {words!r}; it shows:\n{text}")
        time.sleep(0.01)


def choose(rig: MockTable, seat: str, item: str) -> None:
    """Scroll to the item that starts with ``item`` and press ok, like a player would."""
    wait_screen(rig, seat, item)
    _, items, cursor = screen(rig, seat)
    target = next(at for at, label in enumerate(items) if label.startswith(item))
    button = "down" if target > cursor else "up"
    for _ in range(abs(target - cursor)):
        rig.press(seat, button)
    _, items, cursor = screen(rig, seat)
    assert items[cursor].startswith(item), (items, cursor)
    rig.press(seat, "ok")


def enter_die(rig: MockTable, seat: str, value: int) -> None:
    choose(rig, seat, "Enter dice")
    wait_screen(rig, seat, "Die 1: 1")
    for _ in range(value - 1):
        rig.press(seat, "up")
    wait_screen(rig, seat, f"Die 1: {value}")
    rig.press(seat, "ok")


def test_a_classic_game_from_the_deal_to_the_right_accusation(rig: MockTable) -> None:
    rig.new_game("classic", SEATS, deal="physical", dice="physical")
    rig.wait_for(lambda view: view["link"] == "up")

    # The deal: each player taps their cards on their pad; the envelope is what nobody scanned.
    for seat in SEATS:
        for card in DEAL.hands[seat]:
            rig.tap(card, seat)
    rig.wait_for(lambda view: view["ready"], timeout=30)  # 18 taps to settle: slower when the suite runs in parallel
    assert rig.view("Colonel Mustard")["hand"] == list(DEAL.hands["Colonel Mustard"])
    choose(rig, "Miss Scarlet", "Start game")
    rig.wait_for(lambda view: view["stage"] == "playing")
    assert sorted(rig.view("Mrs. White")["hand"]) == sorted(DEAL.hands["Mrs. White"])

    # Miss Scarlet rolls a 6 on the real die and walks her mover into the Lounge.
    enter_die(rig, "Miss Scarlet", 6)
    rig.wait_for(lambda view: view["phase"] == "moving")
    rig.move("Miss Scarlet", "Lounge")
    rig.wait_for(lambda view: view["position"]["Miss Scarlet"] == "Lounge" and view["phase"] == "moved")

    # Mrs. White's mover turns up in the Kitchen: not hers to move. The game waits until it is put back.
    rig.move("Mrs. White", "Kitchen")
    rig.wait_for(lambda view: view["board"]["waiting"])
    wait_screen(rig, "Mrs. White", "Put Mrs. White back")
    rig.move("Mrs. White", CLASSIC.require_board().start_of("Mrs. White"))
    rig.wait_for(lambda view: not view["board"]["waiting"])

    # She suggests Professor Plum with the Revolver in the Lounge; Colonel Mustard holds the Lounge card.
    choose(rig, "Miss Scarlet", "Suggest")
    choose(rig, "Miss Scarlet", "Professor Plum")
    choose(rig, "Miss Scarlet", "Revolver")
    rig.wait_for(lambda view: view["phase"] == "refuting")
    assert rig.view("Colonel Mustard")["may_show"] == ["Lounge"]
    rig.move("Professor Plum", "Lounge")  # the summoned mover and weapon follow the suggestion
    rig.move("Revolver", "Lounge")
    rig.tap("Lounge", "Colonel Mustard")
    wait_screen(rig, "Miss Scarlet", "Colonel Mustard showed you")
    assert {"by": "Colonel Mustard", "card": "Lounge"} in rig.view("Miss Scarlet")["shown_to_me"]
    assert "Lounge" not in str([e for e in rig.view("Mrs. White")["record"] if e["type"] == "card_shown"])
    rig.press("Miss Scarlet", "ok")  # seen
    choose(rig, "Miss Scarlet", "End turn")

    # Colonel Mustard accuses wrongly and is out.
    rig.wait_for(lambda view: view["turn"] == "Colonel Mustard")
    for item in ("Accuse", "Professor Plum", "Rope", "Kitchen", "Accuse Professor Plum"):
        choose(rig, "Colonel Mustard", item)
    rig.wait_for(lambda view: "Colonel Mustard" in view["eliminated"])
    choose(rig, "Colonel Mustard", "End turn")

    # Mrs. White names the envelope and wins.
    rig.wait_for(lambda view: view["turn"] == "Mrs. White")
    for item in ("Accuse", "Miss Scarlet", "Revolver", "Dining Room", "Accuse Miss Scarlet"):
        choose(rig, "Mrs. White", item)
    final = rig.wait_for(lambda view: view["stage"] == "over")
    assert final["winner"] == "Mrs. White"
    assert final["solution"] == {"suspect": "Miss Scarlet", "weapon": "Revolver", "room": "Dining Room"}
    wait_screen(rig, "Colonel Mustard", "Mrs. White")

    # Everything accepted is in the store, and replays to the same game.
    game = rig.store.games()[0]
    assert game.status == "finished" and game.winner == "Mrs. White"
    setup, actions, settings = rig.store.load(game.id)
    assert settings == {"deal": "physical", "dice": "physical", "assistant": "off"}
    assert replay_game(setup, actions) == rig.session.inspect(lambda table: table.state)
