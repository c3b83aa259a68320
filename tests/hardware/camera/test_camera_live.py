"""The live camera: the watcher's rules on readings, a short filmed game, the camera link, the [camera] config."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from companion.rules.edition import load_edition
from hardware.camera.device import CameraLink, MockCamera
from hardware.camera.read import Reading
from hardware.camera.scene import Renderer
from hardware.camera.watcher import CameraDown, CameraEvent, CameraUp, PieceAt, PieceUnseen, Settled, Watcher
from hardware.hardware_config import HardwareConfigError, load_hardware_config

ROOT = Path(__file__).resolve().parents[3]
ALL = ("Miss Scarlet", "Colonel Mustard", "Rope")
START = {"Miss Scarlet": "h25", "Colonel Mustard": "a18", "Rope": "Lounge"}


def seen(pieces: Mapping[str, str], missing: tuple[int, ...] = (), found: bool = True) -> Reading:
    return Reading(found, dict(pieces), tuple(p for p in ALL if p not in pieces), missing_corners=missing)


def feed(watcher: Watcher, readings: list[Reading], start: float = 0.0, fps: float = 10.0) -> list[CameraEvent]:
    events: list[CameraEvent] = []
    for n, reading in enumerate(readings):
        events += watcher.see(reading, start + n / fps)
    return events


def settled() -> Watcher:
    watcher = Watcher()
    assert feed(watcher, [seen(START)] * 3) == [Settled(START)]
    return watcher


def test_a_move_counts_once_the_piece_has_stood_still_for_three_frames() -> None:
    watcher = settled()
    moved = {**START, "Miss Scarlet": "h22"}
    assert feed(watcher, [seen(moved)] * 2, start=1.0) == []
    assert watcher.see(seen(moved), 1.2) == [PieceAt("Miss Scarlet", "h22")]
    assert watcher.see(seen(moved), 1.3) == []  # said once


def test_a_piece_read_on_two_places_in_turn_is_no_move() -> None:
    watcher = settled()
    flicker = [seen({**START, "Miss Scarlet": square}) for square in ("h22", "h23", "h22", "h23", "h22")]
    assert feed(watcher, flicker, start=1.0) == []


def test_a_frame_with_a_corner_covered_or_a_piece_hidden_never_makes_a_move() -> None:
    watcher = settled()
    moved = {**START, "Miss Scarlet": "h22"}
    hidden = {k: v for k, v in moved.items() if k != "Rope"}  # a hand over the Rope
    frames = [seen(moved), seen(moved, missing=(2,)), seen(moved), seen(hidden), seen(moved), seen(hidden),
              seen(moved, found=False), seen(moved)]
    assert feed(watcher, frames, start=1.0) == []
    assert watcher.places == START


def test_a_hidden_piece_is_unseen_never_gone_nor_moved() -> None:
    watcher = settled()
    without = {k: v for k, v in START.items() if k != "Colonel Mustard"}
    events = feed(watcher, [seen(without)] * 40, start=1.0)  # 4 s under a lamp's glare
    assert events == [PieceUnseen("Colonel Mustard")]
    assert watcher.places["Colonel Mustard"] == "a18"
    # Once it no longer holds changes up, others' moves count again; seen again where it was, nothing is said
    moved = {**without, "Miss Scarlet": "h22"}
    assert feed(watcher, [seen(moved)] * 3, start=6.0) == [PieceAt("Miss Scarlet", "h22")]
    assert feed(watcher, [seen({**moved, "Colonel Mustard": "a18"})] * 3, start=7.0) == []


@pytest.mark.slow  # some 3-5 s of rendering; benchmarks/camera_game.py is the long run
def test_a_short_filmed_game_sends_no_wrong_move_and_reports_each_within_a_second() -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks.camera_game import play

    result = play(30, seed=5)  # benchmarks/camera_game.py films 10,000 frames
    assert result.wrong == []
    assert result.moves >= 1 and result.missed == [] and result.reported == result.moves
    assert max(result.latencies) <= 1.0, result.latencies
    assert max(result.hand_shares) <= 0.15


def test_the_link_says_the_camera_is_down_when_unplugged_and_settles_again_when_back() -> None:
    renderer = Renderer(load_edition("classic"))
    places = dict(START)
    camera = MockCamera(renderer, lambda: places)
    events: list[CameraEvent] = []
    changed = threading.Condition()

    def sink(event: CameraEvent) -> None:
        with changed:
            events.append(event)
            changed.notify_all()

    def wait_for(kind: type, count: int = 1) -> None:
        with changed:
            assert changed.wait_for(lambda: sum(isinstance(e, kind) for e in events) >= count, timeout=10), events

    link = CameraLink(camera, sink, fps=20).open()
    try:
        link.use(renderer.plan)
        wait_for(Settled)
        assert events[:2] == [CameraUp(camera.name), Settled(START)]
        assert link.latest() is not None and link.status().state == "up"
        camera.unplug()
        wait_for(CameraDown)
        assert link.status().state == "down" and link.latest() is None
        places["Miss Scarlet"] = "h22"  # moved while the camera was away: the new settling says so
        camera.plug()
        wait_for(Settled, 2)
        assert events[-1] == Settled({**START, "Miss Scarlet": "h22"})
        assert sum(isinstance(e, CameraDown) for e in events) == 1  # said once, not at every retry
    finally:
        link.close()


def test_the_camera_config_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[camera]\ndevice = "webcam"\npath = "/dev/video2"\ncards = "pads"\nfps = 5\n'
                    'focal_px = 1450.0\ncentre_px = [960, 540]\ndistortion = [-0.08, 0.01, 0, 0, 0]\n')
    camera = load_hardware_config(path).camera
    assert (camera.device, camera.path, camera.cards, camera.fps) == ("webcam", "/dev/video2", "pads", 5)
    assert camera.centre_px == (960.0, 540.0) and camera.distortion == (-0.08, 0.01, 0.0, 0.0, 0.0)
    assert load_hardware_config(ROOT / "hardware" / "clue-companion.example.toml").camera.cards == "phones"
    for bad in ('device = "usb"', 'cards = "handhelds"', "fps = 0", "centre_px = [1]", "lens = 1"):
        path.write_text(f"[camera]\n{bad}\n")
        with pytest.raises(HardwareConfigError, match="camera"):
            load_hardware_config(path)


def test_a_frame_takes_time_only_when_the_mock_table_changes() -> None:
    renderer = Renderer(load_edition("classic"))
    places = dict(START)
    camera = MockCamera(renderer, lambda: places)
    camera.open()
    first = camera.grab()
    assert camera.grab() is first
    places["Rope"] = "Hall"
    started = time.perf_counter()
    assert camera.grab() is not first and time.perf_counter() - started < 2


def test_an_absent_camera_is_gone_in_words_a_maker_can_act_on() -> None:
    from hardware.camera.device import CameraGone, PiCamera, Webcam

    with pytest.raises(CameraGone, match="plugged in"):
        Webcam("/dev/video99").open()
    try:
        import picamera2  # noqa: F401  (on a Pi: a camera may well be there)
    except ImportError:
        with pytest.raises(CameraGone, match="picamera2 is not installed"):
            PiCamera().open()


def test_a_move_that_hides_another_piece_counts_after_half_a_second() -> None:
    watcher = settled()
    moved = {"Miss Scarlet": "h22", "Rope": "Lounge"}  # she now stands in front of the Colonel
    assert feed(watcher, [seen(moved)] * 5, start=1.0) == []  # 0.4 s: could be a hand resting on him
    assert watcher.see(seen(moved), 1.5) == [PieceAt("Miss Scarlet", "h22")]
    assert watcher.places["Colonel Mustard"] == "a18"


def test_a_flickering_sticker_delays_a_move_by_no_more_than_half_a_second() -> None:
    watcher = settled()
    moved = {**START, "Miss Scarlet": "h22"}
    without = {k: v for k, v in moved.items() if k != "Rope"}  # every other frame misses the Rope
    events = feed(watcher, [seen(moved), seen(without)] * 3, start=1.0)
    assert events == [PieceAt("Miss Scarlet", "h22")] and watcher.places["Rope"] == "Lounge"
