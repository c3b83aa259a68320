"""Helpers shared by the page tests that drive Chromium."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


def wait_until(page: Any, script: str, timeout: float = 8.0) -> None:
    """Poll ``script`` in the page until it is true (the CSP forbids the eval behind wait_for_function)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"timed out waiting for {script}"
        page.wait_for_timeout(50)


AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (injected through the DevTools protocol, which
    the pages' Content-Security-Policy does not cover; a page script could not load it)."""
    assert AXE.exists(), f"{AXE} is missing: run `make test` (it runs npm ci in tests/web)"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))")
    return found


def assert_accessible(page: Any, what: str = "") -> None:
    """No serious or critical axe-core violation on the page (each named with where it is)."""
    bad = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
    assert not bad, f"axe-core on {what or page.url}:\n" + "\n".join(
        f"  {v['impact']}: {v['id']} ({v['help']}) at {', '.join(v['nodes'])}" for v in bad)
