"""A session outcome as an HTTP answer: 200 with the events, or the refusal's status and code."""

from __future__ import annotations

from flask import Response, jsonify

from companion.language import say
from companion.rules.errors import ClueError
from companion.table.table import Outcome

from .language import page_locale, told

# Refusals that are about the request rather than the game's state.
BAD_REQUEST = {"bad_input", "unknown_card", "unknown_seat", "bad_edition", "bad_deal"}


def answer(outcome: Outcome) -> tuple[Response, int]:
    if outcome.ok:
        return jsonify({"ok": True, "events": list(outcome.events)}), 200
    error = outcome.error or {"code": "refused", "message": say(page_locale().language, "The companion refused.")}
    code = error.get("code")
    status = 504 if code == "timeout" else 400 if code in BAD_REQUEST else 500 if code == "internal" else 409
    return jsonify({"ok": False, "error": {"code": code, "message": _said(error, outcome.refusal)}}), status


def _said(error: dict[str, str], refusal: ClueError | None) -> str | None:
    """The refusal's message in the reader's language, unless it may hold file paths or code (log only)."""
    code, message = error.get("code"), error.get("message")
    language = page_locale().language
    if code == "internal":
        return say(language, "Something went wrong inside the companion; it is in its log. Nothing was changed.")
    if code == "store" and not str(message).lower().startswith("there is no game"):
        return say(language, "The game store failed (its log says why): the game was not changed.")
    if refusal is not None:
        return told(refusal)
    return message
