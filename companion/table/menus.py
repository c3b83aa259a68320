"""The handheld's menu model: a :class:`Screen` to draw, the unit's own :class:`Menu`, and a page's choices.

:mod:`companion.table.prompts` builds pages from a seat's view; the seat's
turn (:mod:`companion.table.turn_pages`) builds its own from the same parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.language import N_

from .commands import Command

View = Mapping[str, Any]
Face = int | str
BUTTONS = ("up", "down", "ok", "back")
MORE = N_("Hand, notes, QR")  # the item that opens the browsing pages from an action menu


@dataclass(frozen=True)
class Screen:
    """One screenful: a title, a few lines, the choices with the cursor, an optional QR code."""

    kind: str
    title: str
    lines: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    cursor: int = 0
    qr: str | None = None  # text to show as a QR code
    footer: str = ""


@dataclass(frozen=True)
class Menu:
    """The handheld's own state: the step it is on, the cursor, what is picked, what was read."""

    step: str = "home"  # home, browse, dice, snoop, suggest_suspect/_weapon, accuse_suspect/_weapon/_room/_confirm
    cursor: int = 0
    page: int = 0  # the browsing page (hand, notebook, QR)
    picks: tuple[str, ...] = ()  # suspect, weapon, room chosen so far
    dice: tuple[Face, ...] = ()  # physical dice entered so far
    shown_seen: int = 0  # entries of view["shown_to_me"] dismissed
    seen_seen: int = 0  # entries of view["seen"] (snooped, side cards) dismissed
    notice_seen: int = 0  # the id of the last notice dismissed
    context: tuple[str, ...] = ()  # stage, turn, phase when the step began: a change ends the step


@dataclass(frozen=True)
class Option:
    """What ok does on one item: go to ``then`` (None: home), submitting ``command`` if any."""

    then: Menu | None = None
    command: Command | None = None


@dataclass(frozen=True)
class Page:
    screen: Screen
    options: tuple[Option, ...] = ()  # one per item; fewer means the rest are for reading
    nav: str = "list"  # list, browse, dice, dismiss, still
    back: Menu | None = None  # where back goes (dismiss: the menu with the message read)


def asked_seat(view: View) -> str | None:
    suggestion = view.get("suggestion")
    return suggestion.get("asked") if suggestion and view.get("phase") == "refuting" else None


def seat_of(view: View) -> str:
    return str(view.get("seat") or "")


def home_menu(menu: Menu) -> Menu:
    return replace(menu, step="home", cursor=0, page=0, picks=(), dice=())


def with_cursor(page: Page, menu: Menu) -> Page:
    """The page with the menu's cursor, kept on an item."""
    last = max(len(page.screen.items) - 1, 0)
    return replace(page, screen=replace(page.screen, cursor=min(max(menu.cursor, 0), last)))

