"""Shared pieces for the tests that run the real BoardLink against a VirtualBoard over a pty."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from hardware.board_core import BoardTiming
from hardware.link_core import LinkTiming
from hardware.link_events import LinkEvent, TagPlaced, TagRemoved

# Ten times faster than the real thing, so a test waits tenths of seconds, not seconds.
FAST_LINK = LinkTiming(hello_retry=0.1, heartbeat=0.1, timeout=0.4, settle=0.03, backoff_min=0.01, backoff_max=0.05)
FAST_BOARD = BoardTiming(hello_retry=0.1, heartbeat=0.1, host_timeout=0.4, debounce=0.015)


class Events:
    """A queue of link events with waiting helpers; keeps everything it has seen."""

    def __init__(self) -> None:
        self.queue: queue.Queue[LinkEvent] = queue.Queue()
        self.seen: list[LinkEvent] = []

    def wait_for(self, match: Callable[[LinkEvent], bool], timeout: float = 5.0) -> LinkEvent:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching event within {timeout} s; saw {self.seen[-10:]}")
            try:
                event = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(event)
            if match(event):
                return event

    def wait(self, kind: type, timeout: float = 5.0) -> LinkEvent:
        return self.wait_for(lambda e: isinstance(e, kind), timeout)

    def drain(self, quiet: float = 0.2) -> list[LinkEvent]:
        """Everything that arrives until nothing has for ``quiet`` seconds."""
        got = []
        while True:
            try:
                event = self.queue.get(timeout=quiet)
            except queue.Empty:
                return got
            self.seen.append(event)
            got.append(event)


def tag_history(events: list[LinkEvent]) -> dict[tuple[int, str], list[str]]:
    """For each (reader, uid): the placed/removed events in order."""
    history: dict[tuple[int, str], list[str]] = {}
    for event in events:
        if isinstance(event, (TagPlaced, TagRemoved)):
            history.setdefault((event.reader, event.uid), []).append(type(event).__name__)
    return history
