"""The companion's web page: a Flask app factory over a running :class:`~companion.table.session.Session`.

>>> from companion.table.session import Session, Table
>>> with Session(Table()) as session:
...     app = create_app(session, {"HOST_PIN": "246813", "TESTING": True})
...     app.test_client().get("/api/table").get_json()["stage"]
'idle'

Blueprints: ``table`` (/), ``player`` (/j/TOKEN, /seat), ``events`` (SSE),
``host`` (/host), ``editor`` (/api/host/editor/...), ``editor_page``
(/host/editor), ``photo`` (/api/host/editor/photo/trace), ``language``
(/i18n/TAG.js: a page's translated messages), ``sim`` (/sim, only with a
mock rig) and ``camera`` (/api/host/camera: the host's camera panel, with a camera); errors are JSON, or a small page for a browser
(:mod:`web.errors`). Config keys (all optional): ``HOST_PIN``, ``SECRET_KEY``,
``BASE_URL`` (the address join URLs use), ``PAIRING``, ``RIG`` and ``SIM``,
``KEEPALIVE`` (s), ``SESSION_TIMEOUT`` (s), ``JOIN_LIMIT``, ``PIN_LIMIT`` (per
address), ``PIN_LIMIT_TOTAL`` ((tries, seconds)) and ``EDITIONS_DIR`` (where
the editor saves user editions). See docs/web.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Flask

from companion.table.session import Session

from . import camera, editor, editor_page, errors, events, guard, host, language, photo, player, sim, table
from .context import WebContext

__all__ = ["create_app"]


def create_app(session: Session, config: Mapping[str, Any] | None = None) -> Flask:
    """The web app for ``session`` (which must be started); ``config`` overrides the defaults."""
    app = Flask(__name__)
    app.config.update(
        SESSION_COOKIE_NAME="clue_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PERMANENT_SESSION_LIFETIME=timedelta(days=2),  # long enough for a weekend's games
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=guard.MAX_BODY,
    )
    app.config.update(dict(config or {}))
    web = WebContext(session, app.config)
    app.extensions["clue"] = web
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = web.secret_key()
    app.json.sort_keys = False  # type: ignore[attr-defined]
    guard.install(app)
    errors.install(app)  # browsers get a page for a 404 or 500; /api/ and scripts keep JSON
    language.install(app)  # every page, answer and stream in the reader's locale (web/language.py)
    for blueprint in (table.blueprint, player.blueprint, events.blueprint, host.blueprint, sim.blueprint,
                      editor.blueprint, editor_page.blueprint, photo.blueprint, camera.blueprint):
        app.register_blueprint(blueprint)
    return app
