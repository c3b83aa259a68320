"""The host blueprint (PIN-protected): new game, seat pairing, enrolment, resume, end, settings."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import segno
from flask import Blueprint, Response, jsonify, render_template, request, session
from itsdangerous import BadSignature
from werkzeug.http import parse_cookie

from companion.deduction.assistant import MODES as ASSISTANT_MODES
from companion.deduction.assistant import check_mode
from companion.language.boxes import boxes
from companion.language.locales import LOCALES
from companion.rules.edition import load_edition
from companion.rules.errors import BadInput
from companion.rules.spelling import spelled
from companion.rules.user_editions import list_editions
from companion.table.commands import Configure, EndGame, NewGame, Resume, StartGame
from companion.table.enrolment import pieces_of
from companion.table.house import MAX_NAME
from companion.table.pairing import JOIN_PATH
from companion.table.table import DEFAULT_EDITION, Table

from .context import WebContext, context
from .errors import wants_page
from .guard import ApiError, client_address, csrf_token, json_body, pin_problem
from .host_sessions import LINK_PATH
from .language import COOKIE as LOCALE_COOKIE
from .language import page_locale
from .outcomes import answer

blueprint = Blueprint("host", __name__)
log = logging.getLogger("clue_companion.web")
DEALS = ("virtual", "physical")
DICE = ("companion", "physical")
MAX_SEATS = 10
# Each locale in its own words (a host who reads only German finds "Deutsch"): these are never translated.
LOCALE_NAMES = {"en-US": "English (US)", "en-GB": "English (UK) — Cluedo names", "de-DE": "Deutsch (Deutschland)",
                "de-CH": "Deutsch (Schweiz)", "fr-FR": "Français (France)", "fr-CH": "Français (Suisse)",
                "es-ES": "Español (España)", "nb-NO": "Norsk bokmål — norske kortnavn, engelsk tekst"}


def is_host() -> bool:
    """Logged in: the cookie names an open host login (changing the PIN or logging out closes it)."""
    return context().hosts.valid(session.get("host"))


def host_cookie_check(app: Any) -> Callable[[str], bool] | None:
    """For the server (web/serve.py): whether a request's Cookie header names an open host login,
    read before its body arrives (None for an app that is not ours: it has no host logins)."""
    web = getattr(app, "extensions", {}).get("clue")
    if not isinstance(web, WebContext):
        return None
    serializer = app.session_interface.get_signing_serializer(app)
    name, most = app.config["SESSION_COOKIE_NAME"], int(app.permanent_session_lifetime.total_seconds())

    def check(header: str) -> bool:
        value = parse_cookie(header).get(name)
        if not value or serializer is None:
            return False
        try:
            data = serializer.loads(value, max_age=most)
        except BadSignature:  # a forged, damaged or expired cookie (BadTimeSignature, SignatureExpired too)
            return False
        return isinstance(data, dict) and web.hosts.valid(data.get("host"))

    return check


def require_host() -> WebContext:
    if not is_host():
        raise ApiError(401, "host_login", "Log in with the host PIN first.")
    return context()


@blueprint.get("/host")
def page() -> str:
    if not is_host():
        return render_template("host/login.html", csrf_token=csrf_token(), error=None, retry_after=None)
    return render_template("host/index.html", csrf_token=csrf_token())


@blueprint.post("/host/login")
def login() -> Response:
    web, address = context(), client_address()
    web.pin_limit.check(address)
    web.pin_total.check("everyone")
    pin = json_body({"pin": str}, ("pin",))["pin"]
    if not web.pin_matches(pin):
        web.pin_limit.count(address)
        web.pin_total.count("everyone")
        raise ApiError(403, "bad_pin", "That is not the host PIN.")
    web.hosts.revoke(session.get("host"))
    session["host"] = web.hosts.open()
    return jsonify({"ok": True})


@blueprint.get(f"{LINK_PATH}<secret>")
def link_login(secret: str) -> Response | str:
    """A login link from ``clue-companion host-login``: the way in for whoever has a shell on the companion.

    No PIN limit applies (a guessing attack on the PIN does not keep the owner
    out); a wrong, used or expired secret counts against the address's PIN
    tries, like a wrong PIN. A page rather than a redirect, as for a join link:
    the SameSite=Strict cookie only goes with a navigation this site starts.
    """
    web, address = context(), client_address()
    if not web.use_login_link(secret):
        web.pin_limit.count(address)
        raise ApiError(403, "bad_login_link", "This login link does not work: it was used, it is more than 5 minutes "
                       "old, or it is not whole. Run clue-companion host-login again for a new one.")
    web.hosts.revoke(session.get("host"))
    session["host"] = web.hosts.open()
    if wants_page():
        return render_template("host/logged_in.html", csrf_token=csrf_token())
    return jsonify({"ok": True})


@blueprint.post("/host/logout")
def logout() -> Response:
    context().hosts.revoke(session.pop("host", None))
    return jsonify({"ok": True})


@blueprint.get("/api/host")
def host_view() -> Response:
    web = require_host()
    base = web.pairing.base_url or request.host_url.rstrip("/")
    overview = web.inspect(lambda table: _overview(web, table, base))
    overview["board"] = board_status(web, overview["link"], overview.pop("link_reason"))
    # Whether this host browser chose a language of its own; if not, its page follows the table's.
    overview["own_locale"] = bool(request.args.get("lang") or request.cookies.get(LOCALE_COOKIE))
    # The boxes of names the table's locale offers for its edition, labelled in this page's language.
    house = overview["house"]
    overview["names_variant"] = house.get("names_variant")
    overview["boxes"] = [box.as_dict(page_locale().language)
                         for box in boxes(load_edition(overview["edition"] or DEFAULT_EDITION), house["locale"])]
    return jsonify(overview)


def board_status(web: WebContext, link: str, reason: str | None) -> dict[str, Any]:
    """The board link for the host: its state, why it is down and since when, and the board's last log lines.

    They come from the rig's board link (``BoardLink.status()``, safe from any
    thread); without one (an app over a bare session), from what the table was told.
    Only the host sees this: the reason names device paths and users, and says
    which commands fix it; the public table page keeps to "up" or "down".
    """
    status = getattr(getattr(web.rig, "link", None), "status", None)
    if callable(status):
        found: dict[str, Any] = status().as_dict()
        return found
    return {"state": link, "reason": reason, "since": None, "port": None, "firmware": None, "readers": None,
            "failed": [], "log": []}


def _overview(web: WebContext, table: Table, base: str) -> dict[str, Any]:
    """Everything the host page shows, gathered on the session thread (the store lives there)."""
    if table.stage in ("playing", "over"):  # a lobby started from a phone or a handheld: its tokens are its game's
        web.follow_game(table, started=True)
    view = table.view(None)
    edition = view.get("edition")
    seats = []
    for seat in table.seats():
        url = f"{base}{JOIN_PATH}{web.pairing.token(seat)}"
        phones = web.pairing.phones(seat)
        seats.append({"seat": seat, "join_url": url, "joined": bool(phones), "phones": phones,
                      "qr_svg": segno.make(url, error="m").svg_inline(scale=1, omitsize=True, light="#ffffff",
                                                                      border=2)})
    store = table.store
    return {
        "house": table.house.as_dict(), "locales": [{"tag": tag, "name": LOCALE_NAMES.get(tag, tag)} for tag in LOCALES],
        "deck": _cards(edition, table.house.locale, table.house.names_variant), "house_name_most": MAX_NAME,
        "stage": table.stage, "game_id": table.game_id, "edition": edition,
        "phase": view.get("phase"), "turn": view.get("turn"), "problems": view.get("problems", []),
        "ready": view.get("ready"), "settings": dict(table.settings), "link": table.board.link,
        "link_reason": table.board.reason,
        "seats": seats,
        "games": [_summary(game) for game in store.unfinished()] if store is not None else [],
        "enrolment": _enrolment(table, edition or "classic"),
        "editions": [_edition(entry.id, entry.source) for entry in list_editions() if entry.problem is None],
        "store": store is not None,
    }


def _cards(edition_id: str | None, locale: str, variant: str | None) -> dict[str, list[dict[str, str]]] | None:
    """The cards the host may give house names: identity and the spelling of the locale's chosen box, by kind
    (None: no game)."""
    if not edition_id:
        return None
    deck = load_edition(edition_id).deck
    shown = spelled(edition_id, locale, None, variant)  # without house names: the placeholder the name replaces
    return {kind: [{"identity": card, "spelled": shown.get(card, card)} for card in cards]
            for kind, cards in (("suspects", deck.suspects), ("weapons", deck.weapons), ("rooms", deck.rooms))}


def _summary(game: Any) -> dict[str, Any]:
    return {"id": game.id, "edition": game.edition, "seats": list(game.seats), "actions": game.actions,
            "status": game.status, "created": game.created, "updated": game.updated}


def _enrolment(table: Table, edition_id: str) -> dict[str, Any]:
    edition = load_edition(edition_id)
    pieces = pieces_of(edition)
    tags = table.store.tag_map(edition.id) if table.store is not None else table.tags
    missing = [{"kind": piece.kind, "name": piece.name} for piece in pieces if not tags.uids(piece)]
    return {"edition": edition.id, "enrolled": len(pieces) - len(missing), "needed": len(pieces), "missing": missing}


def _edition(name: str, source: str) -> dict[str, Any]:
    """A new-game choice; ``source`` is "bundled", "yours" or "correction" (a user file replacing a bundled one)."""
    edition = load_edition(name)
    return {"id": edition.id, "name": edition.name, "source": source, "min_players": edition.min_players,
            "max_players": edition.max_players, "suspects": list(edition.deck.suspects),
            "dice": edition.dice, "variants": list(edition.variants),
            "bonus_cards": edition.bonus.name if edition.bonus is not None else None}


@blueprint.post("/api/host/new")
def new_game() -> tuple[Response, int]:
    web = require_host()
    body = json_body({"edition": str, "seats": list, "deal": str, "dice": str, "seed": int, "variant": str,
                      "bonus_cards": bool, "assistant": str, "bots": dict, "keep_phones": bool,
                      "speech": bool}, ("edition", "seats"))
    seats = body["seats"]
    if not seats or len(seats) > MAX_SEATS or not all(isinstance(s, str) and 0 < len(s.strip()) <= 64 for s in seats):
        raise ApiError(400, "bad_field", "seats must be a list of 1 to {most} suspect names.", most=MAX_SEATS)
    if len(set(seats)) != len(seats):
        raise ApiError(400, "bad_field", "A suspect can only sit once.")
    deal, dice = body.get("deal") or "virtual", body.get("dice") or "companion"
    if deal not in DEALS or dice not in DICE:
        raise ApiError(400, "bad_field", "deal must be one of {deals}; dice one of {dice}.", deals=", ".join(DEALS),
                       dice=", ".join(DICE))
    assistant = body.get("assistant") or "off"
    try:
        assistant = check_mode(assistant)
    except BadInput:
        raise ApiError(400, "bad_field", "assistant must be one of {modes}.", modes=", ".join(ASSISTANT_MODES)) from None
    bots = tuple((body.get("bots") or {}).items())
    if not all(isinstance(seat, str) and isinstance(level, str) and seat in seats for seat, level in bots):
        raise ApiError(400, "bad_field", "bots must map seated suspects to a level.")
    bonus_cards = body.get("bonus_cards", True)  # False: the bonus deck stays in the box ("original CLUE")
    seed = body.get("seed")
    speech = bool(body.get("speech"))
    if seed is not None and not 0 <= seed < 2 ** 63:
        raise ApiError(400, "bad_field", "seed must be a whole number from 0.")
    if web.rig is not None:  # the rig also lays out the mock board and opens the seats' handhelds
        outcome = web.rig_call(lambda rig: rig.new_game(body["edition"], seats, deal=deal, dice=dice, seed=seed,
                                                        variant=body.get("variant"), bonus_cards=bonus_cards,
                                                        assistant=assistant, bots=bots, speech=speech))
    else:
        outcome = web.call(NewGame(body["edition"], tuple(seats), deal=deal, dice=dice, seed=seed,
                                   variant=body.get("variant"), bonus_cards=bonus_cards, assistant=assistant,
                                   bots=bots, speech=speech))
    web.forget_house()  # a new game sets speech
    if outcome.ok:  # new players: every seat gets a fresh join URL (kept, they follow the lobby into play)
        web.inspect(lambda table: web.new_players(table.seats(), keep=bool(body.get("keep_phones"))))
    return answer(outcome)


@blueprint.post("/api/host/start")
def start() -> tuple[Response, int]:
    web = require_host()
    json_body({})
    outcome = web.call(StartGame())
    if outcome.ok:
        web.inspect(lambda table: web.follow_game(table, started=True))
    return answer(outcome)


@blueprint.post("/api/host/resume")
def resume() -> tuple[Response, int]:
    web = require_host()
    body = json_body({"game_id": int, "keep_phones": bool}, ("game_id",))
    game_id = body["game_id"]
    if not 1 <= game_id < 2**63:  # SQLite's integer range; anything else is no game of ours
        raise ApiError(400, "bad_field", "The field 'game_id' must be a game's number.")
    if not web.inspect(lambda table: table.store is None or table.store.find(game_id) is not None):
        # A wrong number from a client is one log line, not the rig's traceback of a failed replay.
        log.warning("resume_refused: no game %d in the store", game_id)
        raise ApiError(404, "no_game", "There is no game {game_id} to resume.", game_id=game_id)
    if web.rig is not None:
        outcome = web.rig_call(lambda rig: rig.resume(game_id))
    else:
        outcome = web.call(Resume(game_id))
    if outcome.ok:  # another game's phones are turned away, unless the host keeps them
        web.inspect(lambda table: web.follow_game(table, keep_phones=bool(body.get("keep_phones"))))
    return answer(outcome)


@blueprint.post("/api/host/end")
def end() -> tuple[Response, int]:
    web = require_host()
    json_body({})
    return answer(web.call(EndGame()))


@blueprint.post("/api/host/revoke")
def revoke() -> Response:
    web = require_host()
    seat = json_body({"seat": str}, ("seat",))["seat"]
    if seat not in web.seats():
        raise ApiError(409, "unknown_seat", "{seat!r} is not seated at this table.", seat=seat)
    web.inspect(lambda table: web.pairing.revoke(seat))
    return jsonify({"ok": True})


@blueprint.post("/api/host/kick")
def kick() -> Response:
    """Turn one phone away from a seat (it must scan the seat's QR code again); the seat's other phones stay."""
    web = require_host()
    body = json_body({"seat": str, "phone": str}, ("seat", "phone"))
    if not web.inspect(lambda table: web.pairing.kick(body["seat"], body["phone"])):
        raise ApiError(409, "unknown_phone", "No such phone holds {seat!r}.", seat=body["seat"])
    return jsonify({"ok": True})


@blueprint.post("/api/host/settings")
def settings() -> Response:
    web = require_host()
    pin = json_body({"pin": str}).get("pin")
    if pin is not None:
        problem = pin_problem(pin)
        if problem:
            raise ApiError(400, "bad_field", problem)
        web.set_pin(pin)  # every other host browser is logged out
        session["host"] = web.hosts.open()
    return jsonify({"ok": True})


@blueprint.post("/api/host/house")
def house() -> tuple[Response, int]:
    """The table's locale, its box of names (a box's id), its house names for cards (identity -> name) and
    speech, any of them."""
    web = require_host()
    fields = ("locale", "names_variant", "house_names", "speech")
    body = json_body({"locale": str, "names_variant": str, "house_names": dict, "speech": bool})
    if all(body.get(name) is None for name in fields):
        raise ApiError(400, "bad_field", "Send locale, names_variant, house_names or speech.")
    # companion.table.house checks each name (a card of the game's edition, at most MAX_NAME characters), the
    # table the box (one the edition offers the locale: companion.language.boxes)
    outcome = web.call(Configure(locale=body.get("locale"), house_names=body.get("house_names"),
                                 speech=body.get("speech"), names_variant=body.get("names_variant")))
    web.forget_house()
    return answer(outcome)
