"""Prompts: what a seat's handheld shows, and what its four buttons do.

A pure menu model over the session's views. :func:`screen_for` turns a seat's
view and the handheld's own :class:`Menu` (where it is in a menu, what is
picked so far) into a :class:`Screen`; :func:`press` turns a button into the
next ``Menu`` and, on a final ok, the command to submit. No hardware here: the
screen is drawn by ``hardware.screens`` and the same model drives a console.

Priority on the screen: an unread error or notice, then board corrections,
then cards just shown to the seat, then the stage's own page (set-up, the
seat's turn, showing a card, waiting, the end).

>>> view = {"stage": "idle", "seat": "Mrs. White"}
>>> print(screen_text(screen_for(view, Menu())))
[Clue Companion]
No game is open.
Open one on the web page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.language import N_
from companion.rules.errors import BadInput

from .commands import Command, StartGame
from .menus import BUTTONS, Menu, Option, Page, Screen, View, asked_seat, home_menu, seat_of, with_cursor
from .turn_pages import accuse_page, confirm_page, dice_page, dice_press, play_page, snoop_page, suggest_page
from .wording import Wording, Words

# A notice's title by its code (the error's or the notice's); an unlisted code is shown as it is spelled.
TITLES: dict[str, str] = {
    "error": N_("Error"), "bad_input": N_("Bad input"), "unknown_card": N_("Unknown card"),
    "unknown_seat": N_("Unknown seat"), "bad_deal": N_("Bad deal"), "rule": N_("Rule"),
    "not_your_turn": N_("Not your turn"), "wrong_phase": N_("Wrong phase"), "illegal_move": N_("Illegal move"),
    "not_in_room": N_("Not in room"), "must_show": N_("Must show"), "cannot_show": N_("Cannot show"),
    "must_suggest": N_("Must suggest"), "accusation_location": N_("Accusation location"),
    "eliminated": N_("Eliminated"), "game_over": N_("Game over"), "table": N_("Table"),
    "game_in_progress": N_("Game in progress"), "no_table": N_("No table"), "no_store": N_("No store"),
    "no_game": N_("No game"), "game_ended": N_("Game ended"), "board_mismatch": N_("Board mismatch"),
    "not_started": N_("Not started"), "dice_mode": N_("Dice mode"), "bot_move": N_("Bot move"),
    "board_down": N_("Board down"), "unknown_tag": N_("Unknown tag"), "put_back": N_("Put back"),
}

__all__ = ["BUTTONS", "Menu", "Screen", "View", "press", "screen_for", "screen_text"]


def screen_for(view: View, menu: Menu) -> Screen:
    """What the handheld shows for ``view`` with ``menu``."""
    return _page(view, _settled(view, menu)).screen


def press(view: View, menu: Menu, button: str) -> tuple[Menu, Command | None]:
    """The menu after ``button``, and the command to submit if the press completed one.

    >>> view = {"stage": "setup", "seat": "Mrs. White", "ready": True, "hand": [], "problems": []}
    >>> menu, command = press(view, Menu(), "ok")
    >>> command
    StartGame(seat='Mrs. White')
    """
    if button not in BUTTONS:
        raise BadInput(f"unknown button {button!r}; expected one of {', '.join(BUTTONS)}")
    menu = _settled(view, menu)
    page = _page(view, menu)
    count = len(page.screen.items)
    if page.nav == "dice":
        return dice_press(view, menu, button)
    if page.nav == "browse":
        return _browse_press(view, menu, button), None
    if button in ("up", "down"):
        if page.nav == "still" or count == 0:
            return menu, None
        step = -1 if button == "up" else 1
        return replace(menu, cursor=min(max(menu.cursor + step, 0), count - 1)), None
    if page.nav == "dismiss" or button == "back":
        return (page.back or menu), None
    if menu.cursor < len(page.options):
        option = page.options[menu.cursor]
        return (option.then or home_menu(menu)), option.command
    return menu, None


def screen_text(screen: Screen) -> str:
    """The screen as plain text, for a console or a log: the cursor's item has "> ".

    >>> print(screen_text(Screen("show", "Show a card", ("to Mr. Green:",), ("Rope", "Hall"), 1)))
    [Show a card]
    to Mr. Green:
      Rope
    > Hall
    """
    rows = [f"[{screen.title}]", *screen.lines]
    rows += [("> " if i == screen.cursor else "  ") + item for i, item in enumerate(screen.items)]
    if screen.qr is not None:
        rows.append(f"QR: {screen.qr}")
    if screen.footer:
        rows.append(f"({screen.footer})")
    return "\n".join(rows)


# -- where the menu is -------------------------------------------------------------------------


def _context(view: View) -> tuple[str, ...]:
    return tuple(str(view.get(key)) for key in ("stage", "turn", "phase", "snoop_at", "game_id", "game_number"))


def _settled(view: View, menu: Menu) -> Menu:
    """``menu`` for this view: a step begun in another stage, turn or phase is over."""
    context = _context(view)
    if menu.context == context:
        return menu
    if menu.step == "browse" and not _attention(view):
        return replace(menu, context=context)  # reading one's notes survives others' moves
    return replace(menu, step="home", cursor=0, page=0, picks=(), dice=(), context=context)


def _attention(view: View) -> bool:
    """True when the seat must act: its turn, or a card to show."""
    seat = seat_of(view)
    return view.get("stage") == "playing" and seat is not None and (
        (view.get("turn") == seat and view.get("phase") != "over") or asked_seat(view) == seat)


def _page(view: View, menu: Menu) -> Page:
    overlay = _notice_page(view, menu) or _board_page(view) or _shown_page(view, menu)
    if overlay is not None:
        return overlay
    stage = view.get("stage", "playing")
    if stage == "idle":
        w = Wording.for_view(view)
        lines = (w.say(N_("No game is open.")), w.say(N_("Open one on the web page.")))
        return Page(Screen("idle", "Clue Companion", lines), nav="still")
    if stage == "over" or view.get("phase") == "over":
        return with_cursor(_over_page(view, menu), menu)
    if menu.step == "browse":
        return _browse_page(view, menu)
    if stage == "setup":
        return _setup_page(view, menu)
    steps = {"dice": dice_page, "snoop": snoop_page, "suggest_suspect": suggest_page,
             "suggest_weapon": suggest_page, "accuse_suspect": accuse_page, "accuse_weapon": accuse_page,
             "accuse_room": accuse_page, "accuse_confirm": confirm_page}
    if menu.step in steps and view.get("turn") == view.get("seat"):
        return steps[menu.step](view, menu)
    return play_page(view, menu)


# -- messages over everything ------------------------------------------------------------------


def _notice_page(view: View, menu: Menu) -> Page | None:
    notice = view.get("notice")
    if not notice or int(notice.get("id", 0)) <= menu.notice_seen:
        return None
    w, code = Wording.for_view(view), notice.get("code")
    title = w.say(TITLES[code]) if code in TITLES else code.replace("_", " ").capitalize() if code else \
        w.say(N_("Note"))
    screen = Screen("error" if code else "notice", title, (_told(w, notice),), footer=w.say(N_("ok: got it")))
    return Page(screen, nav="dismiss", back=replace(menu, notice_seen=int(notice["id"])))


def _told(w: Wording, said: Mapping[str, Any]) -> str:
    """A notice (or correction) worded now, from its template when it has one, else its text."""
    template, args = said.get("template"), said.get("args")
    if not isinstance(template, str) or not isinstance(args, Mapping):
        return str(said.get("text", ""))
    return w.say(Words.from_dict(said))


def _board_page(view: View) -> Page | None:
    board = view.get("board") or {}
    corrections = tuple(board.get("corrections") or ())
    if not corrections:
        return None
    w = Wording.for_view(view)
    parts = list(board.get("correction_parts") or ())
    if len(parts) == len(corrections):
        corrections = tuple(_told(w, part) for part in parts)
    screen = Screen("board", w.say(N_("Fix the board")), items=corrections, footer=w.say(N_("the game waits")))
    return Page(screen, nav="list")


def _shown_page(view: View, menu: Menu) -> Page | None:
    """Cards the seat has just been shown (or snooped, or seen aside), until dismissed."""
    shown = list(view.get("shown_to_me") or ())[menu.shown_seen:]
    seen = list(view.get("seen") or ())[menu.seen_seen:]
    if not shown and not seen:
        return None
    w = Wording.for_view(view)
    sources = [w.say(N_("{seat} showed you:"), seat=item["by"]) for item in shown] + [_seen_from(w, item)
                                                                                      for item in seen]
    cards = [w.name(item["card"]) for item in shown + seen]
    read = replace(menu, shown_seen=menu.shown_seen + len(shown), seen_seen=menu.seen_seen + len(seen))
    if len(cards) == 1:
        screen = Screen("shown", w.say(N_("Card shown")), (sources[0],), (cards[0],), footer=w.say(N_("ok: got it")))
    else:
        names = [f"{w.name(item['by'])}:" for item in shown] + [_seen_from(w, item) for item in seen]
        items = tuple(f"{name} {card}" for name, card in zip(names, cards))
        screen = Screen("shown", w.say(N_("Shown to you")), (), items, footer=w.say(N_("ok: got it")))
    return Page(with_cursor(Page(screen), menu).screen, nav="dismiss", back=read)


def _seen_from(w: Wording, item: Mapping[str, Any]) -> str:
    if item.get("from") == "aside":
        return w.say(N_("Side card {number}:"), number=int(item.get("index") or 0) + 1)
    return w.say(N_("Snooped from {seat}:"), seat=str(item.get("from")))


# -- set-up, the end, browsing -----------------------------------------------------------------


def _setup_page(view: View, menu: Menu) -> Page:
    seat, w = seat_of(view), Wording.for_view(view)
    physical = (view.get("settings") or {}).get("deal") == "physical"
    scanned = len(view.get("hand") or ())
    lines = [w.say(N_("Cards scanned: {count}"), count=scanned) if physical else w.say(N_("The companion deals.")),
             *_problems(w, view)]
    if physical and not scanned:
        lines.insert(1, w.say(N_("Lay your cards on your pad.")))
    if not view.get("ready"):
        return Page(Screen("setup", w.say(N_("Setting up")), tuple(lines), footer=w.say(N_("up/down: more"))),
                    nav="browse")
    options = (Option(command=StartGame(seat)), Option(replace(home_menu(menu), step="browse", page=1)))
    items = (w.say(N_("Start game")), w.say(N_("Cards, QR")))
    screen = Screen("setup", w.say(N_("Ready to start")), tuple(lines), items, footer=w.say(N_("ok: choose")))
    return with_cursor(Page(screen, options), menu)


def _over_page(view: View, menu: Menu) -> Page:
    w, winner = Wording.for_view(view), view.get("winner")
    solution = view.get("solution") or {}
    items = tuple(w.name(solution[key]) for key in ("suspect", "weapon", "room") if key in solution)
    line = w.say(N_("{seat} wins."), seat=winner) if winner else w.say(N_("Nobody wins."))
    return Page(Screen("over", w.say(N_("Game over")), (line,), items, 0, footer=w.say(N_("up/down: read"))))


def _problems(w: Wording, view: View) -> list[str]:
    """The deal's problems, worded from their parts when the view has them."""
    problems = [str(problem) for problem in view.get("problems") or ()]
    parts = list(view.get("problem_parts") or ())
    return [_told(w, part) for part in parts] if len(parts) == len(problems) else problems


