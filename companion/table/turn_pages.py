"""The seat's own turn on the handheld: roll or enter dice, move, suggest, accuse, snoop, draw, show a card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.language import N_
from companion.rules.actions import Accuse, Draw, EndTurn, Move, Pass, Roll, Show, Snoop, Suggest
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import ClueError

from .commands import Command, Play
from .menus import MORE, Face, Menu, Option, Page, Screen, View, asked_seat, home_menu, seat_of, with_cursor
from .wording import Wording

# -- play --------------------------------------------------------------------------------------


def play_page(view: View, menu: Menu) -> Page:
    seat, phase = seat_of(view), view.get("phase")
    if asked_seat(view) == seat:
        return _show_page(view, menu)
    if view.get("turn") != seat or phase == "refuting":
        return _waiting_page(view)
    if phase == "moving":
        return _moving_page(view, menu)
    if phase == "out":
        w = Wording.for_view(view)
        screen = Screen("turn", w.say(N_("Wrong: you are out")), (w.say(N_("You still answer suggestions.")),),
                        (w.say(N_("End turn")),), footer=w.say(N_("ok: end turn")))
        return Page(screen, (Option(command=Play(seat, EndTurn(seat))),))
    return _turn_page(view, menu)


def _waiting_page(view: View) -> Page:
    seat, turn, suggestion = view.get("seat"), view.get("turn"), view.get("suggestion")
    asked, w = asked_seat(view), Wording.for_view(view)
    if asked is not None and suggestion:
        named = ", ".join(w.name(suggestion[key]) for key in ("suspect", "weapon", "room"))
        lines = [w.say(N_("Asked: {seat}"), seat=asked), named]
    elif view.get("phase") == "refuting":
        lines = [w.say(N_("The suggestion is being answered."))]
    else:
        lines = [w.say(N_("{seat}'s turn."), seat=turn)]
    if seat in (view.get("eliminated") or ()):
        lines.append(w.say(N_("You are out; you still show cards.")))
    if view.get("link") == "down":
        lines.append(w.say(N_("Board link lost.")))
    return Page(Screen("waiting", w.say(N_("Waiting")), tuple(lines), footer=w.say(N_("up/down: your notes"))),
                nav="browse")


def _show_page(view: View, menu: Menu) -> Page:
    seat, suggestion, w = seat_of(view), view.get("suggestion") or {}, Wording.for_view(view)
    cards = tuple(view.get("may_show") or ())
    line = w.say(N_("to {seat}:"), seat=suggestion.get("suggester"))
    if not cards:
        screen = Screen("show", w.say(N_("Your answer")), (line,), (w.say(N_("Pass: I have none")),),
                        footer=w.say(N_("ok: pass")))
        return Page(screen, (Option(command=Play(seat, Pass(seat))),))
    options = tuple(Option(command=Play(seat, Show(seat, card))) for card in cards)
    screen = Screen("show", w.say(N_("Show a card")), (line,), tuple(w.name(card) for card in cards),
                    footer=w.say(N_("ok: show it")))
    return with_cursor(Page(screen, options), menu)


def _where(view: View, w: Wording) -> str:
    place = str((view.get("position") or {}).get(view.get("seat"), "?"))
    square = len(place) <= 3 and place[:1].islower() and place[1:].isdigit()
    return w.say(N_("On {square}."), square=place) if square else w.say(N_("In the {room}."), room=place)


def _turn_page(view: View, menu: Menu) -> Page:
    """The seat's turn before a roll ("start") or after its move ("moved", "suggested")."""
    seat, phase, w = seat_of(view), view.get("phase"), Wording.for_view(view)
    items: list[tuple[str, Option]] = []
    if phase == "start":
        physical = (view.get("settings") or {}).get("dice") == "physical"
        items.append((w.say(N_("Enter dice")), Option(replace(home_menu(menu), step="dice"))) if physical
                     else (w.say(N_("Roll dice")), Option(command=Play(seat, Roll(seat)))))
        items += [(w.say(N_("Passage to {room}"), room=place), Option(command=Play(seat, Move(seat, place))))
                  for place in view.get("legal_destinations") or ()]
    if _may_suggest(view):
        items.append((w.say(N_("Suggest")), Option(replace(home_menu(menu), step="suggest_suspect"))))
    items += _extras(view, menu, w)
    if _may_accuse(view):
        items.append((w.say(N_("Accuse")), Option(replace(home_menu(menu), step="accuse_suspect"))))
    if phase in ("moved", "suggested") and not view.get("must_suggest"):
        items.append((w.say(N_("End turn")), Option(command=Play(seat, EndTurn(seat)))))
    items.append((w.say(MORE), Option(replace(home_menu(menu), step="browse", page=1))))
    lines = [_where(view, w)] + _phone_line(view, w)
    kind = "roll" if phase == "start" else "turn"
    screen = Screen(kind, w.say(N_("Your turn")), tuple(lines), tuple(label for label, _ in items),
                    footer=w.say(N_("ok: choose")))
    return with_cursor(Page(screen, tuple(option for _, option in items)), menu)


