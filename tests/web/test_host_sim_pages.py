"""The host page (/host) and the simulator page (/sim), in a real browser on a mock table.

Runs Debian's chromium through playwright (never a downloaded browser); skipped where either is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import wait_until

from companion.cli.mock_table import MockTable
from companion.table.store import Store
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
PIN = "246813"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[MockTable, str]]:
    with Store(tmp_path / "games.db").open() as store, MockTable(store) as rig:
        assert rig.new_game("classic", SEATS, seed=7).ok
        assert rig.start().ok
        app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True, "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield rig, f"http://127.0.0.1:{server.port}"



def open_logged_in(browser: Any, url: str, path: str, width: int = 1280, height: int = 800) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": height})
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(url + path)
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host, .sim-grid")  # the page reloads as the host's
    return page, problems


def confirm(page: Any) -> None:
    page.wait_for_selector(".confirm-box")
    page.click(".confirm-box .actions button:last-child")


def test_a_wrong_pin_is_refused_in_words(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    page = browser.new_page()
    page.goto(url + "/host")
    assert page.get_attribute("#pin", "inputmode") == "numeric"
    page.fill("#pin", "111111")
    page.click("#login-button")
    wait_until(page, "!document.getElementById('login-error').classList.contains('hidden')")
    assert page.text_content("#login-error") == "That is not the host PIN."
    assert page.locator("#host").count() == 0
    page.close()


def test_the_host_sees_the_game_and_a_qr_code_per_seat(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    page, problems = open_logged_in(browser, url, "/host")
    page.wait_for_selector(".seat-card")
    wait_until(page, "document.querySelectorAll('.seat-card').length === 3")
    assert page.locator(".seat-name").all_text_contents() == list(SEATS)
    assert "Playing" in page.text_content("#game-facts")
    # The QR codes are real SVG (rebuilt from the server's), with nothing active in them.
    assert page.evaluate("""Array.from(document.querySelectorAll('.qr-button svg')).every((svg) =>
        svg.namespaceURI === 'http://www.w3.org/2000/svg' && svg.querySelector('path') !== null
        && svg.querySelector('script, foreignObject') === null)""")
    assert all("/j/" in text for text in page.locator(".join-url").all_text_contents())
    page.click(".seat-card >> nth=0 >> text=Show big")
    assert page.text_content("#qr-overlay-title") == "Join as Miss Scarlet"
    page.click("#qr-overlay-close")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 1280
    page.close()
    assert problems == []


def test_revoking_a_seat_issues_a_new_join_url(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    page, problems = open_logged_in(browser, url, "/host")
    wait_until(page, "document.querySelectorAll('.seat-card').length === 3")
    before = page.locator(".join-url").nth(1).text_content()
    page.click(".seat-card >> nth=1 >> text=Revoke and re-issue")
    confirm(page)
    wait_until(page, f"document.querySelectorAll('.join-url')[1].textContent !== {before!r}")
    page.close()
    assert problems == []


def test_the_host_sees_two_phones_on_one_seat_and_turns_one_away(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    page, problems = open_logged_in(browser, url, "/host")
    wait_until(page, "document.querySelectorAll('.seat-card').length === 3")
    join_url = page.locator(".join-url").nth(0).text_content() or ""
    phones = [browser.new_context() for _ in range(2)]  # two phones, each with its own cookies
    for phone in phones:
        tab = phone.new_page()
        tab.goto(join_url.replace(join_url.split("/j/")[0], url))
    wait_until(page, "document.querySelectorAll('.seat-card')[0].querySelectorAll('.phones li').length === 2", 12.0)
    assert "2 phones joined" in (page.locator(".seat-card >> nth=0 >> .badge").text_content() or "")
    page.click(".seat-card >> nth=0 >> .phones li >> nth=1 >> text=Turn away")
    confirm(page)
    wait_until(page, "document.querySelectorAll('.seat-card')[0].querySelectorAll('.phones li').length === 1")
    kept, turned_away = (phone.request.get(url + "/api/seat").status for phone in phones)
    assert (kept, turned_away) == (200, 401)
    for phone in phones:
        phone.close()
    page.close()
    assert problems == []


def test_a_new_game_is_opened_and_started_from_the_page(browser: Any, served: tuple[MockTable, str]) -> None:
    rig, url = served
    page, problems = open_logged_in(browser, url, "/host", 390, 844)
    page.wait_for_selector(".seat-card")
    page.click("#new-toggle")  # folded while a game is on
    page.click("#new-seats >> text=Mrs. Peacock")
    assert page.text_content("#seat-order").endswith("Mrs. Peacock")
    page.click("#bot-seats >> text=Mrs. Peacock")  # a computer player takes her seat
    page.select_option("#bot-level", "bold")
    page.click("#new-assistant >> text=Probabilities")
    page.click("#new-submit")
    confirm(page)  # ends the game under way first
    wait_until(page, "!document.getElementById('start-game').classList.contains('hidden')")
    page.click("#start-game")
    wait_until(page, "document.getElementById('game-facts').textContent.includes('Playing')")
    assert rig.session.inspect(lambda table: table.seats())[-1] == "Mrs. Peacock"
    settings = rig.session.inspect(lambda table: dict(table.settings))
    assert settings["bots"] == "Mrs. Peacock=bold" and settings["assistant"] == "probabilities"
    assert "with probabilities" in page.text_content("#game-facts")
    wait_until(page, "document.querySelectorAll('.seat-card').length === 4")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.close()
    assert problems == []


def test_the_host_may_leave_the_sheldon_cards_in_the_box(browser: Any, served: tuple[MockTable, str]) -> None:
    rig, url = served
    page, problems = open_logged_in(browser, url, "/host")
    page.wait_for_selector(".seat-card")
    page.click("#new-toggle")
    assert not page.is_visible("#bonus-box")  # Classic has no bonus cards
    page.select_option("#new-edition", "big_bang_theory")
    wait_until(page, "!document.getElementById('bonus-box').classList.contains('hidden')")
    assert "Leave the Sheldon Cards in the box" in page.text_content("#bonus-box")
    page.check("#new-no-bonus")
    page.click("#new-submit")
    confirm(page)
    wait_until(page, "!document.getElementById('start-game').classList.contains('hidden')")
    page.click("#start-game")
    wait_until(page, "document.getElementById('game-facts').textContent.includes('Playing')")
    assert rig.session.inspect(lambda table: table.state.bonus) is None
    page.close()
    assert problems == []


def test_the_simulator_moves_a_piece_and_presses_a_button(browser: Any, served: tuple[MockTable, str]) -> None:
    rig, url = served
    page, problems = open_logged_in(browser, url, "/sim")
    wait_until(page, "document.querySelectorAll('#board .cb-mover').length === 6")
    wait_until(page, "document.querySelectorAll('#handhelds .handheld').length === 3")
    assert page.get_attribute("#handhelds .handheld >> nth=0 >> img", "src").startswith("/sim/oled/1.png?v=")
    # OK on Miss Scarlet's handheld rolls the die (keyboard: 1 picks her handheld, Enter is OK).
    page.locator("body").press("1")
    page.locator("body").press("Enter")
    wait_until(page, "document.getElementById('status').textContent.includes('Moving')")
    # Put a weapon somewhere else on the board: the table asks for it back.
    page.click('#board .cb-weapon[data-name="Rope"]', force=True)
    assert page.locator("#board .cb-highlight").count() > 100  # every place is pickable
    box = page.locator('#board rect.room[data-name="Hall"]').first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_until(page, "!document.getElementById('corrections').classList.contains('hidden')")
    assert "Rope" in page.text_content("#corrections-list")
    assert page.locator("#board .cb-highlight.cb-pickable").count() == 0  # the pick ended the selection
    page.close()
    assert problems == []
