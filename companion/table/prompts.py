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
from dataclasses import dataclass, replace
from typing import Any

from companion.rules.actions import Accuse, Draw, EndTurn, Move, Pass, Roll, Show, Snoop, Suggest
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import BadInput, ClueError

from .commands import Command, Play, StartGame

View = Mapping[str, Any]
Face = int | str
BUTTONS = ("up", "down", "ok", "back")
MORE = "Hand, notes, QR"  # the item that opens the browsing pages from an action menu


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
class _Option:
    """What ok does on one item: go to ``then`` (None: home), submitting ``command`` if any."""

    then: Menu | None = None
    command: Command | None = None


@dataclass(frozen=True)
class _Page:
    screen: Screen
    options: tuple[_Option, ...] = ()  # one per item; fewer means the rest are for reading
    nav: str = "list"  # list, browse, dice, dismiss, still
    back: Menu | None = None  # where back goes (dismiss: the menu with the message read)


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
        return _dice_press(view, menu, button)
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
        return (option.then or _home(menu)), option.command
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
    return tuple(str(view.get(key)) for key in ("stage", "turn", "phase", "snoop_at", "game_id"))


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
    seat = _seat(view)
    return view.get("stage") == "playing" and seat is not None and (
        (view.get("turn") == seat and view.get("phase") != "over") or _asked(view) == seat)


def _asked(view: View) -> str | None:
    suggestion = view.get("suggestion")
    return suggestion.get("asked") if suggestion and view.get("phase") == "refuting" else None


def _seat(view: View) -> str:
    return str(view.get("seat") or "")


def _home(menu: Menu) -> Menu:
    return replace(menu, step="home", cursor=0, page=0, picks=(), dice=())


def _page(view: View, menu: Menu) -> _Page:
    overlay = _notice_page(view, menu) or _board_page(view) or _shown_page(view, menu)
    if overlay is not None:
        return overlay
    stage = view.get("stage", "playing")
    if stage == "idle":
        return _Page(Screen("idle", "Clue Companion", ("No game is open.", "Open one on the web page.")), nav="still")
    if stage == "over" or view.get("phase") == "over":
        return _cursor(_over_page(view, menu), menu)
    if menu.step == "browse":
        return _browse_page(view, menu)
    if stage == "setup":
        return _setup_page(view, menu)
    steps = {"dice": _dice_page, "snoop": _snoop_page, "suggest_suspect": _suggest_page,
             "suggest_weapon": _suggest_page, "accuse_suspect": _accuse_page, "accuse_weapon": _accuse_page,
             "accuse_room": _accuse_page, "accuse_confirm": _confirm_page}
    if menu.step in steps and view.get("turn") == view.get("seat"):
        return steps[menu.step](view, menu)
    return _play_page(view, menu)


def _cursor(page: _Page, menu: Menu) -> _Page:
    """The page with the menu's cursor, kept on an item."""
    last = max(len(page.screen.items) - 1, 0)
    return replace(page, screen=replace(page.screen, cursor=min(max(menu.cursor, 0), last)))


# -- messages over everything ------------------------------------------------------------------


def _notice_page(view: View, menu: Menu) -> _Page | None:
    notice = view.get("notice")
    if not notice or int(notice.get("id", 0)) <= menu.notice_seen:
        return None
    code = notice.get("code")
    title = code.replace("_", " ").capitalize() if code else "Note"
    screen = Screen("error" if code else "notice", title, (str(notice.get("text", "")),), footer="ok: got it")
    return _Page(screen, nav="dismiss", back=replace(menu, notice_seen=int(notice["id"])))


def _board_page(view: View) -> _Page | None:
    corrections = tuple((view.get("board") or {}).get("corrections") or ())
    if not corrections:
        return None
    return _Page(Screen("board", "Fix the board", items=corrections, footer="the game waits"), nav="list")


def _shown_page(view: View, menu: Menu) -> _Page | None:
    """Cards the seat has just been shown (or snooped, or seen aside), until dismissed."""
    shown = list(view.get("shown_to_me") or ())[menu.shown_seen:]
    seen = list(view.get("seen") or ())[menu.seen_seen:]
    if not shown and not seen:
        return None
    sources = [f"{item['by']} showed you:" for item in shown] + [_seen_from(item) for item in seen]
    cards = [str(item["card"]) for item in shown + seen]
    read = replace(menu, shown_seen=menu.shown_seen + len(shown), seen_seen=menu.seen_seen + len(seen))
    if len(cards) == 1:
        screen = Screen("shown", "Card shown", (sources[0],), (cards[0],), footer="ok: got it")
    else:
        names = [f"{item['by']}:" for item in shown] + [_seen_from(item) for item in seen]
        items = tuple(f"{name} {card}" for name, card in zip(names, cards))
        screen = Screen("shown", "Shown to you", (), items, footer="ok: got it")
    return _Page(_cursor(_Page(screen), menu).screen, nav="dismiss", back=read)


