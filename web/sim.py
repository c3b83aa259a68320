"""The simulator blueprint (only with ``--mock``): drive the virtual board and the emulated handhelds.

It shows every seat's handheld, so like the host page it needs the host PIN.
"""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from companion.language import N_, say
from companion.rules.errors import ClueError

from .context import WebContext, context
from .guard import ApiError, csrf_token, json_body
from .host import is_host
from .language import page_locale, told

blueprint = Blueprint("sim", __name__)
BUTTONS = ("up", "down", "ok", "back")
OLED_SCALE = 3


def require_sim(page: bool = False) -> WebContext:
    web = context()
    if not web.sim:
        raise ApiError(404, "no_sim", "The simulator only runs with clue-companion run --mock.")
    if not page and not is_host():
        raise ApiError(401, "host_login", "Log in with the host PIN first (on /host).")
    return web


@blueprint.get("/sim")
def page() -> str:
    require_sim(page=True)
    if not is_host():
        return render_template("host/login.html", csrf_token=csrf_token(), error=None, retry_after=None)
    return render_template("sim/index.html", csrf_token=csrf_token())


@blueprint.get("/api/sim")
def overview() -> Response:
    web = require_sim()
    rig = web.rig
    seats = list(web.seats())
    # After a game ends its units stay open until the next game; they belong to no seat now.
    handhelds = [{"seat": seat, "text": unit.text(), "frame": unit.frames}
                 for seat, unit in list(rig.handhelds.items()) if seat in seats]
    return jsonify({"seats": seats, "handhelds": handhelds,
                    "pads": {seat: number for number, seat in enumerate(seats, start=1)},
                    "buttons": list(BUTTONS)})


@blueprint.get("/sim/oled/<int:number>.png")
def oled(number: int) -> Response:
    web = require_sim()
    seats = web.seats()
    if not 1 <= number <= len(seats) or seats[number - 1] not in web.rig.handhelds:
        raise ApiError(404, "not_found", "Seat {number} has no handheld.", number=number)
    image = web.rig.handhelds[seats[number - 1]].image()
    image = image.convert("RGB").resize((image.width * OLED_SCALE, image.height * OLED_SCALE), 0)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return Response(buffer.getvalue(), mimetype="image/png")


@blueprint.post("/api/sim/move")
def move() -> Response:
    web = require_sim()
    body = json_body({"piece": str, "place": str}, ("piece", "place"))
    sensed = _drive(web, lambda rig: rig.move(body["piece"], body["place"]))
    if sensed:
        return jsonify({"ok": True, "sensed": True})
    return jsonify({"ok": True, "sensed": False,
                    "message": say(page_locale().language, N_("No reader lies under {place}: the piece was lifted off "
                                                                   "the board's readers, and the companion senses nothing "
                                                                   "there."), place=body["place"])})


@blueprint.post("/api/sim/tap")
def tap() -> Response:
    web = require_sim()
    body = json_body({"card": str, "seat": (str, int)}, ("card", "seat"))
    seat = body["seat"]
    if isinstance(seat, int) and not 0 <= seat <= len(web.seats()):
        raise ApiError(400, "bad_field", "seat must be 0 (the centre) to {most}.", most=len(web.seats()))
    _drive(web, lambda rig: rig.tap(body["card"], seat))
    return jsonify({"ok": True})


@blueprint.post("/api/sim/press")
def press() -> Response:
    web = require_sim()
    body = json_body({"seat": str, "button": str}, ("seat", "button"))
    if body["button"] not in BUTTONS:
        raise ApiError(400, "bad_field", "button must be one of {buttons}.", buttons=", ".join(BUTTONS))
    _drive(web, lambda rig: rig.press(body["seat"], body["button"]))
    return jsonify({"ok": True})


def _drive(web: WebContext, work: Any) -> Any:
    with web.rig_lock():
        try:
            return work(web.rig)
        except ClueError as err:
            raise ApiError(409, err.code, told(err)) from None
