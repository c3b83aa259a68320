"""POSTs check ``Origin`` (issue 27, finding 6), through the real server on a real port.

A POST whose ``Origin`` names another site is refused (403 ``bad_origin``)
before anything else runs: no CSRF check, no PIN compared, no try counted. A
POST without ``Origin`` (curl, old browsers) or with ``Origin: null`` (what a
browser sends for its own POSTs under ``Referrer-Policy: no-referrer``) is
left to the CSRF token, as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from real_browser import RealBrowser, serving
from web_fixtures import PIN


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    with serving(tmp_path) as (_, port_):
        yield port_


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1", "https://127.0.0.1:{port}",
                                    "http://127.0.0.1:{port}.evil.example", "http://localhost:{port}",
                                    "http://127.0.0.1:{port}/host", "garbage", "http://127.0.0.1:99999"])
def test_a_post_from_another_origin_is_refused_before_anything_else(port: int, origin: str) -> None:
    browser = RealBrowser(port)
    browser.load()
    sent = {"Origin": origin.format(port=port)}
    answer = browser.post("/host/login", {"pin": PIN}, sent)
    assert (answer.status, answer.code()) == (403, "bad_origin"), answer.text()
    assert browser.get("/api/host").status == 401  # the right PIN, from another site's page: no login
    browser.csrf = "not the token"  # refused for its origin, not its token
    assert browser.post("/host/login", {"pin": PIN}, sent).code() == "bad_origin"


def test_refused_origins_count_no_pin_tries(port: int) -> None:
    browser = RealBrowser(port)
    browser.load()
    for guess in range(10):
        assert browser.post("/host/login", {"pin": f"{guess:06d}"}, {"Origin": "http://evil.example"}).status == 403
    assert browser.login(PIN).status == 200


@pytest.mark.parametrize("origin", [None, "null", "http://127.0.0.1:{port}", "HTTP://127.0.0.1:{port}",
                                    "http://127.0.0.1:{port}/"])
def test_a_post_from_this_origin_or_none_is_left_to_the_csrf_token(port: int, origin: str | None) -> None:
    browser = RealBrowser(port)
    browser.load()
    sent = {} if origin is None else {"Origin": origin.format(port=port)}
    good_token = browser.csrf
    browser.csrf = "not the token"
    answer = browser.post("/host/login", {"pin": PIN}, sent)
    assert (answer.status, answer.code()) == (403, "csrf")
    browser.csrf = good_token
    answer = browser.post("/host/login", {"pin": PIN}, sent)
    assert answer.status == 200, answer.text()
    assert browser.post("/api/host/end", {}, sent).status == 200


def test_the_origin_is_compared_with_the_host_the_request_names(port: int) -> None:
    """A phone that opened http://clue.local:8000/ sends that origin, and that Host."""
    browser = RealBrowser(port)
    browser.load()
    named = {"Host": "clue.local:8000", "Origin": "http://clue.local:8000"}
    assert browser.post("/host/login", {"pin": PIN}, named).status == 200
    default_port = {"Host": "clue.local", "Origin": "http://clue.local"}
    assert browser.post("/host/logout", {}, default_port).status == 200
    other = {"Host": "clue.local:8000", "Origin": "http://127.0.0.1:8000"}
    assert browser.post("/host/logout", {}, other).code() == "bad_origin"