def _seen_from(item: Mapping[str, Any]) -> str:
    if item.get("from") == "aside":
        return f"Side card {int(item.get('index') or 0) + 1}:"
    return f"Snooped from {item.get('from')}:"


# -- set-up, the end, browsing -----------------------------------------------------------------


def _setup_page(view: View, menu: Menu) -> _Page:
    seat = _seat(view)
    physical = (view.get("settings") or {}).get("deal") == "physical"
    scanned = len(view.get("hand") or ())
    lines = [f"Cards scanned: {scanned}" if physical else "The companion deals.", *(view.get("problems") or ())]
    if physical and not scanned:
        lines.insert(1, "Lay your cards on your pad.")
    if not view.get("ready"):
        return _Page(Screen("setup", "Setting up", tuple(lines), footer="up/down: more"), nav="browse")
    options = (_Option(command=StartGame(seat)), _Option(replace(_home(menu), step="browse", page=1)))
    screen = Screen("setup", "Ready to start", tuple(lines), ("Start game", "Cards, QR"), footer="ok: choose")
    return _cursor(_Page(screen, options), menu)


def _over_page(view: View, menu: Menu) -> _Page:
    winner = view.get("winner")
    solution = view.get("solution") or {}
    items = tuple(str(solution[key]) for key in ("suspect", "weapon", "room") if key in solution)
    line = f"{winner} wins." if winner else "Nobody wins."
    return _Page(Screen("over", "Game over", (line,), items, 0, footer="up/down: read"))


def _pages(view: View, menu: Menu) -> tuple[str, ...]:
    """The browsing cycle: hand, notes (in play), QR; from a page without choices, home too."""
    pages: tuple[str, ...] = ("hand", "pairing") if view.get("stage") == "setup" else ("hand", "notebook", "pairing")
    home = _page(view, _home(menu))
    return ("home", *pages) if not home.options else ("", *pages)  # "": home is left with back only


def _browse_page(view: View, menu: Menu) -> _Page:
    pages = _pages(view, menu)
    name = pages[menu.page % len(pages)] or "hand"
    if name == "home":
        return _page(view, _home(menu))
    if name == "hand":
        hand = _in_order(view, view.get("hand") or ())
        screen = Screen("hand", f"Your cards ({len(hand)})", () if hand else ("No cards yet.",), hand)
    elif name == "notebook":
        screen = _notebook(view)
    else:
        url = view.get("join_url")
        lines = ("Scan to play on your phone.",) if url else ("No phone link yet: start the web page.",)
        screen = Screen("pairing", "Phone view", lines, qr=url)
    return _cursor(_Page(replace(screen, footer="ok: next page"), nav="browse"), menu)


def _browse_press(view: View, menu: Menu, button: str) -> Menu:
    pages = _pages(view, menu)
    at = menu.page % len(pages)
    count = len(_page(view, menu).screen.items) if pages[at] != "home" else 0
    if button == "back":
        return _home(menu)
    if button == "up" and menu.cursor > 0 and pages[at] != "home":
        return replace(menu, cursor=menu.cursor - 1)
    if button == "down" and menu.cursor < count - 1:
        return replace(menu, cursor=menu.cursor + 1)
    step = -1 if button == "up" else 1
    at = (at + step) % len(pages)
    if pages[at] == "":
        at = (at + step) % len(pages)
    if pages[at] == "home":
        return _home(menu)
    after = replace(menu, step="browse", page=at, cursor=0)
    if button == "up":
        after = replace(after, cursor=max(len(_page(view, after).screen.items) - 1, 0))
    return after


