"""What every request handler reaches through the app: the session, the pairing, the host PIN, limits.

One :class:`WebContext` per app, kept in ``app.extensions["clue"]``; handlers
get it with :func:`context`. The game store belongs to the session thread
(SQLite, one thread at a time), so anything that touches it runs there, through
:meth:`WebContext.inspect`.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from flask import current_app

from companion.record.narrate import narrator
from companion.rules.errors import BadInput
from companion.rules.spelling import spelled
from companion.table.house import House
from companion.rules.errors import ClueError
from companion.table.commands import Command
from companion.table.fanout import Mailbox
from companion.table.pairing import SETTING as TOKENS_SETTING
from companion.table.pairing import Pairing
from companion.table.session import Session
from companion.table.table import Outcome, Table

from .deltas import Messages
from .guard import ApiError, RateLimiter, pin_problem
from .host_sessions import HostSessions, use_link
from .streams import StreamGate

HOUSE_FRESH = 1.0  # seconds a table locale is trusted before asking the session again
PIN_SETTING = "host_pin"
SECRET_SETTING = "web_secret_key"
View = dict[str, Any]


class WebContext:
    """The app's link to the companion; see the module docstring."""

    def __init__(self, session: Session, config: Mapping[str, Any]) -> None:
        self.session = session
        self.timeout = float(config.get("SESSION_TIMEOUT", 10.0))
        self.keepalive = float(config.get("KEEPALIVE", 15.0))
        # The table's rig (companion.cli.mock_table.MockTable): it opens games with their handhelds and,
        # on mock hardware, lays out the virtual board. SIM: the rig is mock, /sim may drive it.
        self.rig: Any = config.get("RIG")
        self.sim: bool = bool(config.get("SIM")) and self.rig is not None
        self._rig_lock = threading.Lock()
        self.base_url: str | None = config.get("BASE_URL")
        self.pairing: Pairing = config.get("PAIRING") or self._stored_pairing()
        self.join_limit = RateLimiter(*config.get("JOIN_LIMIT", (10, 60.0)))
        self.pin_limit = RateLimiter(*config.get("PIN_LIMIT", (5, 60.0)))  # per address
        # ...and for everyone together: many addresses (a phone can take a new one at will) get no more.
        self.pin_total = RateLimiter(*config.get("PIN_LIMIT_TOTAL", (20, 60.0)))
        self.hosts = HostSessions()
        self._pin: str = self._host_pin(config.get("HOST_PIN"))
        # Per locale: each view prepared once, each delta made once for all the streams in that locale.
        self._messages: dict[str, Messages] = {}
        self._lock = threading.Lock()  # guards the per-locale messages and the remembered house
        self._house: tuple[float, House, str | None] | None = None  # when asked, the answer, the edition
        self.streams = StreamGate(config.get("STREAM_LIMITS"))  # the open SSE streams, within their limits

    # ---- streams -------------------------------------------------------------------------------

    def open_stream(self, seat: str | None, address: str = "") -> Mailbox:
        """A mailbox for a new stream of ``seat`` (None: the table) from ``address``; 503 past the limits."""
        return self.streams.admit(seat, address, lambda: self.session.subscribe(seat))

    def close_stream(self, box: Mailbox) -> None:
        self.streams.remove(box)
        self.session.unsubscribe(box)

    def close_streams(self) -> None:
        """End every open stream now (the server is stopping): no thread waits out a keepalive."""
        self.streams.close_all()

    # ---- the session ---------------------------------------------------------------------------

    def inspect(self, look: Callable[[Table], Any]) -> Any:
        """Run ``look(table)`` on the session thread; a failure there is a 504/500-free error."""
        result = self.session.inspect(look, timeout=self.timeout)
        if isinstance(result, Exception):
            raise result
        return result

    def call(self, command: Command) -> Outcome:
        return self.session.call(command, timeout=self.timeout)

    def view(self, seat: str | None, locale: str = "en-US") -> View:
        """The newest view for ``seat`` (None: the table), taken on the session thread, as ``locale`` reads it."""
        view = self.inspect(lambda table: table.view(seat))
        if view is None:
            raise ApiError(504, "timeout", "The companion did not answer in time. Try again.")
        return with_log(view, locale)

    def view_message(self, last: View | None, view: View, locale: str = "en-US") -> str:
        """The SSE message for ``view`` on a stream that sent ``last`` before (None: the whole view)."""
        with self._lock:
            messages = self._messages.get(locale)
            if messages is None:  # locale is a checked tag (web.language): a handful at most
                messages = self._messages[locale] = Messages(lambda view: with_log(view, locale))
        return messages.message(last, view)

    def house(self) -> House:
        """The table's locale, house names and speech choice (asked of the session at most once a second:
        every answer, a refusal included, speaks the table's language, and refusals must stay cheap)."""
        return self._house_and_edition()[0]

    def names(self, locale: str) -> dict[str, str]:
        """How ``locale`` writes the cards of the table's edition (house names first); empty with no edition."""
        house, edition = self._house_and_edition()
        return spelled(edition, locale, house.house_names, house.names_variant) if edition else {}

    def _house_and_edition(self) -> tuple[House, str | None]:
        now = time.monotonic()
        with self._lock:
            if self._house is not None and now - self._house[0] < HOUSE_FRESH:
                return self._house[1], self._house[2]
        found = self.inspect(lambda table: (table.house, _edition_id(table)))
        if not isinstance(found, tuple) or not isinstance(found[0], House):
            raise BadInput("the companion did not answer")
        with self._lock:
            self._house = (now, found[0], found[1])
        return found[0], found[1]

    def forget_house(self) -> None:
        """The host changed the table's choices: the next answer asks the session again."""
        with self._lock:
            self._house = None

    def rig_lock(self) -> threading.Lock:
        """Held while a request drives the rig: it opens handhelds and moves virtual tags, one at a time."""
        return self._rig_lock

    def rig_call(self, work: Callable[[Any], Outcome]) -> Outcome:
        """Drive the rig; its refusals become an outcome like the session's."""
        with self._rig_lock:
            try:
                return work(self.rig)
            except ClueError as err:
                return Outcome(False, error=err.as_dict(), refusal=err)

    # ---- seats ---------------------------------------------------------------------------------

    def new_players(self, seats: tuple[str, ...], keep: bool = False) -> None:
        """A new game: fresh join URLs for every seat unless ``keep`` (call on the session thread: it saves)."""
        self.pairing.open_lobby(seats, keep)

    def follow_game(self, table: Table, *, started: bool = False, keep_phones: bool = False) -> None:
        """The join tokens follow the table's game (:meth:`Pairing.follow`; call on the session thread)."""
        self.pairing.follow(table.game_id, table.seats(), started=started, keep=keep_phones)

    def seats(self) -> tuple[str, ...]:
        seats: tuple[str, ...] = self.inspect(lambda table: table.seats()) or ()
        return seats

    # ---- host PIN and stored settings ----------------------------------------------------------

    def pin_matches(self, pin: str) -> bool:
        return secrets.compare_digest(pin.encode(), self._pin.encode())

    def set_pin(self, pin: str) -> None:
        """A new PIN (checked by the caller); every host browser is logged out."""
        self._pin = pin
        self.hosts.revoke_all()
        self.inspect(lambda table: table.store.set_setting(PIN_SETTING, pin) if table.store else None)

    def _host_pin(self, given: object) -> str:
        """The configured PIN, else the stored one; a stored PIN too short for today's rule is replaced."""
        if given:
            problem = pin_problem(str(given))
            if problem:
                raise ValueError(problem)
            return str(given)
        stored = self._stored(PIN_SETTING, _new_pin)
        if pin_problem(stored):
            stored = _new_pin()
            self.inspect(lambda table: table.store.set_setting(PIN_SETTING, stored) if table.store else None)
        return stored

    @property
    def pin(self) -> str:
        return self._pin

    def use_login_link(self, secret: str) -> bool:
        """True, once, for the secret of the login link ``clue-companion host-login`` stored (web/host_sessions.py).

        On the session thread: it owns the store, and two requests racing with one link are answered in turn.
        """
        return bool(self.inspect(lambda table: table.store is not None and use_link(table.store, secret)))

    def secret_key(self) -> str:
        return self._stored(SECRET_SETTING, lambda: secrets.token_hex(32))

    def _stored(self, key: str, make: Callable[[], str]) -> str:
        """A store setting, made and saved on first use (in memory only without a store)."""
        def look(table: Table) -> str:
            if table.store is None:
                return make()
            value = table.store.setting(key)
            if value is None:
                value = make()
                table.store.set_setting(key, value)
            return value
        value = self.inspect(look)
        return value if isinstance(value, str) else make()

    def _stored_pairing(self) -> Pairing:
        def look(table: Table) -> Pairing:
            store = table.store
            save = (lambda text: store.set_setting(TOKENS_SETTING, text)) if store is not None else None
            return Pairing.from_setting(store.setting(TOKENS_SETTING) if store else None, self.base_url, save)
        pairing = self.inspect(look)
        return pairing if isinstance(pairing, Pairing) else Pairing(self.base_url)


def context() -> WebContext:
    found: WebContext = current_app.extensions["clue"]
    return found


def with_log(view: View, locale: str = "en-US") -> View:
    """The view as ``locale`` reads it: plus ``log``, its record in sentences (from the redacted record),
    and ``names``, how each card of the edition is written (identity -> name), house names first."""
    setting = view.get("house") or {}
    house = setting.get("house_names") or {}
    variant = setting.get("names_variant")  # the table's box of names ("1990s"), None: the locale's own
    edition = view.get("edition")
    names = spelled(edition, locale, house, variant if isinstance(variant, str) else None) \
        if isinstance(edition, str) else {}
    describe = narrator(locale, names)
    record = view.get("record") or []
    return {**view, "log": [describe(event) for event in record], "names": names}


def _edition_id(table: Table) -> str | None:
    edition = table.state.edition if table.state is not None else table.lobby.edition if table.lobby else None
    return edition.id if edition is not None else None


def _new_pin() -> str:
    return f"{secrets.randbelow(10 ** 6):06d}"
