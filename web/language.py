"""Which locale a page, a stream or an answer speaks, and the pages' translated messages.

A page's locale is, first found: ``?lang=TAG`` (kept in a cookie for the next
visits; a page's scripts send it as ``X-Clue-Locale`` or ``?lang=``), the ``clue_locale`` cookie, then the table's locale (chosen on the
host page). The table page (the shared screen) ignores the cookie: it always
follows the table, unless its own address says ``?lang=``. Templates call
``_("...")``; scripts call ``Clue._("...")`` with the messages of
``/i18n/TAG.js`` (a script, since the pages allow no inline script).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from flask import Blueprint, Flask, Response, g, request

from companion.language import Locale, parse_locale, say
from companion.language.areas import PAGE_AREAS
from companion.language.catalogues import messages
from companion.language.grammar import page_forms
from companion.language.locales import LOCALES
from companion.rules.errors import ClueError
from companion.table.wording import Wording

from .context import context

COOKIE = "clue_locale"
COOKIE_AGE = 400 * 24 * 3600  # seconds: the longest a browser keeps a cookie
blueprint = Blueprint("language", __name__)


def install(app: Flask) -> None:
    """``_`` and the page's locale in every template; the cookie kept after a ``?lang=``."""
    app.register_blueprint(blueprint)
    app.jinja_env.globals["_"] = lambda message, **args: say(page_locale().language, message, **args)
    app.context_processor(lambda: {"locale": page_locale(), "locales": LOCALES})
    app.after_request(_keep_choice)


def page_locale() -> Locale:
    """The locale of this request (see the module docstring); worked out once per request."""
    found: Locale | None = g.get("clue_locale")
    if found is None:
        found = _choose()
        g.clue_locale = found
    return found


def _choose() -> Locale:
    # A page's scripts send the page's locale: ?lang= on a stream, the X-Clue-Locale header on fetch().
    asked = request.args.get("lang") or request.headers.get("X-Clue-Locale")
    for text in (asked, None if _follows_table() else request.cookies.get(COOKIE)):
        if text:
            try:
                return parse_locale(text)
            except ClueError:
                pass  # an unknown tag in an old cookie or a typed address: fall through to the table's
    return table_locale()


def _follows_table() -> bool:
    return request.path in ("/", "/events/table")


def table_locale() -> Locale:
    """The locale the host chose for the table."""
    try:
        return parse_locale(context().house().locale)
    except Exception:  # no answer from the session: English rather than no page
        return parse_locale("en-US")


def _keep_choice(response: Response) -> Response:
    wanted = request.args.get("lang")
    # Only a page's own address keeps the choice: its scripts' requests carry the page's locale too,
    # and that must not pin a phone that follows the table to the table's language of the moment.
    page = not request.path.startswith(("/api/", "/events/", "/i18n/", "/static/"))
    if wanted and page and not _follows_table() and response.status_code < 400:
        try:
            tag = parse_locale(wanted).exact  # "de-AT" stays de-AT for <html lang>; it reads as de-DE
        except ClueError:
            return response
        response.set_cookie(COOKIE, tag, max_age=COOKIE_AGE, samesite="Strict", httponly=True)
    return response


def told(err: ClueError) -> str:
    """A refusal's message in this request's language, card names spelled the reader's way."""
    locale = page_locale()
    try:
        names = context().names(locale.tag)
    except Exception:  # no answer from the session: the names as they are
        names = {}
    return Wording(locale.language, names).told(err)


@blueprint.get("/i18n/<tag>.js")
def script(tag: str) -> Response:
    """``window.CLUE_I18N``: the locale, its translated page messages (English pages get none) and the
    forms of the names those messages ask for ({seat:the}, {room:de}: companion/language/grammar.py)."""
    try:
        locale = parse_locale(tag)
    except ClueError:
        return Response("/* unknown locale */", status=404, mimetype="text/javascript")
    response = Response(_script_body(locale.tag), mimetype="text/javascript")
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@cache
def _script_body(tag: str) -> str:
    """The script of a locale (a canonical tag: a handful of them), worded once: the catalogues do not change
    while the server runs."""
    locale = parse_locale(tag)
    said = messages(locale.language, PAGE_AREAS)
    data: dict[str, Any] = {"locale": locale.tag, "language": locale.language, "locales": list(LOCALES),
                            "messages": said, "names": page_forms(locale.language, said.values())}
    return "window.CLUE_I18N = " + json.dumps(data, ensure_ascii=True, separators=(",", ":")) + ";\n"
