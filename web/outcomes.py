"""A session outcome as an HTTP answer: 200 with the events, or the refusal's status and code."""

from __future__ import annotations

from flask import Response, jsonify

from companion.table.table import Outcome

# Refusals that are about the request rather than the game's state.
BAD_REQUEST = {"bad_input", "unknown_card", "unknown_seat", "bad_edition", "bad_deal"}


def answer(outcome: Outcome) -> tuple[Response, int]:
    if outcome.ok:
        return jsonify({"ok": True, "events": list(outcome.events)}), 200
    error = outcome.error or {"code": "refused", "message": "The companion refused."}
    code = error.get("code")
    status = 504 if code == "timeout" else 400 if code in BAD_REQUEST else 500 if code == "internal" else 409
    return jsonify({"ok": False, "error": {"code": code, "message": _said(error)}}), status


def _said(error: dict[str, str]) -> str | None:
    """The refusal's message, unless it may hold file paths or code: those go to the log only."""
    code, message = error.get("code"), error.get("message")
    if code == "internal":
        return "Something went wrong inside the companion; it is in its log. Nothing was changed."
    if code == "store" and not str(message).lower().startswith("there is no game"):
        return "The game store failed (its log says why): the game was not changed."
    return message
