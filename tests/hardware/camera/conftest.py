"""Shared by the camera tests: one renderer per edition (its board texture takes a moment to draw)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from companion.rules.edition import load_edition
from hardware.camera.read import Reading, read
from hardware.camera.scene import Conditions, Photo, Renderer, random_scene

EDITIONS = ("classic", "master_detective", "doctor_who", "big_bang_theory")


@pytest.fixture(scope="session")
def renderers() -> dict[str, Renderer]:
    return {name: Renderer(load_edition(name)) for name in EDITIONS}


@pytest.fixture(scope="session")
def shoot(renderers: dict[str, Renderer]) -> Callable[[str, int, Conditions], tuple[Photo, Reading]]:
    """A seeded random scene of an edition, photographed and read."""

    def run(edition: str, seed: int, conditions: Conditions) -> tuple[Photo, Reading]:
        renderer = renderers[edition]
        photo = renderer.render(random_scene(renderer, np.random.default_rng(seed), conditions))
        return photo, read(photo.image, renderer.layout)

    return run


def wrong(photo: Photo, reading: Reading) -> dict[str, tuple[str, str]]:
    """Pieces the reading put anywhere but where they are: {piece: (true place, read place)}."""
    return {name: (photo.truth[name], place) for name, place in reading.pieces.items() if photo.truth[name] != place}
