"""The player blueprint: joining a seat by its token, the seat's page, its view and its actions."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, render_template, session

from companion.record.lines import parse_action
from companion.rules.errors import ClueError
from companion.table.commands import Command, Play, StartGame

from .context import context
from .guard import ApiError, client_address, csrf_token, json_body
from .outcomes import answer
from .language import page_locale

blueprint = Blueprint("player", __name__)

ACTION_FIELDS: dict[str, type | tuple[type, ...]] = {
    "type": str, "seat": str, "to": str, "suspect": str, "weapon": str, "room": str, "card": str,
    "target": str, "card_id": str, "dice": list,
}
MAX_DICE = 3


def joined_seat() -> str | None:
    """The seat this browser joined, if the phone still holds it (not revoked, not turned away by the host)."""
    seat, key = session.get("seat"), session.get("seat_key")
    if not isinstance(seat, str) or not context().pairing.valid(seat, key):
        return None
    return seat


def require_seat() -> str:
    seat = joined_seat()
    if seat is None:
        raise ApiError(401, "not_joined", "This phone has not joined a seat: scan your seat's QR code.")
    if seat not in context().seats():
        raise ApiError(401, "not_joined", f"{seat} is not playing in this game: scan your seat's QR code.")
    return seat


@blueprint.get("/j/<token>")
def join(token: str) -> tuple[str, int] | str:
    web = context()
    address = client_address()
    web.join_limit.check(address)
    seat = web.pairing.seat_for(token) if len(token) <= 64 else None
    if seat is None:
        web.join_limit.count(address)
        message = "This join link is not valid any more. Scan your seat's QR code again, or ask the host."
        return render_template("player/join.html", csrf_token=csrf_token(), reason="bad_token", message=message), 404
    session.clear()  # a fresh cookie for a fresh join (and a fresh CSRF token)
    session.permanent = True
    session["seat"] = seat
    session["seat_key"] = web.inspect(lambda table: web.pairing.join(seat))  # saved on the session thread
    # A page, not a redirect: the SameSite=Strict cookie is only sent on a navigation
    # this site starts, and a QR scan's redirect would still count as the camera app's.
    return render_template("player/joined.html", csrf_token=csrf_token(), seat=seat)


@blueprint.get("/seat")
def page() -> tuple[str, int] | str:
    seat = joined_seat()
    if seat is None:
        message = "Scan the QR code on your seat's handheld, or ask the host to show it on the host page."
        return render_template("player/join.html", csrf_token=csrf_token(), reason="not_joined", message=message)
    return render_template("player/seat.html", csrf_token=csrf_token(), seat=seat)


@blueprint.get("/api/seat")
def seat_view() -> Response:
    return jsonify(context().view(require_seat(), page_locale().tag))


@blueprint.post("/api/seat/action")
def action() -> tuple[Response, int]:
    seat = require_seat()
    web, command = context(), _command(seat, json_body(ACTION_FIELDS, ("type",)))
    outcome = web.call(command)
    if outcome.ok and isinstance(command, StartGame):  # the players the tokens were issued to started their game
        web.inspect(lambda table: web.follow_game(table, started=True))
    return answer(outcome)


def _command(seat: str, body: dict[str, object]) -> Command:
    """The body as the seat's command; the seat always comes from the cookie, never from the body."""
    claimed = body.pop("seat", seat)
    if claimed != seat:
        raise ApiError(403, "not_your_seat", f"This phone plays {seat}, not {claimed}.")
    if body.get("type") == "start":
        if len(body) > 1:
            raise ApiError(400, "bad_field", "start takes no fields.")
        return StartGame(seat)
    dice = body.get("dice")
    if isinstance(dice, list) and len(dice) > MAX_DICE:
        raise ApiError(400, "bad_field", f"At most {MAX_DICE} dice.")
    try:
        return Play(seat, parse_action(json.dumps({**body, "seat": seat})))
    except ClueError as err:
        code = "unknown_action" if "unknown action type" in str(err) else "bad_field"
        raise ApiError(400, code, str(err)) from None
