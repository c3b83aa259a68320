"""Helpers for the handheld screen and device tests: a seat's view with the session's keys, and presses.

(The same as tests/companion/prompt_views.py: test folders do not import each other.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion import GameState, seat_view
from companion.table.commands import Command
from companion.table.prompts import Menu, Screen, press, screen_for

JOIN_URL = "http://clue.local:8000/join/3f9a"


def session_view(state: GameState, seat: str, **extra: Any) -> dict[str, Any]:
    """``seat_view`` plus what the session adds (playing, board link up, no notice), then ``extra``."""
    deck = state.edition.deck
    view = seat_view(state, seat)
    view.update(
        stage="over" if state.over else "playing",
        link="up",
        board={"waiting": False, "corrections": [], "differences": []},
        notice=None,
        settings={"dice": "companion", "deal": "virtual"},
        join_url=JOIN_URL,
        game_id=1,
        edition_cards={"suspects": list(deck.suspects), "weapons": list(deck.weapons), "rooms": list(deck.rooms)},
        dice_count=state.edition.dice,
    )
    view.update(extra)
    return view


def presses(view: dict[str, Any], buttons: Iterable[str], menu: Menu | None = None) -> tuple[Menu, list[Command]]:
    """Press ``buttons`` in order on one view: the menu after, and the commands submitted."""
    menu = menu or Menu()
    commands: list[Command] = []
    for button in buttons:
        menu, command = press(view, menu, button)
        if command is not None:
            commands.append(command)
    return menu, commands


def choose(view: dict[str, Any], label: str, menu: Menu | None = None) -> tuple[Menu, Command | None]:
    """Move the cursor to the item ``label`` on the current screen and press ok."""
    menu = menu or Menu()
    screen = screen_for(view, menu)
    if label not in screen.items:
        raise AssertionError(f"{label!r} is not offered: {screen.items}")
    while screen_for(view, menu).cursor != screen.items.index(label):
        up = screen_for(view, menu).cursor > screen.items.index(label)
        menu, _ = press(view, menu, "up" if up else "down")
    return press(view, menu, "ok")


def shows(view: dict[str, Any], menu: Menu | None = None) -> Screen:
    return screen_for(view, menu or Menu())