def _moving_page(view: View, menu: Menu) -> Page:
    seat, w = seat_of(view), Wording.for_view(view)
    places = sorted(view.get("legal_destinations") or (), key=lambda p: (p[:1].islower(), p[:1], len(p), p))
    items = [(w.name(place), Option(command=Play(seat, Move(seat, place)))) for place in places]
    items += _extras(view, menu, w)
    items.append((w.say(MORE), Option(replace(home_menu(menu), step="browse", page=1))))
    lines = [w.say(N_("Or move your token."))] if view.get("link") == "up" else []
    screen = Screen("destinations", w.say(N_("Move {count}: where to?"), count=view.get("moves_left")), tuple(lines),
                    tuple(label for label, _ in items), footer=w.say(N_("ok: go there")))
    return with_cursor(Page(screen, tuple(option for _, option in items)), menu)


def _extras(view: View, menu: Menu, w: Wording) -> list[tuple[str, Option]]:
    """Snoop and draw, when the turn offers them."""
    seat = seat_of(view)
    extras: list[tuple[str, Option]] = []
    if view.get("snoop_at"):
        extras.append((w.say(N_("Snoop")), Option(replace(home_menu(menu), step="snoop"))))
    if seat in (view.get("may_draw") or ()):
        extras.append((w.say(N_("Draw a card")), Option(command=Play(seat, Draw(seat)))))
    return extras


def _phone_line(view: View, w: Wording) -> list[str]:
    """Bonus cards and personality powers are played on the phone view."""
    seat = seat_of(view)
    power = (view.get("powers") or {}).get(seat)
    held = ((view.get("bonus") or {}).get("held") or {}).get(seat)
    return [w.say(N_("Cards, power: phone view."))] if held or (power and not power.get("used")) else []


def _edition(view: View) -> Edition | None:
    try:
        return load_edition(str(view.get("edition")))
    except ClueError:
        return None


def _may_accuse(view: View) -> bool:
    """Editions that name one place for accusations (a centre space) offer it only there; never while a
    suggestion is owed (must_suggest editions)."""
    if view.get("must_suggest"):
        return False
    edition = _edition(view)
    if edition is None or edition.accuse == "anywhere" or edition.board is None:
        return True
    board, here = edition.board, str((view.get("position") or {}).get(seat_of(view)))
    mark = board.marks.get(board.index[here]) if here in board.index else None
    return edition.accuse in (here, mark)


def _may_suggest(view: View) -> bool:
    """A room entered this turn, or brought here by another's suggestion since one's last turn."""
    seat, phase = seat_of(view), view.get("phase")
    place = (view.get("position") or {}).get(seat)
    if place not in (view.get("edition_cards") or {}).get("rooms", ()):
        return False
    made = view.get("suggestion")
    if made and made.get("suggester") == seat:  # one a turn, even after moving on to another room (Doctor Who)
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
            then: Sequence[Option], back: Menu, w: Wording) -> Page:
    screen = Screen(kind, title, (line,) if line else (), tuple(w.name(name) for name in names),
                    footer=w.say(N_("ok: pick  back: undo")))
    return with_cursor(Page(screen, tuple(then), back=back), menu)


def _cards(view: View, key: str) -> tuple[str, ...]:
    return tuple((view.get("edition_cards") or {}).get(key, ()))


