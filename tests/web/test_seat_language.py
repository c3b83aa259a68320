"""The phone (seat) page in every language, its own language chooser, and large text (Chromium, axe-core)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pages import assert_accessible, wait_until
from web_fixtures import scarlet_suggests_in_the_lounge

from companion.language import parse_locale, say
from companion.language.areas import WEB_AREAS
from companion.language.catalogues import messages
from companion.language.grammar import named
from companion.rules.actions import Move
from companion.rules.spelling import spelled
from companion.table.commands import Configure, NewGame, Play, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
DOCK_TITLE = "document.querySelector('#dock .dock-title') ? document.querySelector('#dock .dock-title').textContent : ''"
# The phone's large-text setting, as Chromium takes it: a default font size of 32 px instead of 16 (its own
# preference, set through the DevTools protocol), so the page's rem and em grow and its px do not.
LARGE_TEXT = {"fontSizes": {"standard": 32, "fixed": 26}}


class Served:
    """A game and its web server; ``pairing`` gives each seat its join link."""

    def __init__(self, session: Session, url: str, pairing: Any) -> None:
        self.session, self.url, self.pairing = session, url, pairing

    def asked(self) -> str:
        view = self.session.table.view(None)
        asked = view["suggestion"]["asked"]
        assert isinstance(asked, str)
        return asked


def serve(session: Session) -> Iterator[Served]:
    app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
    with WebServer(app, "127.0.0.1", 0) as server:
        yield Served(session, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing)


@pytest.fixture(scope="module")
def suggesting() -> Iterator[Served]:
    """Miss Scarlet has suggested Professor Plum with the Rope in the Lounge; a seat is asked to show a card."""
    with Session(Table(seed_source=lambda: 7)) as session:
        scarlet_suggests_in_the_lounge(session)
        yield from serve(session)


@pytest.fixture
def german_table() -> Iterator[Served]:
    """A started game whose table speaks German; Miss Scarlet is to roll real dice."""
    with Session(Table(seed_source=lambda: 7)) as session:
        session.call(NewGame("classic", SEATS, dice="physical"))
        session.call(StartGame())
        assert session.call(Configure(locale="de-DE")).ok
        yield from serve(session)


def join(browser: Any, served: Served, seat: str, address: str = "/seat", large: bool = False) -> tuple[Any, list[str]]:
    """A phone (360 x 740) joined as ``seat``, showing ``address``; ``large``: with the large-text setting."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    if large:
        context.new_cdp_session(page).send("Page.setFontSizes", LARGE_TEXT)
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    page.goto(f"{served.url}/j/{served.pairing.token(seat)}")
    page.wait_for_url("**/seat")
    if address != "/seat":
        page.goto(served.url + address)
    wait_until(page, DOCK_TITLE)
    return page, problems


def name(tag: str, identity: str) -> str:
    return spelled("classic", tag)[identity]


def shown(language: str, message: str, **args: object) -> str:
    """``message`` as the page's scripts say it (their messages: /i18n/TAG.js); templates use ``say``."""
    text = messages(language, WEB_AREAS).get(message, message)
    return text.format(**named(language, args)) if args else text  # names in the forms the page gives them


def dock_title(page: Any) -> str:
    return str(page.evaluate(DOCK_TITLE))


# ---- every language, axe-core ---------------------------------------------------------------------

@pytest.mark.parametrize("tag", ["en-US", "de-DE", "fr-FR", "es-ES"])
def test_the_asked_phone_speaks_the_language_asked_and_passes_axe(browser: Any, suggesting: Served, tag: str) -> None:
    language = parse_locale(tag).language
    page, problems = join(browser, suggesting, suggesting.asked(), f"/seat?lang={tag}")
    assert page.get_attribute("html", "lang") == tag  # the exact tag, not only its language
    assert dock_title(page) == shown(language, "Show {seat} a card", seat=name(tag, "Miss Scarlet"))
    assert page.text_content("#hand-title") == shown(language, "Your cards")
    assert page.locator("#dock .pick-cards .card").count() >= 1
    # Open, so that axe sees them too (the board drawing, the slowest to check, in one language).
    for fold in ("notebook", "log", "board") if tag == "de-DE" else ("notebook", "log"):
        page.click(f"#{fold}-toggle")
    wait_until(page, "document.querySelectorAll('.nb-row').length > 0 && document.querySelectorAll('#log li').length > 0")
    assert page.text_content("#log-toggle .sec-title") == say(language, "Game log")
    assert_accessible(page, f"the asked phone in {tag}")
    page.context.close()
    assert problems == []


