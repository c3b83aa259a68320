"""The browser every page test drives: Debian's Chromium through Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps calling Google's hosts, which this closed network refuses.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module; a missing one fails the test with the fix (never a skip)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the page tests need Chromium at {CHROMIUM}: sudo apt install chromium")
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield launched
        launched.close()
