"""Which Server-Sent Events streams may be open: bounded, so a hostile phone cannot take the server.

Every open stream holds one of waitress's worker threads (web/serve.py), so the
number of streams is bounded by who opens them:

- the table's stream (``/events/table``) needs no login, so anyone on the Wi-Fi can
  open it: at most ``table_per_address`` from one address (a browser opens at most
  six connections to a server anyway) and ``table_total`` in all. Past either, the
  stream is refused with 503 ``busy``: the attacker's own streams are the ones turned away.
- a seat's stream (``/events/seat``) needs a joined seat's cookie, so there are at most
  as many owners as seats: at most ``per_seat`` each, the newest wins. Opening one more
  ends the seat's oldest stream (its page's EventSource reconnects by itself if it is
  still there): a phone that left the Wi-Fi without closing its connection must never
  lock its own player out. Seat streams never count against the table's caps, so
  anonymous streams cannot starve a joined seat.

>>> from companion.table.fanout import Mailbox
>>> gate = StreamGate(StreamLimits(table_total=2, table_per_address=1, per_seat=2))
>>> box = gate.admit(None, "10.0.0.5", Mailbox)
>>> gate.admit(None, "10.0.0.5", Mailbox)
Traceback (most recent call last):
...
web.guard.ApiError: Too many table pages are open from this device. Close one and reload.
>>> first = gate.admit("Mrs. White", "10.0.0.7", Mailbox)
>>> _ = gate.admit("Mrs. White", "10.0.0.7", Mailbox); _ = gate.admit("Mrs. White", "10.0.0.8", Mailbox)
>>> first.closed  # the seat's oldest stream made room for its newest
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from companion.table.fanout import Mailbox

from .guard import ApiError

RETRY_SECONDS = 5  # Retry-After on a refused stream


@dataclass(frozen=True)
class StreamLimits:
    """How many streams may be open (see the module docstring); ``poll``: seconds between checks
    that a stream's client is still connected (waitress tells at once, but only when asked)."""

    table_total: int = 12
    table_per_address: int = 6
    per_seat: int = 3  # a phone, a tablet, and one left behind by a phone that dropped off the Wi-Fi
    poll: float = 0.5

    def most(self, seats: int) -> int:
        """The most streams that can be open at once at a table of ``seats`` seats."""
        return self.table_total + seats * self.per_seat


@dataclass(frozen=True, eq=False)
class _Open:
    box: Mailbox
    seat: str | None
    address: str


class StreamGate:
    """The open streams' mailboxes, oldest first; admits a new one within the limits."""

    def __init__(self, limits: StreamLimits | None = None) -> None:
        self.limits = limits or StreamLimits()
        self._open: list[_Open] = []
        self._lock = threading.Lock()
        self._closing = False

    def admit(self, seat: str | None, address: str, subscribe: Callable[[], Mailbox]) -> Mailbox:
        """A mailbox from ``subscribe()`` for a new stream, or 503 ``busy`` (only a table stream)."""
        with self._lock:
            if seat is None:
                self._check_table(address)
            box = subscribe()
            ended = self._oldest_of(seat) if seat is not None else []
            self._open.append(_Open(box, seat, address))
            if self._closing:
                ended.append(box)
        for old in ended:
            old.close()  # its stream ends at once; the page's EventSource reconnects if it is still there
        return box

    def remove(self, box: Mailbox) -> None:
        with self._lock:
            self._open = [item for item in self._open if item.box is not box]

    def close_all(self) -> None:
        """End every open stream now (the server is stopping): no thread waits out a keepalive."""
        with self._lock:
            self._closing = True
            boxes = [item.box for item in self._open]
        for box in boxes:
            box.close()

    def count(self, seat: str | None = None, address: str | None = None) -> int:
        """Open streams of ``seat`` (None: the table's), from ``address`` if given."""
        with self._lock:
            return sum(1 for item in self._open if item.seat == seat and address in (None, item.address))

    def _check_table(self, address: str) -> None:
        table = [item for item in self._open if item.seat is None]
        if sum(1 for item in table if item.address == address) >= self.limits.table_per_address:
            raise ApiError(503, "busy", "Too many table pages are open from this device. Close one and reload.",
                           RETRY_SECONDS)
        if len(table) >= self.limits.table_total:
            raise ApiError(503, "busy", "Too many table pages are open at this table. Close one and reload.",
                           RETRY_SECONDS)

    def _oldest_of(self, seat: str) -> list[Mailbox]:
        """The seat's oldest streams past its limit, taken out (the caller closes their mailboxes)."""
        mine = [item for item in self._open if item.seat == seat]
        extra = mine[:max(0, len(mine) - self.limits.per_seat + 1)]
        self._open = [item for item in self._open if item not in extra]
        return [item.box for item in extra]