def test_the_waiting_suggester_and_the_join_page_pass_axe(browser: Any, suggesting: Served) -> None:
    tag, language = "es-ES", "es"
    page, problems = join(browser, suggesting, "Miss Scarlet", f"/seat?lang={tag}")
    assert dock_title(page) == shown(language, "Waiting for a card")
    assert_accessible(page, f"the suggester's phone in {tag}")
    page.context.close()
    assert problems == []
    stranger = browser.new_page(viewport={"width": 360, "height": 740})
    stranger.goto(f"{suggesting.url}/seat?lang={tag}")
    assert stranger.get_attribute("html", "lang") == tag
    assert stranger.text_content("h1") == say(language, "Join your seat")
    assert_accessible(stranger, f"the join page in {tag}")
    stranger.goto(f"{suggesting.url}/j/not-a-token?lang={tag}")
    assert stranger.text_content("h1") == say(language, "Scan your seat again")
    assert stranger.text_content(".join-message") == say(
        language, "This join link is not valid any more. Scan your seat's QR code again, or ask the host.")
    assert stranger.text_content(".join-message") != "This join link is not valid any more. Scan your seat's QR code again, or ask the host."
    stranger.close()


# ---- each phone its own language --------------------------------------------------------------------

def test_a_phone_chooses_its_own_language_and_can_follow_the_table_again(browser: Any, german_table: Served) -> None:
    page, problems = join(browser, german_table, "Miss Scarlet")
    assert page.get_attribute("html", "lang") == "de-DE"  # the table's language, to begin with
    assert dock_title(page) == shown("de", "Your turn")
    options = page.eval_on_selector_all("#lang-choice option", "nodes => nodes.map(n => [n.value, n.textContent])")
    assert options[0] == ["", say("de", "Table's language")]
    assert ["de-DE", "Deutsch (Deutschland)"] in options and ["fr-FR", "Français (France)"] in options
    assert page.input_value("#lang-choice") == ""

    with page.expect_navigation():
        page.select_option("#lang-choice", "fr-FR")
    wait_until(page, "document.documentElement.lang === 'fr-FR' && !!document.querySelector('#dock .dock-title')")
    assert dock_title(page) == shown("fr", "Your turn")
    assert page.text_content("#hand-title") == shown("fr", "Your cards")
    assert page.input_value("#lang-choice") == "fr-FR"
    page.reload()  # kept in the phone's cookie, while the table still speaks German
    wait_until(page, DOCK_TITLE)
    assert page.get_attribute("html", "lang") == "fr-FR"
    assert german_table.session.table.house.locale == "de-DE"

    with page.expect_navigation():
        page.select_option("#lang-choice", "")
    wait_until(page, "document.documentElement.lang === 'de-DE' && !!document.querySelector('#dock .dock-title')")
    assert dock_title(page) == shown("de", "Your turn")
    assert not [c for c in page.context.cookies() if c["name"] == "clue_locale"]
    page.context.close()
    assert problems == []


def test_the_language_route_keeps_only_known_tags(german_table: Served) -> None:
    app = create_app(german_table.session, {"HOST_PIN": "246813"})
    client = app.test_client()
    page = client.get("/seat").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token is not None
    headers = {"X-CSRF-Token": token.group(1)}
    chosen = client.post("/api/seat/language", json={"locale": "fr-FR"}, headers=headers)
    assert chosen.status_code == 200 and "clue_locale=fr-FR" in chosen.headers["Set-Cookie"]
    for bad in ({"locale": "xx-YY"}, {"locale": "fr-FR; Path=/"}, {"locale": 3}, {"tag": "fr-FR"}):
        refused = client.post("/api/seat/language", json=bad, headers=headers)
        assert refused.status_code == 400 and "Set-Cookie" not in refused.headers
    assert client.post("/api/seat/language", json={"locale": "de-DE"}).status_code == 403  # no CSRF token
    cleared = client.post("/api/seat/language", json={"locale": None}, headers=headers)
    assert cleared.status_code == 200
    assert re.search(r"clue_locale=;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)", cleared.headers["Set-Cookie"])


# ---- large text -------------------------------------------------------------------------------------

