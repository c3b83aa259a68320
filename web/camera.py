"""The host page's camera panel: the live frame with the board's outline and labels, and what to do about it.

Routes (host login only, like every ``/api/host/`` route; 404 when the table has no camera):

- ``GET /api/host/camera``: ``{"status": {"state", "name", "reason", "since", "fps"}, "board_found",
  "advice": [sentence...], "unseen": [piece...]}``, sentences in the page's language;
- ``GET /api/host/camera/frame``: the newest frame as a JPEG, downscaled, drawn over.

The frame may show a player's hand of cards, so it goes only to a host login: never to the table
screen or a phone, never into a file or the store (the rig keeps the newest one in memory), and it is
bounded: the rig draws and encodes at most two a second however often it is asked, each at most
960 px wide, and an address may ask ``FRAME_LIMIT`` times in ``FRAME_WINDOW`` seconds.
The rig's camera (``companion.cli.camera_table.CameraTable``) is reached duck-typed, as the board
link's status is (web imports no hardware).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify

from companion.language import N_, say

from .context import WebContext
from .guard import ApiError, RateLimiter, client_address
from .host import require_host
from .language import page_locale

blueprint = Blueprint("camera", __name__)
FRAME_LIMIT, FRAME_WINDOW = 40, 10.0  # the page asks once a second; a few tabs are fine, a flood is not
CORNERS = (N_("top left"), N_("top right"), N_("bottom right"), N_("bottom left"))
WAYS = {"up": N_("up"), "down": N_("down"), "left": N_("left"), "right": N_("right")}


@blueprint.record_once
def _limits(state: Any) -> None:
    app: Flask = state.app
    app.extensions["clue_camera_frames"] = RateLimiter(FRAME_LIMIT, FRAME_WINDOW)


@blueprint.app_context_processor
def _panel_shown() -> dict[str, bool]:
    """Templates' ``camera_panel``: the host page includes the panel (and its script) only at a camera table."""
    web = current_app.extensions.get("clue")
    camera = getattr(getattr(web, "rig", None), "camera", None)
    return {"camera_panel": camera is not None and callable(getattr(camera, "panel", None))}


def _camera(web: WebContext) -> Any:
    camera = getattr(web.rig, "camera", None)
    if camera is None or not callable(getattr(camera, "panel", None)):
        raise ApiError(404, "no_camera", "This table has no camera.")
    return camera


@blueprint.get("/api/host/camera")
def overview() -> Response:
    web = require_host()
    camera = _camera(web)
    panel = camera.panel()
    facts: dict[str, Any] = panel[1] if panel is not None else {"status": camera.status(), "board_found": False,
                                                                "corners": [], "unseen": []}
    status = facts["status"]
    return jsonify({"status": status, "board_found": facts["board_found"], "frame": panel is not None,
                    "advice": _advice(web, facts) if status.get("state") == "up" and panel is not None else [],
                    "unseen": list(facts.get("unseen", []))})


@blueprint.get("/api/host/camera/frame")
def frame() -> Response:
    web = require_host()
    limiter: RateLimiter = current_app.extensions["clue_camera_frames"]
    address = client_address()
    limiter.check(address)
    limiter.count(address)
    panel = _camera(web).panel()
    if panel is None:
        raise ApiError(503, "no_frame", "The camera has no picture yet.")
    response = Response(panel[0], mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store, private"  # a hand of cards may be in it
    return response


def _advice(web: WebContext, facts: dict[str, Any]) -> list[str]:
    """What to do, in the page's language: the board not in view, or each missing corner marker."""
    language = page_locale().language
    if not facts.get("board_found"):
        return [say(language, N_("The board is not in view: at least three of its four corner markers must be seen."))]
    names = web.names(page_locale().tag)
    told = []
    for corner in facts.get("corners", []):
        room = corner.get("room")
        name = names.get(room, room) if room else say(language, CORNERS[int(corner["corner"])])
        if corner["problem"] == "covered":
            told.append(say(language, N_("The {corner} corner marker is covered: clear it."), corner=name))
            continue
        ways = [say(language, WAYS[way]) for way in corner.get("ways", []) if way in WAYS]
        if not ways:
            told.append(say(language, N_("The {corner} corner is out of the picture: raise the camera."), corner=name))
            continue
        way = ways[0] if len(ways) == 1 else say(language, N_("{first} and {second}"), first=ways[0], second=ways[1])
        told.append(say(language, N_("The {corner} corner is out of the picture: move the camera {way}, or raise it."),
                        corner=name, way=way))
    return told
