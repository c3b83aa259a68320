"""Make docs/camera/*.png from the scene renderer: .venv/bin/python tools/camera_pictures.py

Every picture is a synthetic photo (hardware/camera/scene.py) of a bundled edition, so the
pictures follow the code: run this again after changing the markers or the renderer.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules.edition import load_edition  # noqa: E402
from hardware.camera.markers import sheet  # noqa: E402
from hardware.camera.overlay import advice, draw  # noqa: E402
from hardware.camera.read import read  # noqa: E402
from hardware.camera.scene import Conditions, Renderer, Scene, Shot, random_scene  # noqa: E402

OUT = ROOT / "docs" / "camera"
PLAIN = Conditions(k1=(0.0, 0.0), light=(0.0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0))


def save(image_bgr: np.ndarray, name: str, width: int, colours: int = 96) -> None:
    """A small PNG: scaled to ``width`` and reduced to a palette."""
    height = round(image_bgr.shape[0] * width / image_bgr.shape[1])
    small = cv2.resize(image_bgr, (width, height), interpolation=cv2.INTER_AREA)
    picture = Image.fromarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB)).quantize(colours)
    picture.save(OUT / name, optimize=True)
    print(f"wrote docs/camera/{name}: {(OUT / name).stat().st_size // 1024} KiB")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    renderer = Renderer(load_edition("classic"))
    position = random_scene(renderer, np.random.default_rng(11), PLAIN)
    tilted = Scene(position.placements, Shot(seed=1, tilt_deg=25, tilt_towards_deg=90, fill=0.55), position.points,
                   position.turns)
    save(renderer.render(tilted).image, "tilted.png", 960)
    above = Scene(position.placements, Shot(seed=1, tilt_deg=0, fill=0.6), position.points, position.turns)
    photo = renderer.render(above).image
    corner = renderer.plan.corners[0].center_mm or (0.0, 0.0)
    x, y = (renderer.render(above).pose.to_image(np.array([[corner[0], corner[1], 0.0]]))[0]).astype(int)
    save(photo[max(0, y - 60):y + 240, max(0, x - 60):x + 340], "corner.png", 400)
    hands = Scene(position.placements, Shot(seed=4, tilt_deg=15, tilt_towards_deg=60, fill=0.55, hands=1),
                  position.points, position.turns)
    shot = renderer.render(hands)
    reading = read(shot.image, renderer.layout)
    save(draw(shot.image, reading), "reading.png", 960)
    print("advice:", advice(reading, (shot.image.shape[1], shot.image.shape[0])))
    page = np.asarray(sheet(renderer.layout).page())
    save(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR), "sheet.png", 620, colours=8)


if __name__ == "__main__":
    main()
