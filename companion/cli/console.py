"""A small terminal console for the mock table: move pieces, tap cards, press buttons, see screens.

Until the web page's simulator exists this is how a game is played without
hardware. One command per line; names with spaces may be quoted or not
("move miss scarlet dining room" works):

    move SUSPECT|WEAPON PLACE     put a mover or weapon token in a room (or on a square: off the readers)
    tap CARD SEAT|centre          tap a card on a seat's pad (seat number or name) or the centre pad
    press SEAT BUTTON...          press handheld buttons: up, down, ok, back
    screen [SEAT]                 show one handheld's screen (all of them without SEAT)
    png DIR                       save every handheld's screen as DIR/seat-N.png
    status                        the table view: turn, dice, suggestion, board, notices
    place UID READER / remove UID the raw virtual board
    help, quit
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from companion.rules.cards import Deck
from companion.rules.errors import ClueError
from companion.table.fanout import View

from .mock_table import MockTable

BUTTONS = ("up", "down", "ok", "back")


class ConsoleError(ClueError, ValueError):
    code = "console"


class Console:
    """Reads console lines and drives a :class:`MockTable`; prints to ``out``."""

    def __init__(self, rig: MockTable, out: IO[str]) -> None:
        self.rig = rig
        self.out = out

    def run(self, lines: Iterable[str], prompt: Callable[[], None] | None = None) -> None:
        """Carry out each line until ``quit`` or the end of input."""
        if prompt:
            prompt()
        for line in lines:
            if not self.line(line):
                return
            if prompt:
                prompt()

    def line(self, line: str) -> bool:
        """Carry out one line; False for ``quit``. Mistakes are printed, never raised."""
        try:
            words = shlex.split(line, comments=True)
        except ValueError as err:
            self._say(f"? {err}")
            return True
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        if verb in ("quit", "exit"):
            return False
        try:
            self._do(verb, args)
        except ClueError as err:
            self._say(f"? {err}")
        return True

    def _do(self, verb: str, args: list[str]) -> None:
        rig = self.rig
        if verb == "help":
            self._say(__doc__.split("\n\n", 2)[2].rstrip() if __doc__ else "")
        elif verb == "move":
            name, place = self._two(args, self._piece_name, self._place_name, "move NAME PLACE")
            if not rig.move(name, place):
                self._say(f"No reader lies under {place}: {name} is off the readers, and nothing is sensed.")
        elif verb == "tap":
            card, pad = self._two(args, self._card_name, self._pad, "tap CARD SEAT")
            rig.tap(card, 0 if pad == "centre" else pad)
        elif verb == "press":
            self._press(args)
        elif verb == "screen":
            self._screens(" ".join(args) if args else None)
        elif verb == "png":
            self._png(args)
        elif verb == "status":
            self._say(describe_table(rig.view(None)))
        elif verb in ("place", "remove"):
            self._raw(verb, args)
        else:
            raise ConsoleError(f"unknown command {verb!r}: try help")

    # ---- commands ---------------------------------------------------------------------------

    def _press(self, args: list[str]) -> None:
        buttons = [word for word in args if word.lower() in BUTTONS]
        seat_words = args[: len(args) - len(buttons)]
        if not buttons or not seat_words or args[len(seat_words):] != buttons:
            raise ConsoleError("press SEAT BUTTON...: e.g. press 1 down ok")
        seat = self._seat(" ".join(seat_words))
        for button in buttons:
            self.rig.press(seat, button.lower())
        self._screens(seat)

    def _screens(self, which: str | None) -> None:
        seats = [self._seat(which)] if which else list(self.rig.handhelds)
        for seat in seats:
            unit = self.rig.handhelds.get(seat)
            if unit is None:
                self._say(f"[{seat}] no handheld (phone view only)")
                continue
            self._say(f"[{seat}]\n" + unit.text())

    def _png(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ConsoleError("png DIR")
        folder = Path(args[0])
        folder.mkdir(parents=True, exist_ok=True)
        seats = self.rig.view(None).get("seats", [])
        for seat, unit in self.rig.handhelds.items():
            path = folder / f"seat-{seats.index(seat) + 1}.png"
            unit.image().save(path)
            self._say(f"saved {path} ({seat})")

    def _raw(self, verb: str, args: list[str]) -> None:
        try:
            if verb == "place" and len(args) == 2:
                self.rig.board.place(args[0], int(args[1]))
            elif verb == "remove" and len(args) == 1:
                self.rig.board.remove(args[0])
            else:
                raise ConsoleError("place UID READER, or remove UID")
        except ValueError as err:
            raise ConsoleError(str(err)) from None

    # ---- names ------------------------------------------------------------------------------

    def _two(self, args: list[str], first: Callable[[str], str], second: Callable[[str], str],
             usage: str) -> tuple[str, str]:
        """Split words into two names, trying every split point (names may hold spaces)."""
        for cut in range(1, len(args)):
            try:
                return first(" ".join(args[:cut])), second(" ".join(args[cut:]))
            except ClueError:
                continue
        if len(args) >= 2:
            first(" ".join(args[:1]))  # say what is wrong with the first word, at least
            second(" ".join(args[1:]))
        raise ConsoleError(f"usage: {usage}")

    def _piece_name(self, text: str) -> str:
        deck = self._deck()
        try:
            return deck.resolve(text, "suspect")
        except ClueError:
            return deck.resolve(text, "weapon")

    def _card_name(self, text: str) -> str:
        return self._deck().resolve(text)

    def _place_name(self, text: str) -> str:
        from companion.rules.places import resolve_place

        edition = self.rig.edition
        if edition is None:
            raise ConsoleError("open a game first")
        return resolve_place(edition, text)

    def _pad(self, text: str) -> str:
        if text.lower() in ("centre", "center", "0"):
            return "centre"
        return self._seat(text)

    def _seat(self, text: str) -> str:
        seats: list[str] = self.rig.view(None).get("seats", [])
        if text.isdigit() and 1 <= int(text) <= len(seats):
            return seats[int(text) - 1]
        wanted = text.strip().lower()
        matches = [seat for seat in seats if wanted in seat.lower()]
        if len(matches) == 1:
            return matches[0]
        raise ConsoleError(f"no single seat matches {text!r}; seats: "
                           + ", ".join(f"{at + 1} {seat}" for at, seat in enumerate(seats)))

    def _deck(self) -> Deck:
        if self.rig.edition is None:
            raise ConsoleError("open a game first")
        return self.rig.edition.deck

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def describe_table(view: View) -> str:
    """The table view in a few lines of text."""
    lines = [f"stage: {view.get('stage')}   board link: {view.get('link')}"]
    if view.get("stage") == "setup":
        lines.append(f"scanned: {view.get('scanned')}   ready: {view.get('ready')}")
        lines += [f"  - {problem}" for problem in view.get("problems", [])]
    if view.get("turn"):
        dice = view.get("dice")
        lines.append(f"turn: {view['turn']} ({view.get('phase')})" + (f", dice {dice}" if dice else ""))
    if view.get("legal_destinations"):
        lines.append("may move to: " + ", ".join(view["legal_destinations"][:12])
                     + (" …" if len(view["legal_destinations"]) > 12 else ""))
    suggestion = view.get("suggestion")
    if suggestion:
        lines.append(f"suggestion: {suggestion['suspect']} with the {suggestion['weapon']} in the "
                     f"{suggestion['room']}; asking {suggestion['asked'] or 'nobody'}")
    if view.get("winner"):
        lines.append(f"winner: {view['winner']}   solution: {view.get('solution')}")
    board = view.get("board") or {}
    lines += [f"BOARD: {text}" for text in board.get("corrections", [])]
    lines += [f"board differs: {text}" for text in board.get("differences", [])]
    notice = view.get("notice")
    if notice:
        lines.append(f"notice: {notice['text']}")
    return "\n".join(lines)
