"""Error answers: a small page for a browser that opens a bad address, JSON for the API and for scripts."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from web_fixtures import Browser, make_app, refused, running
from werkzeug.test import TestResponse

from companion.table.session import Session

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"}
SCRIPT = {"Accept": "*/*"}  # what fetch() sends
JSON = {"Accept": "application/json"}


class Boom(RuntimeError):
    pass


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with running(tmp_path) as session:
        yield session


@pytest.fixture
def app(session: Session) -> Flask:
    app = make_app(session)

    def fail() -> str:
        raise Boom("secret detail /opt/clue-companion/src/web/table.py line 12")

    app.add_url_rule("/boom", "boom", fail)
    app.add_url_rule("/api/boom", "api_boom", fail)
    return app


def is_page(response: TestResponse, status: int) -> str:
    """The HTML error page's text, after checking its status and that it leads back to the table."""
    assert response.status_code == status
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert '<a class="button primary" href="/">Table view</a>' in page
    assert f"Error {status}" in page
    assert "base.css" in page  # the site's own look
    return page


def test_a_browser_opening_an_unknown_address_gets_a_page(app: Flask) -> None:
    page = is_page(Browser(app).get("/no-such-page", headers=BROWSER), 404)
    assert "<h1>No such page</h1>" in page and "There is no page at this address." in page


def test_the_api_stays_json_even_for_a_browser(app: Flask) -> None:
    browser = Browser(app)
    refused(browser.get("/api/no-such-thing", headers=BROWSER), 404, "not_found")
    refused(browser.get("/api/board?edition=monopoly", headers=BROWSER), 404, "not_found")
    refused(browser.get("/events/nope", headers=BROWSER), 404, "not_found")


@pytest.mark.parametrize("headers", [JSON, SCRIPT, {}], ids=["json", "fetch", "no-accept"])
def test_a_request_that_does_not_prefer_html_gets_json(app: Flask, headers: dict[str, str]) -> None:
    refused(Browser(app).get("/no-such-page", headers=headers), 404, "not_found")


def test_a_server_error_is_a_page_for_a_browser_and_never_a_traceback(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        page = is_page(Browser(app).get("/boom", headers=BROWSER), 500)
    assert "Something went wrong" in page
    for leak in ("Traceback", "Boom", "secret detail", "/opt/", "line 12"):
        assert leak not in page
    assert any(record.exc_info and record.exc_info[0] is Boom for record in caplog.records)  # it is in the log


@pytest.mark.parametrize("path, headers", [("/api/boom", BROWSER), ("/boom", JSON), ("/boom", SCRIPT)])
def test_a_server_error_is_json_for_the_api_and_scripts(app: Flask, path: str, headers: dict[str, str]) -> None:
    response = Browser(app).get(path, headers=headers)
    refused(response, 500, "internal")
    assert "secret detail" not in response.get_data(as_text=True)


def test_a_wrong_method_is_a_page_for_a_browser_with_the_allowed_methods(app: Flask) -> None:
    browser = Browser(app)
    page = is_page(browser.client.open("/", method="PUT", headers={**BROWSER, "X-CSRF-Token": browser.csrf}), 405)
    assert "not allowed" in page
    response = browser.get("/api/seat/action", headers=BROWSER)
    refused(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_a_refusal_on_a_page_address_is_a_page_with_its_own_words(app: Flask) -> None:
    """The join page's rate limit: a browser reads why it must wait, not a JSON blob."""
    browser = Browser(app)
    app.extensions["clue"].join_limit.limit = 1  # one bad token, then wait
    assert browser.get("/j/some-token", headers=BROWSER).status_code == 404  # the join page's own answer
    response = browser.get("/j/some-token", headers=BROWSER)
    page = is_page(response, 429)
    assert "Too many tries" in page and response.headers["Retry-After"]
    refused(browser.get("/j/some-token", headers=SCRIPT), 429, "rate_limited")
