"""The board link's events as session commands and log lines, and the session's signals back to the board.

The link's reader thread only enqueues (DESIGN.md, "Concurrency"): each event
becomes a command on the session's queue, and the session asks the board for
LEDs and buzzer through the link, which drops them while the board is away.
Each event is also one line in the companion's log (JSON on standard error
under ``run``): why the link is down, what the board logged, which readers failed.

>>> commands = []
>>> forward = to_commands(commands.append, lambda: frozenset())
>>> forward(TagPlaced(10, "04:10:00:01"))
>>> commands
[TagSeen(reader=10, uid='04:10:00:01')]
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from companion.table.commands import BoardDown, BoardUp, Command, TagLost, TagSeen

from .link_events import BoardLog, LinkDown, LinkEvent, LinkUp, ReadersChanged, TagPlaced, TagRemoved

LOGGER = "clue_companion.board"  # under run's "clue_companion" logger, so its lines are JSON like the table's
BOARD_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def to_commands(submit: Callable[[Command], object], tags: Callable[[], frozenset[tuple[int, str]]],
                log: logging.Logger | None = None) -> Callable[[LinkEvent], None]:
    """A link event sink that submits the matching command and logs the event.

    ``tags`` reads the link's tag set; ``log`` defaults to the ``clue_companion.board`` logger.
    """
    logger = log or logging.getLogger(LOGGER)

    def forward(event: LinkEvent) -> None:
        log_event(logger, event)
        match event:
            case TagPlaced():
                submit(TagSeen(event.reader, event.uid))
            case TagRemoved():
                submit(TagLost(event.reader, event.uid))
            case LinkUp():
                info = event.info
                submit(BoardUp(info.readers, tags(), info.failed))
            case LinkDown():
                submit(BoardDown(event.reason))
            case ReadersChanged() | BoardLog():
                pass  # a failed reader keeps its tags, and the board's words are for the log and the host page

    return forward


def log_event(logger: logging.Logger, event: LinkEvent) -> None:
    """One log line for a link event: its name as the event, its fields as the line's fields.

    A LinkDown is a warning (the link gives each reason once, so this is one line
    per reason, not per retry); a board LOG line keeps the board's own level;
    tags come and go at debug level.
    """
    fields = event.as_dict()
    name = fields.pop("event")
    match event:
        case LinkDown():
            level = logging.WARNING
        case ReadersChanged():
            level = logging.WARNING if event.failed else logging.INFO
        case BoardLog():
            level, name = BOARD_LEVELS.get(fields.pop("level"), logging.INFO), "board_log"
        case TagPlaced() | TagRemoved():
            level = logging.DEBUG
        case _:
            level = logging.INFO
    logger.log(level, name, extra={"fields": fields})
