"""Error answers in the asker's language: a small HTML page for a browser, JSON for everything else.

The JSON shape is :mod:`web.guard`'s (``{"ok": false, "error": {"code",
"message"}}``); this module only decides who gets a page instead. A browser
navigating to a page (its Accept prefers ``text/html``) gets one; ``/api/`` and
``/events/`` paths, scripts (``fetch`` asks for ``*/*``) and tools that send no
Accept at all keep JSON. A 500 never shows a traceback either way: it is logged.

>>> from flask import Flask
>>> from web import language
>>> app = Flask(__name__)
>>> install(app)
>>> language.install(app)  # the page speaks the asker's language (English here: no table to ask)
>>> browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
>>> page = app.test_client().get("/nowhere", headers=browser)
>>> page.status_code, page.mimetype
(404, 'text/html')
>>> app.test_client().get("/api/nowhere", headers=browser).get_json()["error"]["code"]
'not_found'
"""

from __future__ import annotations

from flask import Flask, Response, current_app, render_template, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.language import N_, say

from .guard import HTTP_CODES, ApiError
from .language import page_locale

JSON_PATHS = ("/api/", "/events/")
# English, marked for the web catalogue: a page is written in its reader's language (_page), JSON by ApiError.
TITLES = {400: N_("That request was not understood"), 401: N_("Not joined"), 403: N_("Not allowed"),
          404: N_("No such page"), 405: N_("Not allowed here"), 409: N_("Not now"), 413: N_("Too large"),
          429: N_("Too many tries"), 500: N_("Something went wrong")}
MESSAGES = {404: N_("There is no page at this address."), 405: N_("That request method is not allowed here."),
            413: N_("The request is too large."), 500: N_("Something went wrong in the companion; it has been logged.")}
OTHER_TITLE = N_("That did not work")
NOT_UNDERSTOOD = N_("The request was not understood.")


def install(app: Flask) -> None:
    """Answer errors as pages for browsers; call after :func:`web.guard.install` (these replace its handlers)."""
    app.register_error_handler(ApiError, _refusal)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)


def wants_page() -> bool:
    """True when a browser navigates here: not an API path, and HTML preferred over JSON."""
    if request.path.startswith(JSON_PATHS):
        return False
    accept = request.accept_mimetypes
    html, json = accept.quality("text/html"), accept.quality("application/json")
    return html > 0 and html > json


def _refusal(err: ApiError) -> Response:
    if not wants_page():
        return err.response()
    response = _page(err.status, err.told())
    if err.retry_after is not None:
        response.headers["Retry-After"] = str(err.retry_after)
    return response


def _http_error(err: HTTPException) -> Response:
    status = err.code or 500
    if status >= 500:
        return _refusal(ApiError(500, "internal", MESSAGES[500]))
    code = HTTP_CODES.get(status, f"http_{status}")
    refusal = _refusal(ApiError(status, code, MESSAGES.get(status, NOT_UNDERSTOOD)))
    if isinstance(err, MethodNotAllowed) and err.valid_methods:  # RFC 9110: a 405 names the methods that would do
        refusal.headers["Allow"] = ", ".join(err.valid_methods)
    return refusal


def _unexpected(err: Exception) -> Response:
    current_app.logger.exception("web_error")  # the traceback goes to the log, never to the page
    return _refusal(ApiError(500, "internal", MESSAGES[500]))


def _page(status: int, message: str) -> Response:
    title = say(page_locale().language, TITLES.get(status, OTHER_TITLE))
    html = render_template("errors/error.html", status=status, title=title, message=message)
    return Response(html, status=status, mimetype="text/html")
