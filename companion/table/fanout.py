"""Fan-out: how views leave the session without ever making it wait.

Each subscriber (a handheld's render worker, a web stream) owns a
:class:`Mailbox` holding one view: the session's ``put`` replaces whatever is
there, so a slow reader skips stale views and gets the newest, never a backlog.

>>> box = Mailbox()
>>> box.put({"actions": 1}); box.put({"actions": 2})
>>> box.get(timeout=0)
{'actions': 2}
>>> box.get(timeout=0) is None
True
"""

from __future__ import annotations

import threading
from typing import Any

View = dict[str, Any]


class Mailbox:
    """A one-slot, newest-wins box for one subscriber's views."""

    def __init__(self, seat: str | None = None) -> None:
        self.seat = seat  # None: the public (table) view
        self._view: View | None = None
        self._version = 0  # views put so far; lets a reader tell it missed some
        self._closed = False
        self._ready = threading.Condition()

    def put(self, view: View) -> None:
        """Leave ``view`` for the reader, replacing an unread one. Never blocks for long."""
        with self._ready:
            self._view = view
            self._version += 1
            self._ready.notify_all()

    def get(self, timeout: float | None = None) -> View | None:
        """The newest unread view, waiting up to ``timeout`` s; None on timeout or close."""
        with self._ready:
            if self._view is None and not self._closed:
                self._ready.wait(timeout)
            view, self._view = self._view, None
            return view

    @property
    def version(self) -> int:
        return self._version

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Wake the reader for good: ``get`` returns None from now on once empty."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
