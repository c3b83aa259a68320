"""240 more scenes over the four editions (slow: left to make test): not one piece misplaced."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import EDITIONS, wrong
from test_camera_read import EVERYTHING, HANDS

from hardware.camera.read import Reading
from hardware.camera.scene import Conditions, Photo

Shoot = Callable[[str, int, Conditions], tuple[Photo, Reading]]
PER_EDITION = 24


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("conditions", [Conditions("tilted"), EVERYTHING], ids=["default", "everything"])
def test_many_clear_photos_are_all_read_right(shoot: Shoot, edition: str, conditions: Conditions) -> None:
    failures = {}
    for seed in range(1000, 1000 + PER_EDITION):
        photo, reading = shoot(edition, seed, conditions)
        if dict(reading.pieces) != dict(photo.truth):
            failures[seed] = (wrong(photo, reading), reading.unseen, reading.missing_corners)
    assert failures == {}


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_many_photos_with_hands_never_misplace_a_piece(shoot: Shoot, edition: str) -> None:
    misplaced = {}
    for seed in range(2000, 2000 + PER_EDITION // 2):
        photo, reading = shoot(edition, seed, HANDS)
        if wrong(photo, reading):
            misplaced[seed] = wrong(photo, reading)
    assert misplaced == {}
