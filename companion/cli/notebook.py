"""``clue-companion notebook FILE --seat S``: a seat's exact notebook after each record line.

The record is replayed as that seat sees it (:class:`~companion.record.replay.Replay`
with a view), so the notebook can use only what the seat may know. A player's
own notes of a game played without the companion (:mod:`companion.deduction.notes`,
first line ``{"type": "notes", ...}``) are read instead when given. Each line
prints a table (or, with ``--json``, one JSON object).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from companion.deduction.knowledge import Knowledge
from companion.deduction.notebook import ENVELOPE, Contradiction, Notebook
from companion.deduction.notes import Notes, is_notes
from companion.record.lines import read_lines
from companion.record.replay import Replay
from companion.rules.errors import ClueError


class UsageError(ClueError):
    """A bad command line or unreadable file (kept apart from cli.py's to avoid an import cycle)."""

    code = "usage"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``notebook`` on the ``clue-companion`` sub-command parser."""
    notebook = commands.add_parser("notebook", help="a seat's exact deduction notebook after each line of a record")
    notebook.add_argument("file", help="a JSON Lines game record or a player's notes (docs/deduction.md), or - for standard input")
    notebook.add_argument("--seat", required=True, help="whose notebook: only what this seat may know is used")
    notebook.add_argument("--json", action="store_true", help="one JSON object per line instead of a table")
    notebook.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        return _notebook(sys.stdin.buffer, args.seat, args.json)
    try:
        stream = open(args.file, "rb")
    except OSError as err:
        raise UsageError(f"cannot read {args.file}: {err.strerror}") from None
    with stream:
        return _notebook(stream, args.seat, args.json)


def _notebook(stream: IO[bytes], seat: str, as_json: bool) -> int:
    lines = read_lines(stream)
    first = next(lines, None)
    if first is None:
        raise UsageError("the record is empty: it needs a setup line")
    number, setup = first
    if isinstance(setup, ClueError):
        raise UsageError(f"line {number}: {setup}")
    game: Replay | Notes
    try:
        if is_notes(setup):
            game = Notes.start(setup, seat)
            knows = Knowledge(game.seat, game.edition.deck)
        else:
            game = Replay(setup)
            game.view_as(seat)
            knows = Knowledge(game.view or seat, game.state.edition.deck)
    except ClueError as err:
        raise UsageError(f"line {number}: {err}") from None
    _learn(knows, number, game.setup_events)
    _print(knows, {"line": number, "ok": True}, as_json)
    for number, line in lines:
        result = game.step(number, line)
        if result["ok"]:
            _learn(knows, number, result["events"])
        _print(knows, {key: value for key, value in result.items() if key != "events"}, as_json)
    return 0


def _learn(knows: Knowledge, number: int, events: list[dict[str, Any]]) -> None:
    for event in events:
        knows.learn(event, f"line {number}")


def _print(knows: Knowledge, head: dict[str, Any], as_json: bool) -> None:
    result = dict(head, seat=knows.seat, notebook=None)
    notebook: Notebook | None = None
    if knows.ready:
        try:
            notebook = knows.notebook()
            result["notebook"] = notebook.to_dict()
        except Contradiction as err:
            result["contradiction"] = {"message": str(err), "entries": list(err.entries)}
    if as_json:
        print(json.dumps(result))
        return
    print(_heading(head))
    if "contradiction" in result:
        print("  no deal fits; these entries cannot all be true:")
        for entry in result["contradiction"]["entries"]:
            print(f"    {entry}")
    elif notebook is None:
        print("  (the cards are not dealt yet)")
    else:
        print(table(notebook))


def _heading(head: dict[str, Any]) -> str:
    if head["ok"]:
        return f"line {head['line']}:"
    return f"line {head['line']}: rejected ({head['error']['code']}): {head['error']['message']}"


def table(notebook: Notebook) -> str:
    """The notebook as text: a row per card, a column per place.

    ``YES`` is certain, ``-`` is impossible, otherwise the chance in percent.
    """
    places = notebook.places
    labels = [f"{index + 1}" if place != ENVELOPE else "env" for index, place in enumerate(places)]
    width = max(len(card) for card in notebook.counts)
    lines = ["  " + " " * width + "".join(f"{label:>6}" for label in labels)]
    for card in notebook.counts:
        cells = "".join(f"{_cell(notebook, card, place):>6}" for place in places)
        lines.append(f"  {card:<{width}}{cells}")
    legend = ", ".join(f"{label}={place}" for label, place in zip(labels, places) if place != ENVELOPE)
    best, chance = notebook.best_accusation
    lines.append(f"  {legend}")
    lines.append(f"  likeliest envelope: {', '.join(best)} ({float(chance):.1%})"
                 + ("  -- certain: accuse now" if chance == 1 else ""))
    return "\n".join(lines)


def _cell(notebook: Notebook, card: str, place: str) -> str:
    chance = notebook.probability(card, place)
    if chance == 1:
        return "YES"
    if chance == 0:
        return "-"
    return f"{float(chance):.0%}" if chance >= 0.01 else "<1%"
