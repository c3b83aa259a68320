"""``clue-companion notebook FILE --seat S``: a seat's exact notebook after each record line.

The record is replayed as that seat sees it (:class:`~companion.record.replay.Replay`
with a view), so the notebook can use only what the seat may know. A player's
own notes of a game played without the companion (:mod:`companion.deduction.notes`,
first line ``{"type": "notes", ...}``) are read instead when given. Each line
prints a table (or, with ``--json``, one JSON object). ``--locale`` writes the
table's cards and words as that locale does (``--names`` picks one of its
boxes' name sets: ``--locale de-DE --names 1990s``); the JSON keeps the cards'
identities.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from companion.deduction.knowledge import Knowledge
from companion.deduction.notebook import ENVELOPE, Contradiction, Notebook
from companion.deduction.notes import Notes, is_notes
from companion.language import DEFAULT, N_, Locale, parse_locale, say
from companion.language.boxes import add_names_argument, resolve_variant
from companion.record.lines import read_lines
from companion.record.replay import Replay
from companion.rules.edition import Edition
from companion.rules.errors import ClueError
from companion.rules.spelling import spelling


class UsageError(ClueError):
    """A bad command line or unreadable file (kept apart from cli.py's to avoid an import cycle)."""

    code = "usage"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``notebook`` on the ``clue-companion`` sub-command parser."""
    notebook = commands.add_parser("notebook", help="a seat's exact deduction notebook after each line of a record")
    notebook.add_argument("file", help="a JSON Lines game record or a player's notes (docs/deduction.md), or - for standard input")
    notebook.add_argument("--seat", required=True, help="whose notebook: only what this seat may know is used")
    notebook.add_argument("--json", action="store_true", help="one JSON object per line instead of a table")
    notebook.add_argument("--locale", default=DEFAULT, metavar="LOCALE",
                          help="the table's card names and words (en-US, en-GB, de-DE, ...; default en-US)")
    add_names_argument(notebook)
    notebook.set_defaults(command=run)


@dataclass
class _Output:
    """How the notebook prints: JSON or a table, in a locale's words and card names."""

    as_json: bool
    locale: Locale
    box: str | None = None  # --names as typed
    names: Mapping[str, str] = field(default_factory=dict)

    def spell(self, edition: Edition) -> None:
        """The cards as the locale (and the box chosen with --names) writes them."""
        try:
            variant = resolve_variant(edition, self.locale.tag, self.box)
        except ClueError as err:
            raise UsageError(f"--names: {err}") from None
        self.names = spelling(edition, self.locale.tag, variant=variant)


def run(args: argparse.Namespace) -> int:
    try:
        locale = parse_locale(args.locale)
    except ClueError as err:
        raise UsageError(f"--locale: {err}") from None
    output = _Output(args.json, locale, getattr(args, "names", None))
    if args.file == "-":
        return _notebook(sys.stdin.buffer, args.seat, output)
    try:
        stream = open(args.file, "rb")
    except OSError as err:
        raise UsageError(f"cannot read {args.file}: {err.strerror}") from None
    with stream:
        return _notebook(stream, args.seat, output)


def _notebook(stream: IO[bytes], seat: str, output: _Output) -> int:
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
            output.spell(game.edition)
        else:
            game = Replay(setup)
            game.view_as(seat)
            knows = Knowledge(game.view or seat, game.state.edition.deck)
            output.spell(game.state.edition)
    except UsageError:
        raise
    except ClueError as err:
        raise UsageError(f"line {number}: {err}") from None
    _learn(knows, number, game.setup_events)
    _print(knows, {"line": number, "ok": True}, output)
    for number, line in lines:
        result = game.step(number, line)
        if result["ok"]:
            _learn(knows, number, result["events"])
        _print(knows, {key: value for key, value in result.items() if key != "events"}, output)
    return 0


def _learn(knows: Knowledge, number: int, events: list[dict[str, Any]]) -> None:
    for event in events:
        knows.learn(event, f"line {number}")


def _print(knows: Knowledge, head: dict[str, Any], output: _Output) -> None:
    result = dict(head, seat=knows.seat, notebook=None)
    notebook: Notebook | None = None
    if knows.ready:
        try:
            notebook = knows.notebook()
            result["notebook"] = notebook.to_dict()
        except Contradiction as err:
            result["contradiction"] = {"message": str(err), "entries": list(err.entries)}
    if output.as_json:
        print(json.dumps(result))
        return
    language = output.locale.language
    print(_heading(head, language))
    if "contradiction" in result:
        print("  " + say(language, N_("no deal fits; these entries cannot all be true:")))
        for entry in result["contradiction"]["entries"]:
            print(f"    {entry}")
    elif notebook is None:
        print("  " + say(language, N_("(the cards are not dealt yet)")))
    else:
        print(table(notebook, output.names, language))


def _heading(head: dict[str, Any], language: str = "en") -> str:
    if head["ok"]:
        return say(language, N_("line {line}:"), line=head["line"])
    return say(language, N_("line {line}: rejected ({code}): {reason}"), line=head["line"],
               code=head["error"]["code"], reason=head["error"]["message"])


def table(notebook: Notebook, names: Mapping[str, str] | None = None, language: str = "en") -> str:
    """The notebook as text: a row per card, a column per place, cards and seats written as ``names`` says.

    ``YES`` is certain, ``-`` is impossible, otherwise the chance in percent.
    """
    shown = names or {}

    def name(card: str) -> str:
        return shown.get(card, card)
    places = notebook.places
    # Translators: the envelope's column heading in the notebook: at most 5 characters.
    envelope = say(language, N_("env"))[:5]
    labels = [f"{index + 1}" if place != ENVELOPE else envelope for index, place in enumerate(places)]
    width = max(len(name(card)) for card in notebook.counts)
    lines = ["  " + " " * width + "".join(f"{label:>6}" for label in labels)]
    for card in notebook.counts:
        cells = "".join(f"{_cell(notebook, card, place, language):>6}" for place in places)
        lines.append(f"  {name(card):<{width}}{cells}")
    legend = ", ".join(f"{label}={name(place)}" for label, place in zip(labels, places) if place != ENVELOPE)
    best, chance = notebook.best_accusation
    lines.append(f"  {legend}")
    lines.append("  " + say(language, N_("likeliest envelope: {cards} ({chance})"), cards=", ".join(map(name, best)),
                            chance=f"{float(chance):.1%}")
                 + ("  " + say(language, N_("-- certain: accuse now")) if chance == 1 else ""))
    return "\n".join(lines)


def _cell(notebook: Notebook, card: str, place: str, language: str = "en") -> str:
    chance = notebook.probability(card, place)
    if chance == 1:
        return say(language, N_("YES"))
    if chance == 0:
        return "-"
    return f"{float(chance):.0%}" if chance >= 0.01 else "<1%"
