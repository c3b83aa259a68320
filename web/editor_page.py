"""The board and edition editor page (``GET /host/editor``), PIN-protected like /host.

The page itself is static (web/static/editor.js draws and edits the map in the
browser); everything it reads and saves goes through the host-only editor API
(:mod:`web.editor`) and the photo tracer (:mod:`web.photo`).
"""

from __future__ import annotations

from flask import Blueprint, render_template

from .guard import csrf_token
from .host import is_host

blueprint = Blueprint("editor_page", __name__)


@blueprint.get("/host/editor")
def page() -> str:
    """The editor for a logged-in host; otherwise the PIN form, which reloads into the editor."""
    if not is_host():
        return render_template("host/login.html", csrf_token=csrf_token(), error=None, retry_after=None)
    return render_template("host/editor.html", csrf_token=csrf_token())
