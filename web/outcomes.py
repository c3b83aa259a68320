"""A session outcome as an HTTP answer: 200 with the events, or the refusal's status and code."""

from __future__ import annotations

from flask import Response, jsonify

from companion.table import Outcome

# Refusals that are about the request rather than the game's state.
BAD_REQUEST = {"bad_input", "unknown_card", "unknown_seat", "bad_edition", "bad_deal"}


def answer(outcome: Outcome) -> tuple[Response, int]:
    if outcome.ok:
        return jsonify({"ok": True, "events": list(outcome.events)}), 200
    error = outcome.error or {"code": "refused", "message": "The companion refused."}
    status = 504 if error.get("code") == "timeout" else 400 if error.get("code") in BAD_REQUEST else 409
    if error.get("code") == "internal":
        status = 500
    return jsonify({"ok": False, "error": {"code": error.get("code"), "message": error.get("message")}}), status
