"""Helpers shared by the page tests that drive Chromium."""

from __future__ import annotations

import time
from typing import Any


def wait_until(page: Any, script: str, timeout: float = 8.0) -> None:
    """Poll ``script`` in the page until it is true (the CSP forbids the eval behind wait_for_function)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"timed out waiting for {script}"
        page.wait_for_timeout(50)
