"""tools/screenshots.py still draws every page at both sizes (its pictures are in docs/screenshots/)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="no chromium at /usr/bin/chromium")

import screenshots  # noqa: E402


def test_every_page_is_shot_at_phone_and_tv_size(tmp_path: Path) -> None:
    assert screenshots.main([str(tmp_path)]) == 0
    for page in ("table", "seat", "join", "host", "sim"):
        for size, (width, height) in screenshots.SIZES.items():
            with Image.open(tmp_path / f"{page}-{size}.png") as shot:
                assert shot.width == width and shot.height >= height  # phones: the whole page, scrolled
                low, high = shot.convert("L").getextrema()
                assert high - low > 100, f"{page}-{size} is blank"
