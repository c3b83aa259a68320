"""Replaying a game record: each line applied in turn, each result reported.

A rejected line is reported and skipped; the game goes on from the state
before it. Only an unusable setup line stops a replay.

>>> lines = ['{"type":"setup","edition":"classic","seats":["Miss Scarlet","Mr. Green","Mrs. White"],"seed":1}',
...          '{"type":"roll","seat":"Mr. Green"}']
>>> game = Replay(lines[0])
>>> game.step(2, lines[1])["error"]["code"]
'not_your_turn'
"""

from __future__ import annotations

from typing import Any

from companion.rules.engine import apply, new_game
from companion.rules.errors import ClueError
from companion.rules.events import Event
from companion.rules.views import event_for, public_view, seat_view

from .lines import parse_action, parse_setup


class Replay:
    """One game being replayed line by line, as everyone or as one seat sees it."""

    def __init__(self, setup_line: str, view: str | None = None) -> None:
        self.state, self._setup = new_game(parse_setup(setup_line))
        self.view: str | None = None
        self.last_error: ClueError | None = None  # why the last line stepped was refused (None: it was not)
        if view is not None:
            self.view_as(view)

    def view_as(self, name: str) -> None:
        """Report from now on only what seat ``name`` may know."""
        self.view = self.state.seat_named(name)

    @property
    def setup_events(self) -> list[dict[str, Any]]:
        """The setup line's events, as the viewer may see them."""
        return self._shown(self._setup)

    def step(self, number: int, line: str | ClueError) -> dict[str, Any]:
        """Apply one line; the ``{"line", "ok", "events" | "error"}`` result."""
        self.last_error = None
        try:
            if isinstance(line, ClueError):
                raise line
            self.state, events = apply(self.state, parse_action(line))
        except ClueError as err:
            self.last_error = err
            return {"line": number, "ok": False, "error": err.as_dict()}
        return {"line": number, "ok": True, "events": self._shown(events)}

    def final_view(self) -> dict[str, Any]:
        """The viewer's view of the state reached."""
        return seat_view(self.state, self.view) if self.view else public_view(self.state)

    def _shown(self, events: tuple[Event, ...]) -> list[dict[str, Any]]:
        if self.view is None:
            return [event.to_dict() for event in events]
        return [event_for(event, self.view) for event in events]
