"""The editor's JSON API (host login): editions as editor documents, live checks, save, export and import.

Documents and checks are :mod:`companion.rules.edition_files` and
:mod:`companion.rules.edition_check`; saving writes into the app's
``EDITIONS_DIR`` (the data folder's ``editions``, which ``load_edition`` reads
through ``$CLUE_COMPANION_EDITIONS``). Routes are in docs/web.md, "Editor".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.rules.edition import (
    EDITIONS_VARIABLE,
    ID_PATTERN,
    Edition,
    load_edition,
)
from companion.rules.edition_check import check_document
from companion.rules.edition_files import (
    MAX_EXPORT,
    MAX_SIDE,
    DocumentError,
    EditionFiles,
    blank_document,
    document_of,
    export_text,
    files_of,
    import_text,
)
from companion.rules.errors import BadInput, ClueError
from companion.rules.user_editions import (
    SaveError,
    is_correction,
    list_editions,
    save_files,
)

from .guard import ApiError, json_body, json_data
from .host import require_host
from .language import told

blueprint = Blueprint("editor", __name__)
MAX_DOCUMENT = 256 * 1024  # bytes of a JSON body: a 40 x 40 map with 90 named cards is under 16 KiB


@blueprint.before_request
def _bounded() -> None:
    """The app's small body limit (16 KiB) is too small for a document; this blueprint allows 256 KiB."""
    request.max_content_length = max(MAX_DOCUMENT, MAX_EXPORT)


@blueprint.get("/api/host/editor/editions")
def editions() -> Response:
    require_host()
    return jsonify({"editions": [
        {"id": entry.id, "name": entry.name, "source": entry.source, "base": entry.base, "problem": entry.problem}
        for entry in list_editions()]})


@blueprint.get("/api/host/editor/edition/<edition_id>")
def edition(edition_id: str) -> Response:
    require_host()
    return jsonify(document_of(_edition(edition_id)))


@blueprint.get("/api/host/editor/blank")
def blank() -> Response:
    require_host()
    width, height = _size("width"), _size("height")
    base = _edition(request.args.get("base", "classic"))
    fill = request.args.get("fill", "void")
    try:
        return jsonify(blank_document(base, width, height, fill))
    except BadInput as err:
        raise ApiError(400, "bad_field", told(err)) from None


@blueprint.post("/api/host/editor/check")
def check() -> Response:
    require_host()
    document = json_body({"document": dict}, ("document",))["document"]
    return jsonify({"problems": [problem.as_dict() for problem in check_document(document)]})


@blueprint.post("/api/host/editor/save")
def save() -> Response | tuple[Response, int]:
    require_host()
    document = json_body({"document": dict}, ("document",))["document"]
    try:
        files = files_of(document)
    except DocumentError as err:
        return _refused(told(err), [problem.as_dict() for problem in err.problems])
    except ClueError as err:
        return _refused(told(err), [])
    return _saved(files.id, save_files_or_fail(files))


@blueprint.get("/api/host/editor/export/<edition_id>")
def export(edition_id: str) -> Response:
    require_host()
    found = _edition(edition_id)
    try:
        text = export_text(found)
    except ClueError as err:
        raise ApiError(400, "bad_edition", told(err)) from None
    response = Response(text, mimetype="application/toml")
    response.headers["Content-Disposition"] = f'attachment; filename="{found.id}.edition.toml"'
    return response


@blueprint.post("/api/host/editor/import")
def import_file() -> Response | tuple[Response, int]:
    """The exported file's text as the body (any text type), or JSON ``{"text": ...}``."""
    require_host()
    if request.is_json:
        body = json_data()  # None for JSON nested too deeply to parse, as for JSON that is not JSON
        text = body.get("text") if isinstance(body, dict) else None
        if not isinstance(text, str):
            raise ApiError(400, "bad_file", 'Send the exported file\'s text, as the body or as {"text": ...}.')
    else:
        try:
            text = request.get_data(cache=False).decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, "bad_file", "The file is not UTF-8 text: not an exported edition.") from None
    try:
        files = import_text(text)
    except ClueError as err:
        return _refused(told(err), [])
    return _saved(files.id, save_files_or_fail(files))


def save_files_or_fail(files: EditionFiles) -> Path:
    try:
        return save_files(editions_folder(), files)
    except SaveError as err:
        raise ApiError(500, "cannot_save", told(err)) from None
    except BadInput as err:
        raise ApiError(400, "bad_document", told(err)) from None


def editions_folder() -> Path:
    """Where this app saves: ``EDITIONS_DIR``, else the first folder of ``$CLUE_COMPANION_EDITIONS``."""
    configured = current_app.config.get("EDITIONS_DIR")
    if configured:
        return Path(configured)
    first = os.environ.get(EDITIONS_VARIABLE, "").split(os.pathsep)[0]
    if not first:
        raise ApiError(503, "no_editions_folder", "This companion has no editions folder to save into.")
    return Path(first)


def _saved(edition_id: str, path: Path) -> Response:
    return jsonify({"ok": True, "id": edition_id, "path": str(path),
                    "source": "correction" if is_correction(edition_id) else "yours"})


def _refused(message: str, problems: list[dict[str, Any]]) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": {"code": "bad_document", "message": message}, "problems": problems}), 400


def _edition(edition_id: str) -> Edition:
    if not ID_PATTERN.fullmatch(edition_id):
        raise ApiError(404, "unknown_edition", "There is no edition with that id.")
    try:
        return load_edition(edition_id)
    except BadInput:
        raise ApiError(404, "unknown_edition", "There is no edition {edition!r}.", edition=edition_id) from None
    except ClueError as err:
        raise ApiError(400, "bad_edition", told(err)) from None


def _size(name: str) -> int:
    value = request.args.get(name, "")
    # ASCII digits only: str.isdigit() also takes "²" and "①", which int() refuses; a few of them, or int()
    # refuses a number of more than 4,300 digits.
    if not (value.isascii() and value.isdigit() and len(value) <= 4) or not 1 <= int(value) <= MAX_SIDE:
        raise ApiError(400, "bad_field", "{name} must be a whole number from 1 to {most}.", name=name, most=MAX_SIDE)
    return int(value)
