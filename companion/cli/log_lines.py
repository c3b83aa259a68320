"""The companion's log as people read it on a terminal, and as JSON lines for a journal or a log file.

``run`` logs one record per event (an action, the board link going down...). A
service's journal keeps each as one JSON object (:class:`JsonLines`). At a
terminal, where the console's prompt waits, those lines are noise: there a
record becomes a short sentence when it needs attention (the board link down,
a reader failing, speech failing), and nothing when it is routine (an action,
which the console and the pages already show).

>>> record = logging.LogRecord("clue_companion.board", logging.WARNING, "", 0, "link_down", None, None)
>>> record.fields = {"reason": "no board found"}
>>> PeopleLines().sentence(record)
'clue-companion: warning: the board link is down: no board found'
>>> record = logging.LogRecord("clue_companion", logging.INFO, "", 0, "action", None, None)
>>> PeopleLines().sentence(record) is None
True
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import IO, Any

PREFIX = "clue-companion: "
Fields = Mapping[str, Any]


def _readers(numbers: object) -> str:
    return ", ".join(str(number) for number in numbers) if isinstance(numbers, (list, tuple)) else str(numbers)


# Events worth a sentence, whatever their level; every other warning or error gets its message and fields.
SENTENCES: dict[str, Callable[[Fields], str | None]] = {
    "link_up": lambda f: (f"the board is connected on {f.get('port')} (firmware {f.get('firmware')}, "
                          f"{f.get('readers')} readers" + (f"; not answering: {_readers(f['failed'])}"
                                                          if f.get("failed") else "") + ")"),
    "link_down": lambda f: f"the board link is down: {f.get('reason')}",
    "readers": lambda f: (f"board readers not answering: {_readers(f['failed'])}" if f.get("failed")
                          else "every board reader answers again"),
    "board_log": lambda f: f"the board says: {f.get('text')}",
    "say": lambda f: f"(spoken) {f.get('text')}",
    "speech_failed": lambda f: f"speech failed: {f.get('error')}",
    "session_error": lambda f: f"the table hit an error and carries on: {f.get('error')}",
    "store_refused_end": lambda f: "the store refused to record the game's end" + _details(f),
}


class PeopleLines(logging.Formatter):
    """A record as one short sentence, or None when it is routine (see :meth:`sentence`)."""

    def __init__(self, *, everything: bool = False) -> None:
        super().__init__()
        self.everything = everything  # --log-level DEBUG: the routine events too, as "event: fields"

    def sentence(self, record: logging.LogRecord) -> str | None:
        """The record in words: a known event's sentence, a warning's message, else None (routine)."""
        fields: Fields = getattr(record, "fields", {})
        event = record.getMessage()
        said = SENTENCES.get(event)
        text = said(fields) if said is not None else None
        if text is None and (record.levelno >= logging.WARNING or self.everything):
            text = event.replace("_", " ", 1) if event.isidentifier() else event
            text += _details(fields)
        if text is None:
            return None
        if record.levelno >= logging.WARNING:
            text = f"{record.levelname.lower()}: {text}"
        if record.exc_info and record.levelno >= logging.ERROR:
            text += "\n" + self.formatException(record.exc_info)
        return PREFIX + text

    def format(self, record: logging.LogRecord) -> str:
        return self.sentence(record) or ""

    def filter(self, record: logging.LogRecord) -> bool:
        """A handler filter: only records with a sentence are written."""
        return self.sentence(record) is not None


def _details(fields: Fields) -> str:
    """A record's fields in words: " (key value, key value)", or nothing."""
    shown = [f"{key.replace('_', ' ')} {value}" for key, value in fields.items() if value not in (None, "", [], {})]
    return f" ({', '.join(shown)})" if shown else ""


class JsonLines(logging.Formatter):
    """One JSON object per log record: time, level, event, and the record's fields."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"t": round(time.time(), 3), "level": record.levelname, "logger": record.name,
                "event": record.getMessage(), **getattr(record, "fields", {})}
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def setup_logging(level: str, stream: IO[str], *, as_json: bool = True) -> None:
    """The ``clue_companion`` logger writes to ``stream``: JSON lines, or sentences for people (``as_json=False``)."""
    handler = logging.StreamHandler(stream)
    if as_json:
        handler.setFormatter(JsonLines())
    else:
        people = PeopleLines(everything=level == "DEBUG")
        handler.setFormatter(people)
        handler.addFilter(people.filter)
    root = logging.getLogger("clue_companion")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
