"""The page's defences: typed JSON errors, Origin and CSRF checks, rate limits, strict bodies, security headers.

Every refusal is an :class:`ApiError`: a 4xx status and ``{"ok": false,
"error": {"code", "message"}}``. Bad input never reaches a 500 and never shows
a traceback.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, jsonify, request, session
from werkzeug.exceptions import HTTPException

from companion.language import N_, say

MAX_BODY = 16 * 1024
MAX_TEXT = 64
CSRF_HEADER = "X-CSRF-Token"
CONTENT_SECURITY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
                    "form-action 'self'")


class ApiError(Exception):
    """A refusal with an HTTP status, a stable code and a plain sentence."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None, **args: object) -> None:
        super().__init__(message.format(**args) if args else message)
        self.status = status
        self.code = code
        self.template = message  # translated into the reader's language in response()
        self.params: dict[str, object] = args
        self.message = str(self)
        self.retry_after = retry_after

    def told(self) -> str:
        """The message in this request's language (English outside a request)."""
        from .language import page_locale

        try:
            text = say(page_locale().language, self.template)
            return text.format(**self.params) if self.params else text
        except (RuntimeError, KeyError, IndexError, ValueError):
            return self.message

    def response(self) -> Response:
        response = jsonify({"ok": False, "error": {"code": self.code, "message": self.told()}})
        response.status_code = self.status
        if self.retry_after is not None:
            response.headers["Retry-After"] = str(self.retry_after)
        return response


PIN_DIGITS = (6, 12)  # a million tries at the fewest; the limits below make that years


def pin_problem(pin: str) -> str | None:
    """Why ``pin`` cannot be the host PIN (a sentence), or None if it can.

    >>> pin_problem("1"), pin_problem("123456")
    ('The host PIN must be 6 to 12 digits.', None)
    """
    fewest, most = PIN_DIGITS
    if pin.isascii() and pin.isdigit() and fewest <= len(pin) <= most:
        return None
    return f"The host PIN must be {fewest} to {most} digits."


class RateLimiter:
    """At most ``limit`` counted attempts per key (an address) in any ``window`` seconds."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._attempts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, key: str) -> None:
        """Raise 429 if ``key`` has used up its attempts."""
        with self._lock:
            now = self._clock()
            self._forget(now)
            attempts = self._attempts.get(key)
            if attempts is not None and len(attempts) >= self.limit:
                wait = max(1, int(attempts[0] + self.window - now) + 1)
                raise ApiError(429, "rate_limited", "Too many tries. Wait {wait} seconds and try again.", wait, wait=wait)

    def count(self, key: str) -> None:
        """Count one (failed) attempt for ``key``."""
        with self._lock:
            self._attempts.setdefault(key, deque()).append(self._clock())

    def _forget(self, now: float) -> None:
        for key in list(self._attempts):
            attempts = self._attempts[key]
            while attempts and attempts[0] <= now - self.window:
                attempts.popleft()
            if not attempts:
                del self._attempts[key]


def client_address() -> str:
    return request.remote_addr or "unknown"


# ---- CSRF ----------------------------------------------------------------------------------------

def csrf_token() -> str:
    """This browser's CSRF token (made on first use, kept in its session cookie)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def check_csrf() -> None:
    sent = request.headers.get(CSRF_HEADER, "")
    token = session.get("csrf")
    if not isinstance(token, str) or not secrets.compare_digest(sent.encode(), token.encode()):
        raise ApiError(403, "csrf", "This page is out of date: reload it and try again.")


# ---- Origin -------------------------------------------------------------------------------------

DEFAULT_PORTS = {"http": 80, "https": 443}


