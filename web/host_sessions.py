"""Host logins held on the server: the cookie carries a random id, nothing derived from the PIN.

A signed cookie is readable by whoever holds it, so it must carry no secret:
an id names a login kept here, logging out or changing the PIN revokes it at
once (a copied cookie stops working), and a restart logs every host out.

>>> hosts = HostSessions(clock=lambda: 0.0)
>>> login = hosts.open()
>>> hosts.valid(login), hosts.valid("made-up")
(True, False)
>>> hosts.revoke(login); hosts.valid(login)
False
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

IDLE_SECONDS = 12 * 3600.0  # a game night; the host logs in again the next day
MOST = 16  # host browsers logged in at once; the oldest login goes first


class HostSessions:
    """Open host logins by id, each with the time it was last used; bounded in number."""

    def __init__(self, idle: float = IDLE_SECONDS, most: int = MOST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._idle = idle
        self._most = most
        self._clock = clock
        self._used: OrderedDict[str, float] = OrderedDict()  # id -> last use, least recent first
        self._lock = threading.Lock()

    def open(self) -> str:
        """A new login's id (256 random bits), for the cookie."""
        login = secrets.token_urlsafe(32)
        with self._lock:
            self._used[login] = self._clock()
            while len(self._used) > self._most:
                self._used.popitem(last=False)
        return login

    def valid(self, login: object) -> bool:
        """True for an open login that has not been idle too long (and counts as a use)."""
        if not isinstance(login, str):
            return False
        now = self._clock()
        with self._lock:
            used = self._used.get(login)
            if used is None or now - used > self._idle:
                self._used.pop(login, None)
                return False
            self._used[login] = now
            self._used.move_to_end(login)
            return True

    def revoke(self, login: object) -> None:
        with self._lock:
            self._used.pop(str(login), None)

    def revoke_all(self) -> None:
        """Every host browser logged out (the PIN changed)."""
        with self._lock:
            self._used.clear()
