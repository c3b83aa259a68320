"""144 more scenes, blurred, distorted, badly lit, and with hands (slow: left to make test)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import EDITIONS, wrong
from test_camera_many import PER_EDITION
from test_camera_read import EVERYTHING, HANDS

from hardware.camera.read import Reading
from hardware.camera.scene import Conditions, Photo

Shoot = Callable[[str, int, Conditions], tuple[Photo, Reading]]


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_many_blurred_distorted_photos_are_all_read_right(shoot: Shoot, edition: str) -> None:
    failures = {}
    for seed in range(1000, 1000 + PER_EDITION):
        photo, reading = shoot(edition, seed, EVERYTHING)
        # A piece behind a taller one, seen at a slant, is rightly unseen; every other piece is read.
        missed = set(reading.unseen) - set(photo.hidden)
        if wrong(photo, reading) or missed:
            failures[seed] = (wrong(photo, reading), missed)
    assert all(not misplaced for misplaced, _ in failures.values()), failures
    # A marker in view may still go unread now and then (0.2% of frames in benchmarks/camera.py, where the
    # rate is measured): one frame here is tolerated, never a misplaced piece.
    assert len(failures) <= 1, failures


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_many_photos_with_hands_never_misplace_a_piece(shoot: Shoot, edition: str) -> None:
    misplaced = {}
    for seed in range(2000, 2000 + PER_EDITION // 2):
        photo, reading = shoot(edition, seed, HANDS)
        if wrong(photo, reading):
            misplaced[seed] = wrong(photo, reading)
    assert misplaced == {}
