"""Pairing: each seat's secret join token, behind its QR code.

A phone joins a seat by opening the seat's join URL (``BASE/j/TOKEN``). The
token is 128 random bits; the web page keeps only a fingerprint of it in the
phone's cookie, so revoking a seat (a new token) turns every phone joined with
the old one away. Tokens live in memory and, through ``save``, in the store,
so phones stay joined when the companion restarts.

>>> pairing = Pairing("http://192.168.1.20:8000")
>>> url = pairing.join_url("Mrs. White")
>>> len(url) <= 53, pairing.seat_for(url.rsplit("/", 1)[1])
(True, 'Mrs. White')
>>> old = pairing.fingerprint("Mrs. White")
>>> _ = pairing.revoke("Mrs. White")
>>> pairing.valid("Mrs. White", old)
False
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping

TOKEN_BYTES = 16  # 128 bits: secrets.token_urlsafe gives 22 characters
JOIN_PATH = "/j/"
SETTING = "join_tokens"  # the store setting that keeps them


class Pairing:
    """Seat -> join token; thread-safe (web threads read, the host's requests change)."""

    def __init__(self, base_url: str | None = None, tokens: Mapping[str, str] | None = None,
                 save: Callable[[str], None] | None = None) -> None:
        self.base_url = (base_url or "").rstrip("/")
        self._tokens = dict(tokens or {})
        self._save = save
        self._lock = threading.Lock()

    @classmethod
    def from_setting(cls, text: str | None, base_url: str | None = None,
                     save: Callable[[str], None] | None = None) -> Pairing:
        """Tokens as :meth:`dump` wrote them (a damaged setting starts afresh: phones re-scan)."""
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        tokens = {seat: token for seat, token in data.items() if isinstance(seat, str) and isinstance(token, str)} \
            if isinstance(data, dict) else {}
        return cls(base_url, tokens, save)

    def dump(self) -> str:
        with self._lock:
            return json.dumps(self._tokens, sort_keys=True)

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

    def fingerprint(self, seat: str) -> str | None:
        """What a joined phone's cookie keeps: a hash of the token, never the token."""
        with self._lock:
            token = self._tokens.get(seat)
        return None if token is None else hashlib.sha256(token.encode()).hexdigest()[:32]

    def valid(self, seat: str, fingerprint: object) -> bool:
        """Whether a cookie's fingerprint still matches the seat's current token."""
        current = self.fingerprint(seat)
        return isinstance(fingerprint, str) and current is not None and hmac.compare_digest(current, fingerprint)

    def revoke(self, seat: str) -> str:
        """Give the seat a new token (its old URL and the phones joined with it stop working)."""
        with self._lock:
            token = self._tokens[seat] = secrets.token_urlsafe(TOKEN_BYTES)
        self._persist()
        return token

    def reset(self, seats: Iterable[str] = ()) -> None:
        """Forget every token (a new game, new players), then make fresh ones for ``seats``."""
        with self._lock:
            self._tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in seats}
        self._persist()

    def _persist(self) -> None:
        if self._save is not None:
            self._save(self.dump())
