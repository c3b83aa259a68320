"""Every page at 320 CSS px wide and 200% text, in every language: nothing scrolls sideways (WCAG 1.4.10
Reflow); the table page's text follows the browser's text size. Chromium through Playwright, the real server,
axe-core on top."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from page_geometry import LARGE_TEXT, PHONES, hidden_focus, scroll_width, wider_than_window
from pages import assert_accessible, wait_until

from companion.rules.actions import Roll
from companion.table.commands import NewGame, Play, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
TAGS = ("en-US", "de-DE", "fr-FR", "es-ES")
PIN = "246813"
NARROW = {"width": 320, "height": 640}
# What each page shows once it is drawn.
READY = {
    "/": "document.querySelectorAll('.cb-mover').length > 0",
    "/seat": "!!document.querySelector('#dock .dock-title')",
    "/host": "!!document.querySelector('#house-names input')",
    "/host/editor": "document.querySelectorAll('#open-edition option').length > 0",
}


class Served:
    def __init__(self, session: Session, url: str, pairing: Any) -> None:
        self.session, self.url, self.pairing = session, url, pairing


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """Miss Scarlet has rolled (real dice) and is to move."""
    with Session(Table(seed_source=lambda: 7)) as session:
        assert session.call(NewGame("classic", SEATS, dice="physical")).ok
        assert session.call(StartGame()).ok
        assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet", (6,)))).ok
        app = create_app(session, {"HOST_PIN": PIN, "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield Served(session, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing)


@pytest.fixture(scope="module")
def narrow(browser: Any, served: Served) -> Iterator[Any]:
    """A 320 px wide browser with 200% text, joined as Miss Scarlet and logged in as the host."""
    context = browser.new_context(viewport=NARROW, has_touch=True, is_mobile=True)
    page = context.new_page()
    context.new_cdp_session(page).send("Page.setFontSizes", LARGE_TEXT)
    page.goto(f"{served.url}/j/{served.pairing.token('Miss Scarlet')}")
    page.wait_for_url("**/seat")
    page.goto(served.url + "/host")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host")
    yield page
    context.close()


def opened(page: Any, url: str, address: str, tag: str) -> None:
    page.goto(f"{url}{address}?lang={tag}")
    wait_until(page, READY[address], timeout=10)
    assert page.get_attribute("html", "lang") == tag
    if address == "/host/editor":
        page.click("#open-button")
        wait_until(page, "document.querySelectorAll('#grid rect').length > 100 && !!document.querySelector('#tools button')")
    if address == "/host":
        page.evaluate("document.getElementById('house-names-box').open = true")
    if address == "/seat":
        for fold in ("board", "notebook", "log"):
            if page.get_attribute(f"#{fold}-toggle", "aria-expanded") != "true":
                page.eval_on_selector(f"#{fold}-toggle", "(n) => n.click()")  # wherever the page has scrolled it


@pytest.mark.parametrize("address", list(READY))
def test_no_page_scrolls_sideways_at_320_px_and_200_percent_text(narrow: Any, served: Served, address: str) -> None:
    report = []
    for tag in TAGS:
        opened(narrow, served.url, address, tag)
        width, window = scroll_width(narrow)
        print(f"{address} {tag}: scroll width {width} in a {window} px window")
        if width > window:
            report.append(f"{tag}: {width} > {window}: {wider_than_window(narrow)}")
    assert report == [], f"{address} scrolls sideways:\n" + "\n".join(report)
    assert_accessible(narrow, f"{address} at 320 px and 200% text")


def test_the_table_page_follows_the_text_size(browser: Any, served: Served) -> None:
    sizes = []
    for large in (False, True):
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        if large:
            context.new_cdp_session(page).send("Page.setFontSizes", LARGE_TEXT)
        page.goto(f"{served.url}/?lang=de-DE")
        wait_until(page, READY["/"])
        sizes.append(page.evaluate("""() => [parseFloat(getComputedStyle(document.body).fontSize),
          parseFloat(getComputedStyle(document.querySelector('.tp-title')).fontSize)]"""))
        context.close()
    (body, title), (big_body, big_title) = sizes
    print(f"the table page's text: {body} px, with 200% text {big_body} px")
    assert big_body >= 1.8 * body and big_title >= 1.8 * title, sizes


@pytest.mark.parametrize("address", ["/", "/host"])
def test_nothing_focused_is_hidden_on_the_table_and_host_pages(browser: Any, served: Served, address: str) -> None:
    """The table page's notice and banners and the host page's dialogs are fixed too: at phone sizes and 200%
    text, no focused control may be hidden under them (WCAG 2.4.11)."""
    report = []
    for size in PHONES[:1]:  # the smallest phone: the seat page's tests cover both sizes
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True)
        page = context.new_page()
        context.new_cdp_session(page).send("Page.setFontSizes", LARGE_TEXT)
        if address == "/host":
            page.goto(served.url + "/host")
            page.fill("#pin", PIN)
            page.click("#login-button")
            page.wait_for_selector("#host")
        for tag in TAGS:
            opened(page, served.url, address, tag)
            count = page.evaluate("document.querySelectorAll('a[href], button, select, input, [tabindex=\"0\"]').length")
            bad, worst = hidden_focus(page, count + 1)
            print(f"{address} {size} {tag}: worst hidden {worst} px over {count} tab stops")
            report += [f"{size} {tag}: {line}" for line in bad]
        context.close()
    assert report == [], "\n".join(report)
