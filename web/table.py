"""The table blueprint: the public page for the shared screen, its view, and the board drawing (with its places in words)."""

from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from companion.language import parse_locale
from companion.rules.edition import Edition, load_edition
from companion.rules.spelling import spelled
from companion.rules.whereabouts import Parts, every_place, every_place_parts
from companion.table.wording import Wording, Words

from .board_data import board_data, editions
from .context import context
from .guard import ApiError, csrf_token
from .language import page_locale
from .reach_file import REACH_FILE, hotspot_panel

blueprint = Blueprint("table", __name__)


@blueprint.get("/")
def page() -> str:
    # On the Pi's own hotspot the shared screen also shows how to join it (the image's reach file).
    hotspot = hotspot_panel(current_app.config.get("REACH_FILE", REACH_FILE))
    return render_template("table/index.html", csrf_token=csrf_token(), hotspot=hotspot)


@blueprint.get("/api/table")
def public_view() -> Response:
    return jsonify(context().view(None, page_locale().tag))


@blueprint.get("/api/board")
def board() -> Response:
    wanted = request.args.get("edition")
    if wanted is None:
        wanted = context().inspect(_current_edition) or "classic"
    if wanted not in editions():
        raise ApiError(404, "not_found", "There is no edition {edition!r}; editions: {editions}.",
                       edition=wanted[:40], editions=", ".join(editions()))
    # "words": each square and room as a person reads it ("in the corridor by the Lounge door"), in the reader's
    # language, the cards written the reader's way.
    setting = context().house()
    house = tuple(sorted(setting.house_names.items()))
    locale = page_locale().tag
    variant = setting.names_variant  # the table's box of names ("1990s"); a locale without it keeps its own
    return jsonify({**board_data(wanted, locale, house, variant),
                    "words": _words(load_edition(wanted), locale, house, variant)})


@lru_cache(maxsize=32)  # a few locales and editions: worked out once, not on every page load (or every flood)
def _words(edition: Edition, locale: str, house: tuple[tuple[str, str], ...], variant: str | None) -> dict[str, str]:
    board = edition.require_board()
    names = spelled(edition.id, locale, dict(house), variant)
    language = parse_locale(locale).language
    if language == "en":  # English says "the Lounge": its own sentences, not the templates
        return every_place(board, lambda name: names.get(name, name))
    wording = Wording(language, names)
    return {place: wording.say(_as_words(parts)) for place, parts in every_place_parts(board).items()}


def _as_words(parts: Parts) -> Words:
    template, args = parts
    return Words(template, {key: _as_words(value) if isinstance(value, tuple) else value for key, value in args.items()})


def _current_edition(table: object) -> str | None:
    view_edition = getattr(table, "state", None)
    if view_edition is not None:
        return str(view_edition.edition.id)
    lobby = getattr(table, "lobby", None)
    return str(lobby.edition.id) if lobby is not None else None
