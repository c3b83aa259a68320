"""Pairing: each seat's secret join token, behind its QR code.

A phone joins a seat by opening the seat's join URL (``BASE/j/TOKEN``). The
token is 128 random bits. Each phone that joins gets a key of its own (kept in
its cookie; only a hash of it is kept here), so the host sees how many phones
hold a seat and can turn one away; revoking a seat (a new token) turns every
phone joined with the old one away. Tokens belong to a game (``game``): a new
game, or the resumption of another, issues new ones. Tokens and phones live in
memory and, through ``save``, in the store, so phones stay joined when the
companion restarts.

>>> pairing = Pairing("http://192.168.1.20:8000")
>>> url = pairing.join_url("Mrs. White")
>>> len(url) <= 53, pairing.seat_for(url.rsplit("/", 1)[1])
(True, 'Mrs. White')
>>> key = pairing.join("Mrs. White")
>>> pairing.valid("Mrs. White", key), len(pairing.phones("Mrs. White"))
(True, 1)
>>> _ = pairing.revoke("Mrs. White")
>>> pairing.valid("Mrs. White", key), pairing.phones("Mrs. White")
(False, [])
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

TOKEN_BYTES = 16  # 128 bits: secrets.token_urlsafe gives 22 characters
JOIN_PATH = "/j/"
SETTING = "join_tokens"  # the store setting that keeps them
LOBBY = 0  # ``Pairing.game`` for tokens issued to a game not yet started (stored games count from 1)
PHONES_PER_SEAT = 3  # a joined phone past these turns the seat's oldest away (as web/streams.py's streams)


class Pairing:
    """Seat -> join token and joined phones; thread-safe (web threads read, the host's requests change)."""

    def __init__(self, base_url: str | None = None, tokens: Mapping[str, str] | None = None,
                 save: Callable[[str], None] | None = None, game: int | None = None,
                 phones: Mapping[str, Mapping[str, float]] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.base_url = (base_url or "").rstrip("/")
        self._tokens = dict(tokens or {})
        self._phones = {seat: dict(keys) for seat, keys in (phones or {}).items()}  # seat -> key hash -> joined
        self.game = game  # the stored game the tokens belong to; LOBBY: one not yet started; None: not known
        self._save = save
        self._clock = clock
        self._lock = threading.Lock()

    @classmethod
    def from_setting(cls, text: str | None, base_url: str | None = None,
                     save: Callable[[str], None] | None = None) -> Pairing:
        """Tokens as :meth:`dump` wrote them (a damaged setting starts afresh: phones re-scan)."""
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        tokens = _strings(data.get("tokens") if "tokens" in data else data)  # before phones: seat -> token
        game = data.get("game") if isinstance(data.get("game"), int) else None
        phones = {seat: {key: float(at) for key, at in keys.items() if isinstance(at, (int, float))}
                  for seat, keys in (data.get("phones") or {}).items() if seat in tokens and isinstance(keys, dict)} \
            if isinstance(data.get("phones"), dict) else {}
        return cls(base_url, tokens, save, game, phones)

    def dump(self) -> str:
        with self._lock:
            return json.dumps({"game": self.game, "tokens": self._tokens, "phones": self._phones}, sort_keys=True)

    def token(self, seat: str) -> str:
        """The seat's token, made on first use."""
        with self._lock:
            token = self._tokens.get(seat)
            if token is None:
                token = self._tokens[seat] = secrets.token_urlsafe(TOKEN_BYTES)
                changed = True
            else:
                changed = False
        if changed:
            self._persist()
        return token

    def join_url(self, seat: str) -> str | None:
        """``BASE/j/TOKEN``, or None while the page's address is not known."""
        if not self.base_url:
            return None
        return f"{self.base_url}{JOIN_PATH}{self.token(seat)}"

    def seat_for(self, token: str) -> str | None:
        """The seat a token joins, or None. Compares every token in constant time."""
        found = None
        with self._lock:
            for seat, known in self._tokens.items():
                if hmac.compare_digest(known.encode(), token.encode()):
                    found = seat
        return found

    def join(self, seat: str) -> str:
        """A new phone joins ``seat``: its key, for its cookie (only the key's hash is kept)."""
        key = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            phones = self._phones.setdefault(seat, {})
            phones[_hash(key)] = self._clock()
            while len(phones) > PHONES_PER_SEAT:
                del phones[min(phones, key=phones.__getitem__)]
        self._persist()
        return key

    def valid(self, seat: str, key: object) -> bool:
        """Whether a cookie's phone key is one that joined ``seat`` with its current token."""
        if not isinstance(key, str):
            return False
        with self._lock:
            known = self._phones.get(seat, {})
            wanted = _hash(key)
            return any(hmac.compare_digest(wanted, held) for held in known)

    def phones(self, seat: str) -> list[dict[str, Any]]:
        """The phones holding ``seat``, oldest first: a short id (to kick it by) and when it joined."""
        with self._lock:
            held = sorted(self._phones.get(seat, {}).items(), key=lambda item: item[1])
        return [{"phone": key_hash[:8], "joined": at} for key_hash, at in held]

    def kick(self, seat: str, phone: str) -> bool:
        """Turn one phone away from ``seat`` (by its short id); False if no such phone holds it."""
        with self._lock:
            phones = self._phones.get(seat, {})
            found = [key_hash for key_hash in phones if key_hash[:8] == phone]
            for key_hash in found:
                del phones[key_hash]
        if found:
            self._persist()
        return bool(found)

    def revoke(self, seat: str) -> str:
        """Give the seat a new token (its old URL and the phones joined with it stop working)."""
        with self._lock:
            token = self._tokens[seat] = secrets.token_urlsafe(TOKEN_BYTES)
            self._phones.pop(seat, None)
        self._persist()
        return token

    def reset(self, seats: Iterable[str] = (), game: int | None = LOBBY) -> None:
        """Forget every token and phone (a new game, new players), then make fresh tokens for ``seats``."""
        with self._lock:
            self._tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in seats}
            self._phones = {}
            self.game = game
        self._persist()

    def open_lobby(self, seats: Iterable[str], keep: bool = False) -> None:
        """A new game's lobby: fresh tokens for ``seats``, or, kept, the old ones follow it into play."""
        if keep:
            self.bind(LOBBY)
        else:
            self.reset(seats)

    def follow(self, game: int | None, seats: Iterable[str], *, started: bool = False, keep: bool = False) -> None:
        """The tokens belong to the table's ``game`` now: another game's phones are turned away.

        The game the tokens were issued for keeps its phones (its lobby just
        ``started``, the companion restarted, it was resumed); so does any game
        if the host ``keep``s them, or tokens stored before games owned them.
        """
        if game is None:
            return
        if keep or self.game is None or (started and self.game == LOBBY):
            self.bind(game)
        elif self.game != game:
            self.reset(seats, game)

    def bind(self, game: int | None) -> None:
        """The tokens belong to ``game`` now (the game the players they were issued to started)."""
        with self._lock:
            changed, self.game = self.game != game, game
        if changed:
            self._persist()

    def _persist(self) -> None:
        if self._save is not None:
            self._save(self.dump())


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _strings(data: object) -> dict[str, str]:
    """The seat -> token pairs of a stored setting (anything else in it is dropped)."""
    if not isinstance(data, dict):
        return {}
    return {seat: token for seat, token in data.items() if isinstance(seat, str) and isinstance(token, str)}
