"""`clue-companion camera markers` and `camera read` as a user runs them, bad inputs included (exit 2, JSON)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from hardware.camera.scene import Conditions, Renderer, random_scene

CLI = [sys.executable, "-m", "companion.cli"]
PLAIN = Conditions(k1=(0.0, 0.0), light=(0.0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "camera", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONWARNINGS": "error"})


def refused(result: subprocess.CompletedProcess[str], code: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert json.loads(result.stdout)["error"] == code


@pytest.fixture(scope="module")
def photo(renderers: dict[str, Renderer], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    renderer = renderers["classic"]
    shot = renderer.render(random_scene(renderer, np.random.default_rng(3), PLAIN))
    path = tmp_path_factory.mktemp("photo") / "board.jpg"
    cv2.imwrite(str(path), shot.image)
    return path, dict(shot.truth)


@pytest.mark.slow
def test_read_prints_each_pieces_place(photo: tuple[Path, dict[str, str]]) -> None:
    path, truth = photo
    result = run("read", str(path), "--edition", "classic", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    found = json.loads(result.stdout)
    assert list(found) == ["board_found", "pieces", "unseen", "ms"]
    assert found["board_found"] is True and found["pieces"] == truth and found["unseen"] == []


@pytest.mark.slow
def test_a_calibration_file_is_used(photo: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    path, truth = photo
    config = tmp_path / "camera.toml"
    config.write_text("[camera]\nfocal_px = 1400.0\n", encoding="utf-8")
    assert json.loads(run("read", str(path), "--edition", "classic", "--config", str(config), "--json").stdout)[
        "board_found"]
    config.write_text("[camera]\nfocal_px = 'wide'\n", encoding="utf-8")
    refused(run("read", str(path), "--edition", "classic", "--config", str(config), "--json"), "bad_config")


@pytest.mark.slow
def test_a_file_that_is_not_an_image(tmp_path: Path) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("not a photo", encoding="utf-8")
    refused(run("read", str(path), "--edition", "classic", "--json"), "not_an_image")


@pytest.mark.slow
def test_an_image_over_40_megapixels(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    Image.new("1", (8000, 5001)).save(path)  # 40,008,000 pixels, a small file: refused before decoding
    refused(run("read", str(path), "--edition", "classic", "--json"), "too_large")
    Image.new("1", (20000, 10000)).save(path)  # past Pillow's own decompression-bomb limit too
    refused(run("read", str(path), "--edition", "classic", "--json"), "too_large")


@pytest.mark.slow
def test_no_board_in_view(tmp_path: Path) -> None:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((720, 1280, 3), 120, np.uint8))
    refused(run("read", str(path), "--edition", "classic", "--json"), "no_board")


@pytest.mark.slow
def test_a_marker_of_another_edition(photo: tuple[Path, dict[str, str]]) -> None:
    refused(run("read", str(photo[0]), "--edition", "doctor_who", "--json"), "foreign_marker")


@pytest.mark.slow
def test_two_markers_with_one_id(photo: tuple[Path, dict[str, str]], renderers: dict[str, Renderer],
                                 tmp_path: Path) -> None:
    image = cv2.imread(str(photo[0]))
    corners, ids, _ = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(image)
    quad = next(q.reshape(4, 2) for q, i in zip(corners, ids.ravel()) if i == 4)  # Miss Scarlet
    x0, y0 = (quad.min(axis=0) - 8).astype(int)
    x1, y1 = (quad.max(axis=0) + 8).astype(int)
    patch = image[y0:y1, x0:x1].copy()
    image[40:40 + patch.shape[0], 40:40 + patch.shape[1]] = patch  # a second Scarlet sticker, off in a corner
    path = tmp_path / "two.png"
    cv2.imwrite(str(path), image)
    refused(run("read", str(path), "--edition", "classic", "--json"), "duplicate_marker")


@pytest.mark.slow
def test_markers_writes_a_sheet_and_prints_the_layout(tmp_path: Path) -> None:
    svg, pdf = tmp_path / "m.svg", tmp_path / "m.pdf"
    result = run("markers", "classic", "--out", str(svg), "--json", "--locale", "en-GB")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["edition", "dictionary", "board", "corners", "pieces", "places"]
    assert "Reverend Green" in svg.read_text(encoding="utf-8")
    assert run("markers", "classic", "--out", str(pdf), "--paper", "letter").returncode == 0
    box = re.search(rb"/MediaBox \[ *0 0 ([0-9.]+) ([0-9.]+)", pdf.read_bytes())
    assert box is not None and (round(float(box[1])), round(float(box[2]))) == (612, 792)
    result = run("markers", "classic", "--out", str(tmp_path / "m.png"))
    assert result.returncode == 2 and "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_companion_starts_without_opencv() -> None:
    # companion/ is pure Python: only the camera commands load OpenCV, inside their functions.
    code = "import sys, companion.cli.main as m; m._parser(); print('cv2' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["False"], result.stderr