def _notebook(view: View) -> Screen:
    """Every card: crossed off ("x", and where it was learnt) when the seat knows who has it, else "?".

    With the host's assistant on, deduced places count as known, a card
    certainly in the envelope is marked "!", and with probabilities an open
    card shows its chance of being in the envelope.
    """
    known: dict[str, str] = {card: "yours" for card in view.get("hand") or ()}
    for card in view.get("face_up") or ():
        known.setdefault(card, "face up")
    for item in view.get("shown_to_me") or ():
        known.setdefault(item["card"], str(item["by"]))
    for item in view.get("seen") or ():
        known.setdefault(item["card"], "side card" if item.get("from") == "aside" else str(item.get("from")))
    assistant = view.get("assistant") or {}
    for card, place in (assistant.get("certain") or {}).items():
        known.setdefault(card, "ENVELOPE" if place == "envelope" else str(place))
    chances = assistant.get("cards") or {}
    cards = _all_cards(view)
    items = tuple(_note(card, known.get(card), chances.get(card)) for card in cards)
    lines = ("Accuse: " + ", ".join(assistant["accusation"]),) if assistant.get("accusation") else ()
    crossed = sum(card in known and known[card] != "ENVELOPE" for card in cards)
    return Screen("notebook", f"Notes {crossed}/{len(cards)}", lines, items)


def _note(card: str, known: str | None, chances: Mapping[str, float] | None) -> str:
    if known == "ENVELOPE":
        return f"! {card} (envelope)"
    if known is not None:
        return f"x {card} ({known})"
    if chances:
        return f"? {card} {round(100 * chances.get('envelope', 0))}%"
    return f"? {card}"


def _all_cards(view: View) -> tuple[str, ...]:
    cards = view.get("edition_cards") or {}
    return tuple(card for key in ("suspects", "weapons", "rooms") for card in cards.get(key, ()))


def _in_order(view: View, cards: Sequence[str]) -> tuple[str, ...]:
    order = {card: i for i, card in enumerate(_all_cards(view))}
    return tuple(sorted(cards, key=lambda card: order.get(card, len(order))))


# -- play --------------------------------------------------------------------------------------


def _play_page(view: View, menu: Menu) -> _Page:
    seat, phase = _seat(view), view.get("phase")
    if _asked(view) == seat:
        return _show_page(view, menu)
    if view.get("turn") != seat or phase == "refuting":
        return _waiting_page(view)
    if phase == "moving":
        return _moving_page(view, menu)
    if phase == "out":
        screen = Screen("turn", "Wrong: you are out", ("You still answer suggestions.",), ("End turn",),
                        footer="ok: end turn")
        return _Page(screen, (_Option(command=Play(seat, EndTurn(seat))),))
    return _turn_page(view, menu)


def _waiting_page(view: View) -> _Page:
    seat, turn, suggestion = view.get("seat"), view.get("turn"), view.get("suggestion")
    asked = _asked(view)
    if asked is not None and suggestion:
        lines = [f"Asked: {asked}", f"{suggestion['suspect']}, {suggestion['weapon']}, {suggestion['room']}"]
    elif view.get("phase") == "refuting":
        lines = ["The suggestion is being answered."]
    else:
        lines = [f"{turn}'s turn."]
    if seat in (view.get("eliminated") or ()):
        lines.append("You are out; you still show cards.")
    if view.get("link") == "down":
        lines.append("Board link lost.")
    return _Page(Screen("waiting", "Waiting", tuple(lines), footer="up/down: your notes"), nav="browse")


def _show_page(view: View, menu: Menu) -> _Page:
    seat, suggestion = _seat(view), view.get("suggestion") or {}
    cards = tuple(view.get("may_show") or ())
    line = f"to {suggestion.get('suggester')}:"
    if not cards:
        screen = Screen("show", "Your answer", (line,), ("Pass: I have none",), footer="ok: pass")
        return _Page(screen, (_Option(command=Play(seat, Pass(seat))),))
    options = tuple(_Option(command=Play(seat, Show(seat, card))) for card in cards)
    return _cursor(_Page(Screen("show", "Show a card", (line,), cards, footer="ok: show it"), options), menu)


def _where(view: View) -> str:
    place = str((view.get("position") or {}).get(view.get("seat"), "?"))
    square = len(place) <= 3 and place[:1].islower() and place[1:].isdigit()
    return f"On {place}." if square else f"In the {place}."


def _turn_page(view: View, menu: Menu) -> _Page:
    """The seat's turn before a roll ("start") or after its move ("moved", "suggested")."""
    seat, phase = _seat(view), view.get("phase")
    items: list[tuple[str, _Option]] = []
    if phase == "start":
        physical = (view.get("settings") or {}).get("dice") == "physical"
        items.append(("Enter dice", _Option(replace(_home(menu), step="dice"))) if physical
                     else ("Roll dice", _Option(command=Play(seat, Roll(seat)))))
        items += [(f"Passage to {place}", _Option(command=Play(seat, Move(seat, place))))
                  for place in view.get("legal_destinations") or ()]
    if _may_suggest(view):
        items.append(("Suggest", _Option(replace(_home(menu), step="suggest_suspect"))))
    items += _extras(view, menu)
    if _may_accuse(view):
        items.append(("Accuse", _Option(replace(_home(menu), step="accuse_suspect"))))
    if phase in ("moved", "suggested"):
        items.append(("End turn", _Option(command=Play(seat, EndTurn(seat)))))
    items.append((MORE, _Option(replace(_home(menu), step="browse", page=1))))
    lines = [_where(view)] + _phone_line(view)
    kind = "roll" if phase == "start" else "turn"
    screen = Screen(kind, "Your turn", tuple(lines), tuple(label for label, _ in items), footer="ok: choose")
    return _cursor(_Page(screen, tuple(option for _, option in items)), menu)