def _pages(view: View, menu: Menu) -> tuple[str, ...]:
    """The browsing cycle: hand, notes (in play), QR; from a page without choices, home too."""
    pages: tuple[str, ...] = ("hand", "pairing") if view.get("stage") == "setup" else ("hand", "notebook", "pairing")
    home = _page(view, home_menu(menu))
    return ("home", *pages) if not home.options else ("", *pages)  # "": home is left with back only


def _browse_page(view: View, menu: Menu) -> Page:
    pages = _pages(view, menu)
    name = pages[menu.page % len(pages)] or "hand"
    if name == "home":
        return _page(view, home_menu(menu))
    w = Wording.for_view(view)
    if name == "hand":
        hand = _in_order(view, view.get("hand") or ())
        screen = Screen("hand", w.say(N_("Your cards ({count})"), count=len(hand)),
                        () if hand else (w.say(N_("No cards yet.")),), tuple(w.name(card) for card in hand))
    elif name == "notebook":
        screen = _notebook(view, w)
    else:
        url = view.get("join_url")
        lines = (w.say(N_("Scan to play on your phone.")),) if url else \
            (w.say(N_("No phone link yet: start the web page.")),)
        screen = Screen("pairing", w.say(N_("Phone view")), lines, qr=url)
    return with_cursor(Page(replace(screen, footer=w.say(N_("ok: next page"))), nav="browse"), menu)


