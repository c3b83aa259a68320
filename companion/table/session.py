"""The session: one table, one input queue, one thread.

Every input (board link, handheld buttons, web requests, bots) is a command put
on the queue with :meth:`Session.submit`, which never blocks. The session
thread takes them one at a time, lets the :class:`~companion.table.table.Table`
handle each (translate, apply, commit to the store), then leaves the new views
in the subscribers' mailboxes. Nothing else touches the table, so there are no
races, and no subscriber can hold the session up.

>>> from companion.table.commands import NewGame, StartGame
>>> with Session(Table(seed_source=lambda: 7)) as session:
...     table_box = session.subscribe(None)
...     session.call(NewGame("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White"))).ok
...     session.call(StartGame()).ok
...     table_box.get(timeout=1)["turn"]
True
True
'Miss Scarlet'
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .commands import Command, Stop, Tick
from .fanout import Mailbox, View
from .table import Outcome, Table

__all__ = ["Session", "Table", "Ticket"]


class Ticket:
    """A submitted command's receipt: wait on it for the outcome."""

    def __init__(self, command: Command | _Internal) -> None:
        self.command = command
        self._done = threading.Event()
        self._outcome: Outcome | None = None

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._done.set()

    def wait(self, timeout: float | None = None) -> Outcome:
        """The outcome, once the session has handled the command (and committed and published it)."""
        if not self._done.wait(timeout):
            return Outcome(False, error={"code": "timeout", "message": "the companion did not answer in time"})
        assert self._outcome is not None  # set before _done
        return self._outcome

    @property
    def done(self) -> bool:
        return self._done.is_set()


@dataclass(frozen=True)
class _Internal:
    """Work for the session thread that is not a game command (subscriptions, inspection)."""

    run: Callable[[], Any]


class Session:
    """Runs a :class:`Table` on its own thread; see the module docstring."""

    def __init__(self, table: Table, *, log: logging.Logger | None = None) -> None:
        self.table = table
        self.log = log or logging.getLogger("clue_companion.session")
        self._queue: queue.SimpleQueue[Ticket] = queue.SimpleQueue()
        self._boxes: list[Mailbox] = []
        self._boxes_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.handled = 0  # commands handled so far (the benchmark reads it)
        table.wake = self._wake  # work done off this thread: publish the views again

    # ---- life -------------------------------------------------------------------------------

    def start(self) -> Session:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="clue-session", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Handle what is queued, then end the thread and wake every subscriber."""
        if self._thread is not None:
            self.submit(Stop()).wait(timeout)
            self._thread.join(timeout)
            self._thread = None
        with self._boxes_lock:
            for box in self._boxes:
                box.close()

    close = stop

    def __enter__(self) -> Session:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- input ------------------------------------------------------------------------------

    def _wake(self) -> None:
        self.submit(Tick())

    def submit(self, command: Command) -> Ticket:
        """Queue a command (from any thread); never blocks."""
        ticket = Ticket(command)
        self._queue.put(ticket)
        return ticket

    def call(self, command: Command, timeout: float | None = 10.0) -> Outcome:
        """Submit and wait for the outcome (a web request's way)."""
        return self.submit(command).wait(timeout)

    def inspect(self, look: Callable[[Table], Any], timeout: float | None = 10.0) -> Any:
        """Run ``look(table)`` on the session thread, between commands, and return its result."""
        ticket = Ticket(_Internal(lambda: look(self.table)))
        self._queue.put(ticket)
        ticket.wait(timeout)
        return getattr(ticket, "result", None)

    # ---- output -----------------------------------------------------------------------------

    def subscribe(self, seat: str | None) -> Mailbox:
        """A mailbox that will always hold ``seat``'s newest view (None: the table's)."""
        box = Mailbox(seat)
        with self._boxes_lock:
            self._boxes.append(box)
        self._queue.put(Ticket(_Internal(lambda: box.put(self.table.view(seat)))))
        return box

    def unsubscribe(self, box: Mailbox) -> None:
        with self._boxes_lock:
            if box in self._boxes:
                self._boxes.remove(box)
        box.close()

    def _publish(self) -> None:
        with self._boxes_lock:
            boxes = list(self._boxes)
        views: dict[str | None, View] = {}
        for box in boxes:
            if box.seat not in views:
                try:
                    views[box.seat] = self.table.view(box.seat)
                except Exception as err:  # a seat no longer at the table: tell it, don't stop the session
                    views[box.seat] = {"stage": "error", "seat": box.seat, "error": str(err)}
        # Every view first, then the mailboxes: woken readers do not slow the views still to make.
        for box in boxes:
            box.put(views[box.seat])

    # ---- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            ticket = self._queue.get()
            command = ticket.command
            if isinstance(command, _Internal):
                setattr(ticket, "result", self._guarded(command.run))
                ticket._finish(Outcome(True))
                continue
            outcome = self._guarded(lambda: self.table.handle(command))
            if not isinstance(outcome, Outcome):
                outcome = Outcome(False, error={"code": "internal", "message": str(outcome)})
            self.handled += 1
            self._publish()
            ticket._finish(outcome)
            if isinstance(command, Stop):
                return

    def _guarded(self, work: Callable[[], Any]) -> Any:
        """Run ``work``; a bug in it is logged and reported, and the session lives on."""
        try:
            return work()
        except Exception as err:
            self.log.exception("session_error", extra={"fields": {"error": repr(err)}})
            return err
