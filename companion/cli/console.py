"""A small terminal console for the mock table: move pieces, tap cards, press buttons, see screens.

One command per line; names may be any unique part of a name, quoted or not
("move scarlet lounge", "move miss scarlet dining room"). On a terminal it is a
:class:`cmd.Cmd` with readline: Tab completes commands and names, the arrow
keys recall lines from earlier sessions, and ``help CMD`` explains a command.
Scripts (``run --script FILE``) go through :meth:`Console.run` line by line.
"""

from __future__ import annotations

import cmd
import logging
import re
import shlex
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from companion.rules.cards import Deck
from companion.rules.errors import ClueError
from companion.table.fanout import View

from . import terminal
from .mock_table import MockTable
from .names import UnclearName, completions, match_name

BUTTONS = ("up", "down", "ok", "back")
APOSTROPHE = re.compile(r"\w['\u2019]\w")
PROMPT = "> "


class ConsoleError(ClueError, ValueError):
    code = "console"


@dataclass(frozen=True)
class Help:
    """A command's usage, what it does, and an example."""

    usage: str
    does: str
    example: str


HELP: dict[str, Help] = {
    "move": Help("move SUSPECT|WEAPON PLACE", "put a mover or weapon token in a room (or on a square: off the "
                 "readers)", "move scarlet lounge"),
    "tap": Help("tap CARD SEAT|centre", "tap a card on a seat's pad (seat number or name) or the centre pad",
                "tap rope 1"),
    "press": Help("press SEAT BUTTON...", "press handheld buttons: up, down, ok, back", "press 1 down ok"),
    "screen": Help("screen [SEAT]", "show one handheld's screen (all of them without SEAT)", "screen white"),
    "png": Help("png DIR", "save every handheld's screen as DIR/seat-N.png", "png shots"),
    "status": Help("status", "the table view: turn, dice, suggestion, board, notices", "status"),
    "place": Help("place UID READER", "put a raw tag on a reader of the virtual board", "place 04:A2:1B:3C 2"),
    "remove": Help("remove UID", "lift a raw tag off the virtual board", "remove 04:A2:1B:3C"),
    "help": Help("help [COMMAND]", "list the commands, or explain one", "help move"),
    "quit": Help("quit", "stop (also exit, or Ctrl-D)", "quit"),
}
NAMES_NOTE = ("Names may be any unique part of a name, in any case: 'scarlet', 'col must', 'dining'; "
              "a seat may also be its number.")