def _moving_page(view: View, menu: Menu) -> _Page:
    seat = _seat(view)
    places = sorted(view.get("legal_destinations") or (), key=lambda p: (p[:1].islower(), p[:1], len(p), p))
    items = [(place, _Option(command=Play(seat, Move(seat, place)))) for place in places]
    items += _extras(view, menu)
    items.append((MORE, _Option(replace(_home(menu), step="browse", page=1))))
    lines = ["Or move your token."] if view.get("link") == "up" else []
    screen = Screen("destinations", f"Move {view.get('moves_left')}: where to?", tuple(lines),
                    tuple(label for label, _ in items), footer="ok: go there")
    return _cursor(_Page(screen, tuple(option for _, option in items)), menu)


def _extras(view: View, menu: Menu) -> list[tuple[str, _Option]]:
    """Snoop and draw, when the turn offers them."""
    seat = _seat(view)
    extras: list[tuple[str, _Option]] = []
    if view.get("snoop_at"):
        extras.append(("Snoop", _Option(replace(_home(menu), step="snoop"))))
    if seat in (view.get("may_draw") or ()):
        extras.append(("Draw a card", _Option(command=Play(seat, Draw(seat)))))
    return extras


def _phone_line(view: View) -> list[str]:
    """Bonus cards and personality powers are played on the phone view."""
    seat = _seat(view)
    power = (view.get("powers") or {}).get(seat)
    held = ((view.get("bonus") or {}).get("held") or {}).get(seat)
    return ["Cards, power: phone view."] if held or (power and not power.get("used")) else []


def _edition(view: View) -> Edition | None:
    try:
        return load_edition(str(view.get("edition")))
    except ClueError:
        return None


def _may_accuse(view: View) -> bool:
    """Editions that name one place for accusations (a centre space) offer it only there."""
    edition = _edition(view)
    if edition is None or edition.accuse == "anywhere" or edition.board is None:
        return True
    board, here = edition.board, str((view.get("position") or {}).get(_seat(view)))
    mark = board.marks.get(board.index[here]) if here in board.index else None
    return edition.accuse in (here, mark)


def _may_suggest(view: View) -> bool:
    """A room entered this turn, or brought here by another's suggestion since one's last turn."""
    seat, phase = _seat(view), view.get("phase")
    place = (view.get("position") or {}).get(seat)
    if place not in (view.get("edition_cards") or {}).get("rooms", ()):
        return False
    record = list(view.get("record") or ())
    starts = [i for i, event in enumerate(record) if event.get("type") == "turn_started"]
    mine = [i for i in starts if record[i].get("seat") == seat]
    if phase == "moved" and mine:
        return any(event.get("type") == "moved" and event.get("seat") == seat and event.get("to") == place
                   and event.get("via") not in ("suggestion", "cleared", "swap") for event in record[mine[-1]:])
    if phase == "start" and len(mine) >= 2:
        after = next(i for i in starts if i > mine[-2])  # the end of the seat's previous turn
        return any(event.get("type") == "moved" and event.get("seat") == seat
                   and event.get("via") == "suggestion" for event in record[after:])
    return phase == "start" and any(event.get("type") == "moved" and event.get("seat") == seat
                                    and event.get("via") == "suggestion" for event in record)


# -- the steps of a choice ---------------------------------------------------------------------


def _choose(menu: Menu, kind: str, title: str, line: str, names: Sequence[str],
            then: Sequence[_Option], back: Menu) -> _Page:
    screen = Screen(kind, title, (line,) if line else (), tuple(names), footer="ok: pick  back: undo")
    return _cursor(_Page(screen, tuple(then), back=back), menu)


def _cards(view: View, key: str) -> tuple[str, ...]:
    return tuple((view.get("edition_cards") or {}).get(key, ()))


