"""The phone (seat) page with the keyboard: nothing focused is hidden by its dock or header (WCAG 2.2 2.4.11)
at 360 x 640 and 390 x 844, in every language, at normal and 200% text; the moment's main action is the
first tab stop after the cards; every board square says where it is; focus on a square is an outline
(2.4.7). Chromium through Playwright, the real server, axe-core on top."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from page_geometry import LARGE_TEXT, PHONES, hidden_focus
from pages import assert_accessible, wait_until

from companion.language import parse_locale
from companion.language.areas import WEB_AREAS
from companion.language.catalogues import messages
from companion.language.grammar import named
from companion.rules.actions import Move, Roll, Suggest
from companion.table.commands import NewGame, Play, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
TAGS = ("en-US", "de-DE", "fr-FR", "es-ES")
DOCK_TITLE = "!!document.querySelector('#dock .dock-title')"
PICKABLE = "document.querySelectorAll('.cb-pickable').length > 0"


class Served:
    def __init__(self, session: Session, url: str, pairing: Any) -> None:
        self.session, self.url, self.pairing = session, url, pairing


def serve(session: Session) -> Iterator[Served]:
    app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
    with WebServer(app, "127.0.0.1", 0) as server:
        yield Served(session, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing)


@pytest.fixture(scope="module")
def moving() -> Iterator[Served]:
    """Miss Scarlet has rolled a 6 (real dice) and is to move: her phone's board is open, its squares pickable."""
    with Session(Table(seed_source=lambda: 7)) as session:
        assert session.call(NewGame("classic", SEATS, dice="physical")).ok
        assert session.call(StartGame()).ok
        assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet", (6,)))).ok
        yield from serve(session)


@pytest.fixture(scope="module")
def rolling() -> Iterator[Served]:
    """Miss Scarlet is to roll (the companion's dice)."""
    with Session(Table(seed_source=lambda: 7)) as session:
        assert session.call(NewGame("classic", SEATS)).ok
        assert session.call(StartGame()).ok
        yield from serve(session)


@pytest.fixture(scope="module")
def asked() -> Iterator[Served]:
    """Miss Scarlet has suggested in the Lounge; Colonel Mustard is asked to show a card."""
    with Session(Table(seed_source=lambda: 7)) as session:
        assert session.call(NewGame("classic", SEATS, dice="physical")).ok
        assert session.call(StartGame()).ok
        assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet", (6,)))).ok
        assert session.call(Play("Miss Scarlet", Move("Miss Scarlet", "Lounge"))).ok
        assert session.call(Play("Miss Scarlet", Suggest("Miss Scarlet", "Professor Plum", "Rope"))).ok
        yield from serve(session)