def _browse_press(view: View, menu: Menu, button: str) -> Menu:
    pages = _pages(view, menu)
    at = menu.page % len(pages)
    count = len(_page(view, menu).screen.items) if pages[at] != "home" else 0
    if button == "back":
        return home_menu(menu)
    if button == "up" and menu.cursor > 0 and pages[at] != "home":
        return replace(menu, cursor=menu.cursor - 1)
    if button == "down" and menu.cursor < count - 1:
        return replace(menu, cursor=menu.cursor + 1)
    step = -1 if button == "up" else 1
    at = (at + step) % len(pages)
    if pages[at] == "":
        at = (at + step) % len(pages)
    if pages[at] == "home":
        return home_menu(menu)
    after = replace(menu, step="browse", page=at, cursor=0)
    if button == "up":
        after = replace(after, cursor=max(len(_page(view, after).screen.items) - 1, 0))
    return after


def _notebook(view: View, w: Wording) -> Screen:
    """Every card: crossed off ("x", and where it was learnt) when the seat knows who has it, else "?".

    With the host's assistant on, deduced places count as known, a card
    certainly in the envelope is marked "!", and with probabilities an open
    card shows its chance of being in the envelope.
    """
    known: dict[str, str] = {card: w.say(N_("yours")) for card in view.get("hand") or ()}
    for card in view.get("face_up") or ():
        known.setdefault(card, w.say(N_("face up")))
    for item in view.get("shown_to_me") or ():
        known.setdefault(item["card"], w.name(item["by"]))
    for item in view.get("seen") or ():
        known.setdefault(item["card"], w.say(N_("side card")) if item.get("from") == "aside"
                         else w.name(item.get("from")))
    assistant = view.get("assistant") or {}
    for card, place in (assistant.get("certain") or {}).items():
        known.setdefault(card, ENVELOPE if place == "envelope" else w.name(place))
    chances = assistant.get("cards") or {}
    cards = _all_cards(view)
    items = tuple(_note(w, card, known.get(card), chances.get(card)) for card in cards)
    accusation = ", ".join(w.name(card) for card in assistant.get("accusation") or ())
    lines = (w.say(N_("Accuse: {cards}"), cards=accusation),) if accusation else ()
    crossed = sum(card in known and known[card] != ENVELOPE for card in cards)
    return Screen("notebook", w.say(N_("Notes {crossed}/{total}"), crossed=crossed, total=len(cards)), lines, items)


ENVELOPE = "\0envelope"  # a known place that is no seat's: the card is the answer


def _note(w: Wording, card: str, known: str | None, chances: Mapping[str, float] | None) -> str:
    name = w.name(card)
    if known == ENVELOPE:
        return w.say(N_("! {card} (envelope)"), card=name)
    if known is not None:
        return f"x {name} ({known})"
    if chances:
        return f"? {name} {round(100 * chances.get('envelope', 0))}%"
    return f"? {name}"


def _all_cards(view: View) -> tuple[str, ...]:
    cards = view.get("edition_cards") or {}
    return tuple(card for key in ("suspects", "weapons", "rooms") for card in cards.get(key, ()))


def _in_order(view: View, cards: Sequence[str]) -> tuple[str, ...]:
    order = {card: i for i, card in enumerate(_all_cards(view))}
    return tuple(sorted(cards, key=lambda card: order.get(card, len(order))))