FITS = """(selector) => Array.from(document.querySelectorAll(selector)).filter((n) => n.getClientRects().length)
  .filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => selector + ': ' + n.textContent)"""
TARGET = """(node) => {
  const r = node.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {w: r.width, h: r.height, inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
          hit: node.contains(hit)};
}"""
KEY_TEXT = ("#me-name", "#turn-line", "#dock .dock-title", "#dock button", "#dock p", ".card-name", ".pick-name",
            ".sec-title", "#lang-choice")


def assert_fits(page: Any, what: str) -> None:
    """No sideways scrolling, and no key text cut off."""
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{what}: the page scrolls sideways ({width[0]} > {width[1]})"
    clipped = [line for selector in KEY_TEXT for line in page.evaluate(FITS, selector)]
    assert clipped == [], f"{what}: text cut off: {clipped}"


def assert_tappable(page: Any, label: str, scroll: bool = False) -> None:
    """The dock's button ``label`` is on screen (``scroll``: once the dock is scrolled to it), not covered,
    and at least 44 x 44 CSS pixels."""
    button = page.locator("#dock button", has_text=label).first
    if scroll:
        button.scroll_into_view_if_needed()
    box = button.evaluate(TARGET)
    assert box["inside"] and box["hit"], f"{label!r} is not fully on screen: {box}"
    assert box["w"] >= 44 and box["h"] >= 44, f"{label!r} is {box['w']} x {box['h']}"


def rolled(session: Session, seconds: float = 10.0) -> None:
    """Wait until the table has taken the turn's roll (its phase is "moving")."""
    deadline = time.monotonic() + seconds
    while session.inspect(lambda table: table.view(None).get("phase")) != "moving":
        assert time.monotonic() < deadline, "the roll sent from the page never reached the table"
        time.sleep(0.05)


def test_large_text_fits_the_phone_roll_accuse_and_suggest(browser: Any, german_table: Served) -> None:
    page, problems = join(browser, german_table, "Miss Scarlet", large=True)
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 34  # the page's type grew with it
    assert dock_title(page) == shown("de", "Your turn")
    assert_fits(page, "the roll prompt")
    assert_tappable(page, shown("de", "Send my roll"))
    assert_tappable(page, shown("de", "Accuse…"))

    page.locator("#dock button", has_text=shown("de", "Accuse…")).click()
    assert dock_title(page) == shown("de", "Accuse")
    assert_fits(page, "the accusation pickers")
    assert_tappable(page, shown("de", "Cancel"))
    page.locator("#dock button", has_text=shown("de", "Cancel")).click()

    page.fill("#dock .die-input", "6")
    page.locator("#dock button", has_text=shown("de", "Send my roll")).click()
    wait_until(page, f"{DOCK_TITLE} === {shown('de', 'Move')!r}")
    rolled(german_table.session)  # the page may show its next step before the table has the roll
    assert german_table.session.call(Play("Miss Scarlet", Move("Miss Scarlet", "Lounge"))).ok
    lounge = name("de-DE", "Lounge")
    wait_until(page, f"{DOCK_TITLE} === {shown('de', 'In {room}', room=lounge)!r}")
    assert_fits(page, "in the Lounge")
    assert_tappable(page, shown("de", "Suggest"))
    page.locator("#dock button", has_text=shown("de", "Suggest")).first.click()
    assert dock_title(page) == shown("de", "Suggest in {room}", room=lounge)
    assert_fits(page, "the suggestion pickers")
    page.click("#dock .dock-handle")  # the dock folded away, the page above it is in reach
    assert page.get_attribute("#dock .dock-handle", "aria-expanded") == "false"
    page.click("#notebook-toggle")
    wait_until(page, "document.querySelectorAll('.nb-row').length > 0")
    assert_fits(page, "the notebook open")
    page.context.close()
    assert problems == []


def test_large_text_fits_the_show_a_card_prompt(browser: Any, suggesting: Served) -> None:
    page, problems = join(browser, suggesting, suggesting.asked(), "/seat?lang=de-DE", large=True)
    assert dock_title(page) == shown("de", "Show {seat} a card", seat=name("de-DE", "Miss Scarlet"))
    assert_fits(page, "the show-a-card prompt")
    for card in page.eval_on_selector_all("#dock .pick-cards .card-name", "nodes => nodes.map(n => n.textContent)"):
        assert_tappable(page, card, scroll=True)
    assert_accessible(page, "the asked phone with large text")
    page.context.close()
    assert problems == []
