"""96 more plain scenes over the four editions (slow: left to make test): not one piece misplaced.

The harder conditions are in test_camera_many_hard.py (two files: make test runs each in its own process).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import EDITIONS, wrong

from hardware.camera.read import Reading
from hardware.camera.scene import Conditions, Photo

Shoot = Callable[[str, int, Conditions], tuple[Photo, Reading]]
PER_EDITION = 24


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_many_clear_photos_are_all_read_right(shoot: Shoot, edition: str) -> None:
    failures = {}
    for seed in range(1000, 1000 + PER_EDITION):
        photo, reading = shoot(edition, seed, Conditions("tilted"))
        # A piece behind a taller one, seen at a slant, is rightly unseen; every other piece is read.
        missed = set(reading.unseen) - set(photo.hidden)
        if wrong(photo, reading) or missed:
            failures[seed] = (wrong(photo, reading), missed)
    assert all(not misplaced for misplaced, _ in failures.values()), failures
    # A marker in view may still go unread now and then (0.2% of frames in benchmarks/camera.py, where the
    # rate is measured): one frame here is tolerated, never a misplaced piece.
    assert len(failures) <= 1, failures

