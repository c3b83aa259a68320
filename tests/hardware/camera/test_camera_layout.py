"""The marker layout (``camera markers --json``) and the printed sheet."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import EDITIONS

from companion.rules.edition import load_edition
from hardware.camera.layout import DICTIONARY_SIZE, Plan, layout
from hardware.camera.markers import AREA_MM, CELLS, DPI, MARGIN_MM, sheet


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_layout_has_every_piece_corner_and_place(edition: str) -> None:
    loaded = load_edition(edition)
    data = layout(loaded)
    assert list(data) == ["edition", "dictionary", "board", "corners", "pieces", "places"]
    assert [p["name"] for p in data["pieces"]] == [*loaded.deck.suspects, *loaded.deck.weapons]
    ids = [c["id"] for c in data["corners"]] + [p["id"] for p in data["pieces"]]
    assert ids[:4] == [0, 1, 2, 3] and len(set(ids)) == len(ids) and max(ids) < DICTIONARY_SIZE
    board = loaded.require_board()
    assert set(board.squares) | set(board.rooms) == set(data["places"])
    for corner in data["corners"]:  # a corner sticker lies on the board, over no place a piece can stand
        x, y = corner["center_mm"]
        assert 0 < x < data["board"]["width_mm"] and 0 < y < data["board"]["height_mm"]
        place = Plan.of(data).place_at(x, y)
        assert place is None or place in board.rooms


def test_one_sticker_serves_every_edition_with_that_piece() -> None:
    ids: dict[str, int] = {}
    for edition in EDITIONS:
        for piece in layout(load_edition(edition))["pieces"]:
            assert ids.setdefault(piece["name"], piece["id"]) == piece["id"]
    assert len(set(ids.values())) == len(ids) == 42


def test_a_room_cell_and_a_square_are_told_apart() -> None:
    plan = Plan.of(layout(load_edition("classic")))
    assert plan.place_at(*plan.centre_of("h25")) == "h25"
    x, y = plan.centre_of("Kitchen")
    assert plan.place_at(x, y) == "Kitchen"
    assert plan.place_at(-50.0, -50.0) is None


@pytest.mark.parametrize("edition", ["classic", "master_detective"])
def test_the_printed_page_holds_every_marker_at_its_size(edition: str) -> None:
    data = layout(load_edition(edition))
    page = sheet(data, paper="letter")
    for sticker in page.stickers:  # inside the area A4 and Letter share
        assert MARGIN_MM <= sticker.x_mm and sticker.x_mm + sticker.cut_mm <= MARGIN_MM + AREA_MM[0]
        assert sticker.y_mm + sticker.cut_mm <= MARGIN_MM + AREA_MM[1]
    image = np.asarray(page.page())
    assert image.shape == (round(279.4 / 25.4 * DPI), round(215.9 / 25.4 * DPI))
    small = cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    corners, ids, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(small)
    found = {int(i): q.reshape(4, 2) for q, i in zip(corners, ids.ravel())}
    sizes = {c["id"]: c["size_mm"] for c in data["corners"]} | {p["id"]: p["size_mm"] for p in data["pieces"]}
    assert set(found) == set(sizes)
    for marker_id, quad in found.items():  # 1:1: the side measured on the page is the layout's
        side_mm = float(np.linalg.norm(quad[1] - quad[0])) / (DPI / 4) * 25.4
        assert side_mm == pytest.approx(sizes[marker_id], abs=0.4)
    svg = page.svg()
    assert svg.count('class="sticker"') == len(sizes) and 'width="215.9mm"' in svg
    assert CELLS == 6


@pytest.mark.parametrize(("paper", "points"), [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_the_pdf_page_is_the_paper_at_actual_size(paper: str, points: tuple[float, float]) -> None:
    import re

    pdf = sheet(layout(load_edition("doctor_who")), paper=paper).pdf()
    box = re.search(rb"/MediaBox \[ *0 0 ([0-9.]+) ([0-9.]+)", pdf)
    assert box is not None
    assert float(box[1]) == pytest.approx(points[0], abs=0.1) and float(box[2]) == pytest.approx(points[1], abs=0.1)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm to render the PDF")
def test_the_pdf_as_a_viewer_renders_it_has_every_marker_at_size(tmp_path: Path) -> None:
    data = layout(load_edition("master_detective"))
    (tmp_path / "sheet.pdf").write_bytes(sheet(data).pdf())
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(tmp_path / "sheet.pdf"), str(tmp_path / "page")],
                   check=True, timeout=60)
    page = cv2.imread(str(tmp_path / "page.png"), cv2.IMREAD_GRAYSCALE)
    corners, ids, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(page)
    sizes = {c["id"]: c["size_mm"] for c in data["corners"]} | {p["id"]: p["size_mm"] for p in data["pieces"]}
    found = {int(i): q.reshape(4, 2) for q, i in zip(corners, ids.ravel())}
    assert set(found) == set(sizes)
    for marker_id, quad in found.items():
        assert float(np.linalg.norm(quad[1] - quad[0])) / 150 * 25.4 == pytest.approx(sizes[marker_id], abs=0.4)