class Console(cmd.Cmd):
    """Reads console lines and drives a :class:`MockTable`; prints to ``out``.

    ``history`` is the readline history file (default: in the user's data directory).
    """

    prompt = PROMPT

    def __init__(self, rig: MockTable, out: IO[str], *, history: Path | None = None,
                 log: logging.Logger | None = None) -> None:
        super().__init__(stdout=out)
        self.rig = rig
        self.out = out
        self.history = history
        self.log = log or logging.getLogger("clue_companion")
        self._keeper: terminal.PromptKeeper | None = None

    def run(self, lines: Iterable[str], prompt: Callable[[], None] | None = None) -> None:
        """Carry out each line until ``quit`` or the end of input.

        Lines typed at a terminal (``lines`` is standard input on a tty, with a prompt)
        get the interactive console, :meth:`interact`, instead.
        """
        if prompt and lines is sys.stdin and terminal.is_terminal(lines) and terminal.is_terminal(self.out):
            self.interact()
            return
        if prompt:
            prompt()
        for line in lines:
            if not self.line(line):
                return
            if prompt:
                prompt()

    def interact(self) -> None:
        """The console on a terminal: readline editing, history, Tab completion, until quit or Ctrl-D/Ctrl-C."""
        readline = terminal.load_readline()
        path = self.history or terminal.history_path()
        with terminal.history(readline, path, sys.stderr), \
                terminal.prompt_safe_logging(self.log, self.out, self.prompt, readline) as keeper:
            self._keeper = keeper
            if readline is not None and keeper is not None:
                # Called once the prompt is on the screen: from then on a log line must redraw it.
                readline.set_pre_input_hook(keeper.waiting.set)
            try:
                self.cmdloop()
            except KeyboardInterrupt:
                self._say("")
            finally:
                self._keeper = None
                if readline is not None:
                    readline.set_pre_input_hook()

    def line(self, line: str) -> bool:
        """Carry out one line; False for ``quit``. Mistakes are printed, never raised."""
        words = _words(line)
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

    # ---- cmd.Cmd --------------------------------------------------------------------------

    def precmd(self, line: str) -> str:
        if self._keeper is not None:
            self._keeper.waiting.clear()  # a line was entered: log lines until the next prompt need no redraw
        return line

    def onecmd(self, line: str) -> bool:
        """True to stop: ``quit``, or the end of input (Ctrl-D)."""
        if line == "EOF":
            self._say("")
            return True
        return not self.line(line)

    def completenames(self, text: str, *ignored: object) -> list[str]:
        return [name + " " for name in HELP if name.startswith(text.lower())]

    def complete_help(self, text: str, line: str, begidx: int, endidx: int) -> list[str]:
        return self.completenames(text) if len(line[:begidx].split()) == 1 else []

    def completedefault(self, text: str, line: str, begidx: int, endidx: int) -> list[str]:
        """Complete the name under the cursor from the names the command takes."""
        words = line[:begidx].split()
        if not words:
            return []
        try:
            names = self._names_for(words[0].lower())
        except ClueError:
            return []
        # Python's readline appends nothing to a completion: the space that ends a word is ours.
        return [name + " " for name in completions([*words[1:], text], names)]

    def _names_for(self, verb: str) -> tuple[str, ...]:
        if verb == "move":
            deck, board = self._deck(), self._edition_board()
            return (*deck.suspects, *deck.weapons, *board)
        if verb == "tap":
            return (*self._deck().all, *self._seats(), "centre")
        if verb == "press":
            return (*self._seats(), *BUTTONS)
        if verb == "screen":
            return self._seats()
        return ()

    # ---- dispatch -------------------------------------------------------------------------

    def _do(self, verb: str, args: list[str]) -> None:
        rig = self.rig
        if verb == "help":
            self._help(args)
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

    def _help(self, args: list[str]) -> None:
        if not args:
            width = max(len(entry.usage) for entry in HELP.values())
            self._say("\n".join(f"{entry.usage:<{width}}  {entry.does}" for entry in HELP.values()))
            self._say(NAMES_NOTE + " help COMMAND explains one command.")
            return
        entry = HELP.get(args[0].lower())
        if entry is None or len(args) > 1:
            raise ConsoleError(f"no command {' '.join(args)!r} to explain; commands: {', '.join(HELP)}")
        note = f"\n{NAMES_NOTE}" if "SEAT" in entry.usage or "NAME" in entry.usage or "|" in entry.usage else ""
        self._say(f"{entry.usage}\n  {entry.does}\n  e.g. {entry.example}{note}")

    # ---- commands ---------------------------------------------------------------------------

    def _press(self, args: list[str]) -> None:
        buttons = [word for word in args if word.lower() in BUTTONS]
        seat_words = args[: len(args) - len(buttons)]
        if not buttons or not seat_words or args[len(seat_words):] != buttons:
            raise ConsoleError("press SEAT BUTTON...: e.g. press 1 down ok")
        seat = self._seat(" ".join(seat_words))
        for button in buttons:
            # Each press on the screen of the table's latest view, as a player sees it before pressing: a
            # script's first press could otherwise land on the menu from before the game started.
            self.rig.caught_up(seat)
            self.rig.press(seat, button.lower())
            self.rig.applied()
        self.rig.caught_up(seat)
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
        board = getattr(self.rig, "board", None)  # none at a camera table whose cards are on the phones
        if board is None:
            raise ConsoleError("this table has no virtual board of readers: place and remove need one")
        try:
            if verb == "place" and len(args) == 2:
                board.place(args[0], int(args[1]))
            elif verb == "remove" and len(args) == 1:
                board.remove(args[0])
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
        for category in ("suspect", "weapon"):
            try:
                return deck.resolve(text, category)
            except ClueError:
                pass
        return match_name(text, (*deck.suspects, *deck.weapons), "suspect or weapon")

    def _card_name(self, text: str) -> str:
        deck = self._deck()
        try:
            return deck.resolve(text)
        except ClueError:
            return match_name(text, deck.all, "card")

    def _place_name(self, text: str) -> str:
        from companion.rules.places import resolve_place

        edition = self.rig.edition
        if edition is None:
            raise ConsoleError("open a game first")
        try:
            return resolve_place(edition, text)  # squares, spots and the edition's aliases too
        except ClueError:
            return match_name(text.strip().removeprefix("the ").removeprefix("The "), self._edition_board(), "room")

    def _pad(self, text: str) -> str:
        if text.lower() in ("centre", "center", "0"):
            return "centre"
        return self._seat(text)

    def _seat(self, text: str) -> str:
        seats = self._seats()
        if text.isdigit() and 1 <= int(text) <= len(seats):
            return seats[int(text) - 1]
        try:
            return match_name(text, seats, "seat")
        except UnclearName as err:
            if err.ambiguous:
                raise
            raise ConsoleError(f"no seat {text.strip()!r}; seats: "
                               + ", ".join(f"{at + 1} {seat}" for at, seat in enumerate(seats))) from None

    def _seats(self) -> tuple[str, ...]:
        return tuple(self.rig.view(None).get("seats", []))

    def _edition_board(self) -> tuple[str, ...]:
        """The board's rooms and named spots, for completing and matching places."""
        edition = self.rig.edition
        board = edition.board if edition is not None else None
        return (*board.rooms, *board.spots) if board is not None else ()

    def _deck(self) -> Deck:
        if self.rig.edition is None:
            raise ConsoleError("open a game first")
        return self.rig.edition.deck

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def _words(line: str) -> list[str]:
    """The words of a line: quotes group words, but an apostrophe inside a word ("Strax's Gun") is a letter."""
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    if APOSTROPHE.search(line):
        lexer.quotes = '"'
    try:
        return list(lexer)
    except ValueError:  # no closing quotation
        return line.split("#", 1)[0].split()


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
