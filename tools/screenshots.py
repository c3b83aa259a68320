"""Screenshots of every web page at phone and TV sizes, for docs/screenshots/ (``make screenshots``).

Runs the companion in-process on mock hardware (virtual board, emulated
handhelds, the web app under waitress) and plays a seeded Classic game to a
moment with something on every page: Miss Scarlet in the Lounge has suggested
Mr. Green with the Revolver, and Colonel Mustard is choosing a card to show.
Debian's chromium takes the pictures through Playwright.

    python tools/screenshots.py [OUT_DIR]    (default docs/screenshots; or $CLUE_SCREENSHOTS_DIR)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.cli.mock_table import MockTable  # noqa: E402
from companion.rules.actions import Move, Roll, Suggest  # noqa: E402
from companion.table.commands import Play  # noqa: E402
from companion.table.store import Store  # noqa: E402
from web import create_app  # noqa: E402
from web.serve import WebServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
SIZES = {"phone": (390, 844), "tv": (1920, 1080)}
SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
PIN = "246813"
READY = {  # what each page shows once it has drawn itself
    "table": "document.querySelectorAll('#board .cb-mover').length === 6",
    "seat": "!!document.querySelector('#dock .dock-title')",
    "host": "!!document.querySelector('#host') && document.querySelectorAll('svg').length > 0",
    "sim": "!!document.querySelector('.sim-grid svg')",
    "join": "!!document.querySelector('h1')",
}


@contextmanager
def companion() -> Iterator[tuple[MockTable, str, Any]]:
    """A seeded game on mock hardware, served on a free port; yields (rig, url, pairing)."""
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "games.db").open() as store, \
            MockTable(store) as rig:
        assert rig.new_game("classic", SEATS, seed=4).ok and rig.start().ok
        app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True})
        pairing = app.extensions["clue"].pairing
        with WebServer(app, "127.0.0.1", 0) as server:
            pairing.base_url = f"http://127.0.0.1:{server.port}"
            yield rig, pairing.base_url, pairing


def play_to_a_suggestion(rig: MockTable) -> None:
    """Miss Scarlet rolls a 6 (seed 4), walks into the Lounge and suggests; Colonel Mustard is asked."""
    for action in (Roll("Miss Scarlet"), Move("Miss Scarlet", "Lounge"),
                   Suggest("Miss Scarlet", "Mr. Green", "Revolver")):
        outcome = rig.session.call(Play("Miss Scarlet", action))
        assert outcome.ok, outcome.error
    for mover in ("Miss Scarlet", "Mr. Green"):  # the players set the movers where the game put them
        rig.move(mover, "Lounge")


def settle(page: Any, script: str, timeout: float = 10.0) -> None:
    """Poll until the page has drawn (the CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{page.url} did not draw: {script}")
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)  # let transitions end


def shoot(browser: Any, url: str, pairing: Any, out: Path) -> list[Path]:
    shots = []
    for size, (width, height) in SIZES.items():
        phone = size == "phone"
        pages = {
            "table": lambda context: context.new_page().goto(url + "/"),
            "seat": lambda context: context.new_page().goto(f"{url}/j/{pairing.token('Colonel Mustard')}"),
            "join": lambda context: context.new_page().goto(url + "/j/this-link-was-revoked"),
            "host": lambda context: _logged_in(context, url + "/host"),
            "sim": lambda context: _logged_in(context, url + "/sim"),
        }
        for name, opening in pages.items():
            context = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone,
                                          is_mobile=phone)
            opening(context)
            page = context.pages[-1]
            if name == "seat":
                page.wait_for_url("**/seat")
            settle(page, READY[name])
            path = out / f"{name}-{size}.png"
            page.screenshot(path=str(path), full_page=phone)
            shots.append(path)
            context.close()
    return shots


def _logged_in(context: Any, address: str) -> None:
    page = context.new_page()
    page.goto(address)
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host, .sim-grid")


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else os.environ.get("CLUE_SCREENSHOTS_DIR", "docs/screenshots"))
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with companion() as (rig, url, pairing), sync_playwright() as playwright:
        play_to_a_suggestion(rig)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            shots = shoot(browser, url, pairing, out)
        finally:
            browser.close()
    for path in shots:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
