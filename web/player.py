"""The player blueprint: joining a seat by its token, the seat's page, its view and its actions."""

from __future__ import annotations

import json

from babel import Locale as BabelLocale
from flask import Blueprint, Response, jsonify, render_template, request, session

from companion.language import LOCALES, N_, parse_locale
from companion.record.lines import parse_action
from companion.rules.errors import BadInput, ClueError
from companion.table.commands import Command, Play, StartGame

from .context import context
from .guard import ApiError, client_address, csrf_token, json_body
from .outcomes import answer
from .language import COOKIE, COOKIE_AGE, page_locale, told

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
        raise ApiError(401, "not_joined", "{seat} is not playing in this game: scan your seat's QR code.", seat=seat)
    return seat


@blueprint.get("/j/<token>")
def join(token: str) -> tuple[str, int] | str:
    web = context()
    address = client_address()
    web.join_limit.check(address)
    seat = web.pairing.seat_for(token) if len(token) <= 64 else None
    if seat is None:
        web.join_limit.count(address)
        message = N_("This join link is not valid any more. Scan your seat's QR code again, or ask the host.")
        return render_template("player/join.html", csrf_token=csrf_token(), reason="bad_token", message=message), 404
    session.clear()  # a fresh cookie for a fresh join (and a fresh CSRF token)
    session.permanent = True
    session["seat"] = seat
    session["seat_key"] = web.inspect(lambda table: web.pairing.join(seat))  # saved on the session thread
    # A page, not a redirect: the SameSite=Strict cookie is only sent on a navigation
    # this site starts, and a QR scan's redirect would still count as the camera app's.
    return render_template("player/joined.html", csrf_token=csrf_token(), seat=seat, seat_name=_spelled(seat))


@blueprint.get("/seat")
def page() -> tuple[str, int] | str:
    seat = joined_seat()
    if seat is None:
        message = N_("Scan the QR code on your seat's handheld, or ask the host to show it on the host page.")
        return render_template("player/join.html", csrf_token=csrf_token(), reason="not_joined", message=message)
    return render_template("player/seat.html", csrf_token=csrf_token(), seat=seat, seat_name=_spelled(seat),
                           language_names=_own_names(), chosen=_chosen())


def _spelled(seat: str) -> str:
    """The seat (a suspect) as this page's locale writes it."""
    try:
        return context().names(page_locale().tag).get(seat, seat)
    except BadInput:  # no answer from the session: the identity rather than no page
        return seat


def _own_names() -> list[tuple[str, str]]:
    """Every locale by its own name ("Deutsch (Deutschland)"), as a language chooser lists them."""
    named = []
    for tag in LOCALES:
        name = BabelLocale.parse(tag, sep="-").display_name or tag
        named.append((tag, name[:1].upper() + name[1:]))
    return named


def _chosen() -> str | None:
    """This phone's own language choice (its address, else its cookie), None when it follows the table."""
    for text in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if text:
            try:
                return parse_locale(text).tag
            except ClueError:
                pass
    return None


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


@blueprint.post("/api/seat/language")
def language() -> Response:
    """This phone's own language (kept in the ``clue_locale`` cookie), or none: the table's again."""
    wanted = json_body({"locale": str}).get("locale")
    tag = None
    if wanted is not None:
        if wanted not in LOCALES:  # only the known tags: nothing else is ever written into the cookie
            raise ApiError(400, "bad_field", "Unknown language {tag}; known: {known}.", tag=repr(wanted[:20]),
                           known=", ".join(LOCALES))
        tag = parse_locale(wanted).tag
    response = jsonify({"ok": True, "locale": tag})
    if tag is None:
        response.delete_cookie(COOKIE, samesite="Strict", httponly=True)
    else:
        response.set_cookie(COOKIE, tag, max_age=COOKIE_AGE, samesite="Strict", httponly=True)
    return response


def _command(seat: str, body: dict[str, object]) -> Command:
    """The body as the seat's command; the seat always comes from the cookie, never from the body."""
    claimed = body.pop("seat", seat)
    if claimed != seat:
        raise ApiError(403, "not_your_seat", "This phone plays {seat}, not {claimed}.", seat=seat, claimed=claimed)
    if body.get("type") == "start":
        if len(body) > 1:
            raise ApiError(400, "bad_field", "start takes no fields.")
        return StartGame(seat)
    dice = body.get("dice")
    if isinstance(dice, list) and len(dice) > MAX_DICE:
        raise ApiError(400, "bad_field", "At most {most} dice.", most=MAX_DICE)
    try:
        return Play(seat, parse_action(json.dumps({**body, "seat": seat})))
    except ClueError as err:
        code = "unknown_action" if "unknown action type" in str(err) else "bad_field"
        raise ApiError(400, code, told(err)) from None
