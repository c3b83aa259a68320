"""Reading synthetic photos of the four editions: every piece where it stands, none anywhere else."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import EDITIONS, wrong

from hardware.camera.read import Reading
from hardware.camera.scene import Conditions, Photo

Shoot = Callable[[str, int, Conditions], tuple[Photo, Reading]]
EVERYTHING = Conditions("everything", k1=(-0.12, 0.03), light=(0.2, 0.5), glare=(30.0, 110.0), blur=(0.4, 1.1),
                        noise=(2.0, 7.0), jpeg=(65, 85))
HANDS = Conditions("hands", hands=(1, 2), k1=(-0.08, 0.02), blur=(0.0, 0.8), noise=(0.0, 4.0))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", range(2))
def test_a_plain_photo_shows_every_piece_in_its_place(shoot: Shoot, edition: str, seed: int) -> None:
    photo, reading = shoot(edition, seed, Conditions(k1=(0.0, 0.0), light=(0.0, 0.0), blur=(0.0, 0.0),
                                                     noise=(0.0, 0.0)))
    assert reading.board_found
    assert dict(reading.pieces) == dict(photo.truth)
    assert reading.unseen == ()
    assert len(reading.outline) == 4 and set(reading.seen) == set(photo.truth)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", range(100, 102))
def test_a_tilted_distorted_badly_lit_noisy_photo_is_read_all_the_same(shoot: Shoot, edition: str, seed: int) -> None:
    photo, reading = shoot(edition, seed, EVERYTHING)
    assert reading.board_found
    assert wrong(photo, reading) == {}
    assert dict(reading.pieces) == dict(photo.truth)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", range(200, 202))
def test_a_hand_hides_pieces_but_never_moves_one(shoot: Shoot, edition: str, seed: int) -> None:
    photo, reading = shoot(edition, seed, HANDS)
    assert wrong(photo, reading) == {}
    # What the hand leaves in view is read; what it covers is unseen, never placed.
    visible = set(photo.truth) - set(photo.hidden)
    assert visible - set(reading.pieces) <= set(reading.unseen)
    assert set(reading.unseen) | set(reading.pieces) == set(photo.truth)