def suggest_page(view: View, menu: Menu) -> Page:
    seat, w = seat_of(view), Wording.for_view(view)
    room = (view.get("position") or {}).get(seat)
    if menu.step == "suggest_suspect":
        suspects = _cards(view, "suspects")
        then = [Option(replace(menu, step="suggest_weapon", picks=(name,), cursor=0)) for name in suspects]
        return _choose(menu, "suggest_suspect", w.say(N_("Suggest: who?")), w.say(N_("in the {room}"), room=room),
                       suspects, then, home_menu(menu), w)
    suspect = menu.picks[0]
    weapons = _cards(view, "weapons")
    then = [Option(command=Play(seat, Suggest(seat, suspect, name))) for name in weapons]
    back = replace(menu, step="suggest_suspect", picks=(), cursor=_index(_cards(view, "suspects"), suspect))
    return _choose(menu, "suggest_weapon", w.say(N_("Suggest: weapon?")), f"{w.name(suspect)}, {w.name(room)}",
                   weapons, then, back, w)


def accuse_page(view: View, menu: Menu) -> Page:
    order = ("accuse_suspect", "accuse_weapon", "accuse_room", "accuse_confirm")
    at = order.index(menu.step)
    names = _cards(view, ("suspects", "weapons", "rooms")[at])
    then = [Option(replace(menu, step=order[at + 1], picks=menu.picks + (name,), cursor=0)) for name in names]
    back = home_menu(menu) if at == 0 else replace(
        menu, step=order[at - 1], picks=menu.picks[:-1],
        cursor=_index(_cards(view, ("suspects", "weapons")[at - 1]), menu.picks[-1]))
    w = Wording.for_view(view)
    title = w.say((N_("Accuse: who?"), N_("Accuse: weapon?"), N_("Accuse: room?"))[at])
    return _choose(menu, "accuse", title, ", ".join(w.name(pick) for pick in menu.picks), names, then, back, w)


def confirm_page(view: View, menu: Menu) -> Page:
    seat, w = seat_of(view), Wording.for_view(view)
    suspect, weapon, room = menu.picks
    back = replace(menu, step="accuse_room", picks=menu.picks[:2], cursor=_index(_cards(view, "rooms"), room))
    then = (Option(), Option(command=Play(seat, Accuse(seat, suspect, weapon, room))))
    items = (w.say(N_("Cancel")), w.say(N_("Accuse {suspect}, {weapon}, {room}"), suspect=suspect, weapon=weapon,
                                        room=room))
    screen = Screen("accuse", w.say(N_("Accuse? Sure?")), (), items, footer=w.say(N_("wrong: you are out")))
    return with_cursor(Page(screen, then, back=back), menu)


def snoop_page(view: View, menu: Menu) -> Page:
    seat, w = seat_of(view), Wording.for_view(view)
    others = [other for other in view.get("seats") or () if other != seat]
    then = [Option(command=Play(seat, Snoop(seat, other))) for other in others]
    return _choose(menu, "snoop", w.say(N_("Snoop on whom?")), w.say(N_("Look at one card of:")), others, then,
                   home_menu(menu), w)


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


def dice_page(view: View, menu: Menu) -> Page:
    count, done, w = _dice_count(view), len(menu.dice), Wording.for_view(view)
    faces = _faces(view, done)
    current = faces[menu.cursor % len(faces)]
    values = [*menu.dice, current] + ["-"] * (count - done - 1)
    items = tuple(w.say(N_("Die {number}: {value}"), number=i + 1, value=value) for i, value in enumerate(values))
    footer = w.say(N_("ok: roll it")) if done == count - 1 else w.say(N_("ok: next die"))
    screen = Screen("dice", w.say(N_("Your dice")), (w.say(N_("up/down: the number")),), items, done, footer=footer)
    return Page(screen, nav="dice")


def dice_press(view: View, menu: Menu, button: str) -> tuple[Menu, Command | None]:
    seat, count, done = seat_of(view), _dice_count(view), len(menu.dice)
    faces = _faces(view, done)
    if button in ("up", "down"):
        return replace(menu, cursor=(menu.cursor + (1 if button == "up" else -1)) % len(faces)), None
    if button == "back":
        if not menu.dice:
            return home_menu(menu), None
        last = menu.dice[-1]
        return replace(menu, dice=menu.dice[:-1], cursor=_faces(view, done - 1).index(last)), None
    dice = (*menu.dice, faces[menu.cursor % len(faces)])
    if len(dice) < count:
        return replace(menu, dice=dice, cursor=0), None
    return home_menu(menu), Play(seat, Roll(seat, dice=dice))
