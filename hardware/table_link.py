"""The board link's events as session commands, and the session's signals back to the board.

The link's reader thread only enqueues (DESIGN.md, "Concurrency"): each event
becomes a command on the session's queue, and the session asks the board for
LEDs and buzzer through the link, which drops them while the board is away.

>>> commands = []
>>> forward = to_commands(commands.append, lambda: frozenset())
>>> forward(TagPlaced(10, "04:10:00:01"))
>>> commands
[TagSeen(reader=10, uid='04:10:00:01')]
"""

from __future__ import annotations

from collections.abc import Callable

from companion.table.commands import BoardDown, BoardUp, Command, TagLost, TagSeen

from .link_events import LinkDown, LinkEvent, LinkUp, ReadersChanged, TagPlaced, TagRemoved


def to_commands(submit: Callable[[Command], object],
                tags: Callable[[], frozenset[tuple[int, str]]]) -> Callable[[LinkEvent], None]:
    """A link event sink that submits the matching command; ``tags`` reads the link's tag set."""

    def forward(event: LinkEvent) -> None:
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
            case ReadersChanged():
                pass  # a failed reader keeps its tags: nothing the game must change
        # BoardLog lines go to the link's own log, not the game.

    return forward