def _suggest_page(view: View, menu: Menu) -> _Page:
    seat = _seat(view)
    room = (view.get("position") or {}).get(seat)
    if menu.step == "suggest_suspect":
        suspects = _cards(view, "suspects")
        then = [_Option(replace(menu, step="suggest_weapon", picks=(name,), cursor=0)) for name in suspects]
        return _choose(menu, "suggest_suspect", "Suggest: who?", f"in the {room}", suspects, then,
                       _home(menu))
    suspect = menu.picks[0]
    weapons = _cards(view, "weapons")
    then = [_Option(command=Play(seat, Suggest(seat, suspect, name))) for name in weapons]
    back = replace(menu, step="suggest_suspect", picks=(), cursor=_index(_cards(view, "suspects"), suspect))
    return _choose(menu, "suggest_weapon", "Suggest: weapon?", f"{suspect}, {room}", weapons, then, back)


def _accuse_page(view: View, menu: Menu) -> _Page:
    order = ("accuse_suspect", "accuse_weapon", "accuse_room", "accuse_confirm")
    at = order.index(menu.step)
    names = _cards(view, ("suspects", "weapons", "rooms")[at])
    then = [_Option(replace(menu, step=order[at + 1], picks=menu.picks + (name,), cursor=0)) for name in names]
    back = _home(menu) if at == 0 else replace(
        menu, step=order[at - 1], picks=menu.picks[:-1],
        cursor=_index(_cards(view, ("suspects", "weapons")[at - 1]), menu.picks[-1]))
    title = ("Accuse: who?", "Accuse: weapon?", "Accuse: room?")[at]
    return _choose(menu, "accuse", title, ", ".join(menu.picks), names, then, back)


def _confirm_page(view: View, menu: Menu) -> _Page:
    seat = _seat(view)
    suspect, weapon, room = menu.picks
    back = replace(menu, step="accuse_room", picks=menu.picks[:2], cursor=_index(_cards(view, "rooms"), room))
    then = (_Option(), _Option(command=Play(seat, Accuse(seat, suspect, weapon, room))))
    items = ("Cancel", f"Accuse {suspect}, {weapon}, {room}")
    screen = Screen("accuse", "Accuse? Sure?", (), items, footer="wrong: you are out")
    return _cursor(_Page(screen, then, back=back), menu)


def _snoop_page(view: View, menu: Menu) -> _Page:
    seat = _seat(view)
    others = [other for other in view.get("seats") or () if other != seat]
    then = [_Option(command=Play(seat, Snoop(seat, other))) for other in others]
    return _choose(menu, "snoop", "Snoop on whom?", "Look at one card of:", others, then, _home(menu))


def _index(names: Sequence[str], name: str) -> int:
    return list(names).index(name) if name in names else 0


# -- physical dice -----------------------------------------------------------------------------


def _faces(view: View, die: int) -> tuple[Face, ...]:
    """A die's faces; on an edition with a question die, the last die has "?" for 1."""
    faces: tuple[Face, ...] = (1, 2, 3, 4, 5, 6)
    edition = _edition(view)
    question = edition is not None and edition.question_die
    return ("?", *faces[1:]) if question and die == _dice_count(view) - 1 else faces


def _dice_count(view: View) -> int:
    return max(int(view.get("dice_count") or 1), 1)


def _dice_page(view: View, menu: Menu) -> _Page:
    count, done = _dice_count(view), len(menu.dice)
    faces = _faces(view, done)
    current = faces[menu.cursor % len(faces)]
    values = [*menu.dice, current] + ["-"] * (count - done - 1)
    items = tuple(f"Die {i + 1}: {value}" for i, value in enumerate(values))
    footer = "ok: roll it" if done == count - 1 else "ok: next die"
    screen = Screen("dice", "Your dice", ("up/down: the number",), items, done, footer=footer)
    return _Page(screen, nav="dice")


def _dice_press(view: View, menu: Menu, button: str) -> tuple[Menu, Command | None]:
    seat, count, done = _seat(view), _dice_count(view), len(menu.dice)
    faces = _faces(view, done)
    if button in ("up", "down"):
        return replace(menu, cursor=(menu.cursor + (1 if button == "up" else -1)) % len(faces)), None
    if button == "back":
        if not menu.dice:
            return _home(menu), None
        last = menu.dice[-1]
        return replace(menu, dice=menu.dice[:-1], cursor=_faces(view, done - 1).index(last)), None
    dice = (*menu.dice, faces[menu.cursor % len(faces)])
    if len(dice) < count:
        return replace(menu, dice=dice, cursor=0), None
    return _home(menu), Play(seat, Roll(seat, dice=dice))
