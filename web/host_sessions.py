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

A login link is the way in that does not need the PIN: ``clue-companion
host-login`` (a shell on the companion's machine) stores a new one with
:func:`issue_link` and prints ``/host/login/<secret>``; the page lets in the
first browser that opens it within :data:`LINK_SECONDS` (:func:`use_link`).
The store keeps only the secret's SHA-256 and its expiry, and one link at a
time: a new one replaces the last.

>>> from companion.table.store import Store
>>> with Store(":memory:") as store:
...     secret = issue_link(store, clock=lambda: 1000.0)
...     use_link(store, "made-up", clock=lambda: 1001.0), use_link(store, secret, clock=lambda: 1001.0)
...     use_link(store, secret, clock=lambda: 1002.0)  # single use
(False, True)
False
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

IDLE_SECONDS = 12 * 3600.0  # a game night; the host logs in again the next day
MOST = 16  # host browsers logged in at once; the oldest login goes first
LINK_SETTING = "host_login_link"  # the store setting: {"sha256": hex, "expires": Unix time}
LINK_SECONDS = 300  # a login link works for five minutes
LINK_PATH = "/host/login/"
LINK_MOST = 64  # characters of a secret worth hashing (token_urlsafe(32) gives 43)


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


class Settings(Protocol):
    """What a login link needs of the store (:class:`companion.table.store.Store`)."""

    def setting(self, key: str, default: str | None = None) -> str | None: ...

    def set_setting(self, key: str, value: str) -> None: ...


def issue_link(store: Settings, clock: Callable[[], float] = time.time) -> str:
    """A new login link's secret (256 random bits), stored as its hash with its expiry; the last link stops working.

    The clock is the wall clock: another process (the command) writes what the companion reads.
    """
    secret = secrets.token_urlsafe(32)
    store.set_setting(LINK_SETTING, json.dumps({"sha256": _digest(secret), "expires": clock() + LINK_SECONDS}))
    return secret


def use_link(store: Settings, secret: str, clock: Callable[[], float] = time.time) -> bool:
    """True, once, for the stored link's secret within its time; the link is used up either way once matched.

    Call it on the thread that owns the store (the session thread): two requests
    with the same secret are then answered one after the other, and only the first gets in.
    """
    if not secret or len(secret) > LINK_MOST or not secret.isascii():
        return False
    try:
        stored = json.loads(store.setting(LINK_SETTING) or "{}")
        digest, expires = str(stored["sha256"]), float(stored["expires"])
    except (ValueError, KeyError, TypeError):  # none issued, used up, or not ours
        return False
    if not secrets.compare_digest(digest, _digest(secret)):
        return False
    store.set_setting(LINK_SETTING, "")  # single use: used up now, even if it came too late
    return clock() <= expires


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()