def phone(browser: Any, served: Served, seat: str, size: tuple[int, int], large: bool = False) -> tuple[Any, list[str]]:
    """A phone of ``size`` joined as ``seat`` (``large``: 200% text); page errors are collected."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True)
    page = context.new_page()
    if large:
        context.new_cdp_session(page).send("Page.setFontSizes", LARGE_TEXT)
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(f"{served.url}/j/{served.pairing.token(seat)}")
    page.wait_for_url("**/seat")
    return page, problems


def open_in(page: Any, served: Served, tag: str, ready: str = DOCK_TITLE) -> None:
    page.goto(f"{served.url}/seat?lang={tag}")
    wait_until(page, ready)
    assert page.get_attribute("html", "lang") == tag
    settled(page)


def settled(page: Any) -> None:
    """Wait until the page has stopped scrolling (a roll opens the board and scrolls to the mover smoothly)."""
    last = None
    for _ in range(40):
        now = page.evaluate("[scrollY, document.getElementById('board-scroll').scrollTop]")
        if now == last:
            return
        last = now
        page.wait_for_timeout(120)


def open_folds(page: Any, *names: str) -> None:
    for name in names:
        if page.get_attribute(f"#{name}-toggle", "aria-expanded") != "true":
            page.click(f"#{name}-toggle")


# ---- 2.4.11: nothing focused is hidden -----------------------------------------------------------------

@pytest.mark.parametrize("large", [False, True], ids=["text100", "text200"])
@pytest.mark.parametrize("size", PHONES, ids=["360x640", "390x844"])
def test_nothing_focused_is_hidden_on_the_moving_phone(browser: Any, moving: Served, size: tuple[int, int],
                                                       large: bool) -> None:
    page, problems = phone(browser, moving, "Miss Scarlet", size, large)
    report = []
    for tag in TAGS:
        open_in(page, moving, tag, PICKABLE)
        open_folds(page, "board", "log")
        count = page.evaluate("document.querySelectorAll('button, select, input, [tabindex=\"0\"]').length")
        bad, worst = hidden_focus(page, count + 2)
        report += [f"{tag}: {line}" for line in bad]
        print(f"{size} large={large} {tag}: worst hidden {worst} px over {count} tab stops")
    page.context.close()
    assert report == [], "\n".join(report)
    assert problems == []


# ---- the moment's main action: the first tab stop after the cards --------------------------------------

def shown(tag: str, message: str, **args: object) -> str:
    """``message`` as the page's scripts say it in ``tag``'s language (/i18n/TAG.js)."""
    language = parse_locale(tag).language
    text = messages(language, WEB_AREAS).get(message, message)
    return text.format(**named(language, args)) if args else text  # names in the forms the page gives them


def after_the_cards(page: Any) -> dict[str, Any]:
    """Focus the last card of the hand and press Tab: what has the focus then, and how many tab stops
    came before it from the top of the page."""
    page.focus("#hand .card:last-of-type")
    page.keyboard.press("Tab")
    found: dict[str, Any] = page.evaluate("""() => { const n = document.activeElement;
      const stops = Array.from(document.querySelectorAll('button, select, input, [tabindex="0"]'))
        .filter((m) => !m.disabled && m.getClientRects().length);
      return {text: n.textContent.trim(), classes: String(n.className), inDock: !!n.closest('#dock'),
              before: stops.indexOf(n)}; }""")
    return found


@pytest.mark.parametrize("tag", TAGS)
def test_roll_is_the_first_tab_stop_after_the_cards(browser: Any, rolling: Served, tag: str) -> None:
    page, problems = phone(browser, rolling, "Miss Scarlet", PHONES[0])
    open_in(page, rolling, tag)
    assert page.text_content("#dock .dock-title") == shown(tag, "Your turn")
    first = after_the_cards(page)
    assert first["inDock"] and first["text"] == shown(tag, "Roll"), first
    cards = page.locator("#hand .card").count()
    assert first["before"] == cards, f"{first['before']} tab stops before Roll, {cards} of them cards"

    page.locator("#dock button", has_text=shown(tag, "Accuse…")).click()  # accusing: the pickers come first
    assert page.text_content("#dock .dock-title") == shown(tag, "Accuse")
    first = after_the_cards(page)
    assert first["inDock"] and "pick" in first["classes"], first
    assert_accessible(page, f"the accusation pickers in {tag}")
    page.context.close()
    assert problems == []


@pytest.mark.parametrize("tag", TAGS)
def test_showing_a_card_is_the_first_tab_stop_after_the_cards(browser: Any, asked: Served, tag: str) -> None:
    page, problems = phone(browser, asked, "Colonel Mustard", PHONES[0])
    open_in(page, asked, tag)
    first = after_the_cards(page)
    assert first["inDock"] and "act" in first["classes"] and "card" in first["classes"], first
    assert first["text"] == page.text_content("#dock .pick-cards .card")  # (axe: test_seat_language.py's asked phone)
    page.context.close()
    assert problems == []


# ---- the board's squares: their place in words, an outline on focus ----------------------------------------

@pytest.mark.parametrize("tag", TAGS)
def test_every_square_says_its_place_and_shows_focus_with_a_ring(browser: Any, moving: Served, tag: str) -> None:
    page, problems = phone(browser, moving, "Miss Scarlet", PHONES[1])
    open_in(page, moving, tag, PICKABLE)
    words = page.evaluate("async () => (await Clue.getJSON('/api/board')).words")
    english = board_words("en-US")
    squares = page.eval_on_selector_all(".cb-pickable.cb-hl-square",
                                        "nodes => nodes.map((n) => [n.dataset.place, n.getAttribute('aria-label')])")
    assert len(squares) >= 5
    for square, label in squares:
        assert label == shown(tag, "Go to square {square}, {place}", square=square, place=words[square])
        if tag != "en-US":
            assert english[square] not in label, label  # the place in the page's language, not in English
    assert "Lounge" in english["h19"] and (tag == "en-US" or words["h19"] != english["h19"])

    first = page.locator(".cb-pickable.cb-hl-square").first
    first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # from the keyboard: :focus-visible
    ring = first.evaluate("""(n) => { const r = getComputedStyle(n.querySelector('.cb-focus-ring'));
      return {focused: document.activeElement === n, display: r.display, width: parseFloat(r.strokeWidth), stroke: r.stroke}; }""")
    assert ring["focused"] and ring["display"] != "none" and ring["width"] >= 3, ring
    other = page.locator(".cb-pickable.cb-hl-square").nth(1)
    assert other.evaluate("(n) => getComputedStyle(n.querySelector('.cb-focus-ring')).display") == "none"
    assert_accessible(page, f"the moving phone in {tag}")
    page.context.close()
    assert problems == []


def board_words(tag: str) -> dict[str, str]:
    """The classic board's places in words as GET /api/board gives them in ``tag``."""
    from companion.rules.edition import load_edition
    from web.table import _words

    return _words(load_edition("classic"), tag, (), None)