def check_origin() -> None:
    """A POST a browser sends from another site's page is refused before anything else looks at it.

    Browsers name the page that sent a POST in ``Origin``; it must be this
    server as the request's ``Host`` names it. Without the header (curl, older
    browsers) the CSRF token alone decides. ``Origin: null`` is what a browser
    sends for its own same-origin POSTs under ``Referrer-Policy: no-referrer``
    (our pages' policy, see the Fetch standard), so it too is left to the token.
    """
    sent = request.headers.get("Origin")
    if sent is None or sent.strip() == "null":
        return
    if _origin(sent) is None or _origin(sent) != _origin(f"{request.scheme}://{request.host}"):
        raise ApiError(403, "bad_origin", "This request came from another site's page, so it was refused.")


def _origin(url: str) -> tuple[str, str, int] | None:
    """``url``'s scheme, host and port (the scheme's default filled in), or None if it is not an origin.

    >>> _origin("http://Clue.local"), _origin("http://[::1]:8000"), _origin("http://x:99999")
    (('http', 'clue.local', 80), ('http', '::1', 8000), None)
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    return parts.scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[parts.scheme]


# ---- bodies --------------------------------------------------------------------------------------

def json_data() -> Any:
    """The request's JSON, or None when it is not JSON (or nests deeper than the parser can go)."""
    try:
        return request.get_json(silent=True)
    except RecursionError:  # nested deeper than the parser can go: not a body we would ever want
        return None


def json_body(allowed: Mapping[str, type | tuple[type, ...]], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, with only ``allowed`` fields of the right types, ``required`` present."""
    if not request.is_json:
        raise ApiError(400, "bad_json", "Send a JSON object (Content-Type: application/json).")
    data = json_data()
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "The body must be a JSON object.")
    for name in data:
        if name not in allowed:
            raise ApiError(400, "bad_field", "Unknown field {name}; expected {expected}.", name=_short(name),
                           expected=", ".join(allowed) or "none")
    for name in required:
        if data.get(name) is None:
            raise ApiError(400, "bad_field", "The field {name!r} is missing.", name=name)
    for name, value in data.items():
        kinds = allowed[name]
        if value is None and name not in required:
            continue
        if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
            raise ApiError(400, "bad_field", "The field {name!r} has the wrong type.", name=name)
        if not isinstance(value, kinds):
            raise ApiError(400, "bad_field", "The field {name!r} has the wrong type.", name=name)
        if isinstance(value, str) and (len(value) > MAX_TEXT or not value.strip()):
            raise ApiError(400, "bad_field", "The field {name!r} must be a non-empty name of at most {most} characters.",
                           name=name, most=MAX_TEXT)
    return data


def _short(value: str) -> str:
    return repr(value if len(value) <= 30 else value[:27] + "...")


# ---- the app's handlers --------------------------------------------------------------------------

def install(app: Flask) -> None:
    """Register the error handlers, the Origin and CSRF checks on POSTs and the security headers."""
    app.config.setdefault("MAX_CONTENT_LENGTH", MAX_BODY)
    app.register_error_handler(ApiError, lambda err: err.response())
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
    app.before_request(_before)
    app.after_request(_headers)


def _before() -> None:
    if request.method == "POST":
        check_origin()  # first: another site's page gets nothing else from us
        check_csrf()


HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large",
              414: "too_large", 431: "too_large"}


def _http_error(err: HTTPException) -> Response:
    status = err.code or 500
    if status >= 500:
        return ApiError(500, "internal", "Something went wrong in the companion.").response()
    code = HTTP_CODES.get(status, f"http_{status}")
    message = {"not_found": N_("There is no such page."),
               "method_not_allowed": N_("That request method is not allowed here."),
               "too_large": N_("The request is too large.")}.get(code, N_("The request was not understood."))
    return ApiError(status, code, message).response()


def _unexpected(err: Exception) -> Response:
    from flask import current_app
    current_app.logger.exception("web_error")
    return ApiError(500, "internal", "Something went wrong in the companion; it has been logged.").response()


def _headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Referrer-Policy", "no-referrer")  # a join URL's token must not leak in a Referer
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY)
    if request.path.startswith(("/api/", "/events/", "/seat", "/host", "/j/", "/sim")):
        headers.setdefault("Cache-Control", "no-store")
    return response
