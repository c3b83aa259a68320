"""The camera over the board as a device: a Pi camera, a USB webcam or a mock, and the link that watches it.

API (``run --camera``, ``run --mock --camera``):

- ``PiCamera(number, size)``: Camera Module 3 (or its Wide variant) through ``picamera2``, imported
  only when it opens (the ``pi`` extra);
- ``Webcam(device, size)``: OpenCV's V4L2 capture (``/dev/video0`` or an index);
- ``MockCamera(renderer, places, shot)``: frames rendered by :mod:`hardware.camera.scene` from
  ``places()`` (piece -> room or square: the virtual table's); ``unplug()``/``plug()`` for tests;
- each has ``open()``, ``grab() -> BGR image`` and ``close()``; a camera that is absent or stops
  giving frames raises :class:`CameraGone` (its reason in words a maker can act on);
- ``CameraLink(camera, sink)``: a thread that grabs, reads (:func:`hardware.camera.read.read`) and
  watches (:class:`hardware.camera.watcher.Watcher`) each frame, giving ``sink`` the watcher's
  events and ``CameraUp``/``CameraDown``; it reopens an unplugged camera every second. ``use(plan,
  lens)`` names the edition's layout (None: no game, nothing read); ``latest()`` is the newest frame
  and its reading, in memory only, for the host's camera panel; ``status()`` for the host page.
"""

from __future__ import annotations

import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from .layout import Plan
from .pose import Lens
from .read import Reading, detector, read
from .scene import Renderer, Scene, Shot
from .watcher import CameraDown, CameraEvent, CameraUp, Watcher, WatchTiming

Image = NDArray[np.uint8]
LOG = logging.getLogger("clue_companion.camera")
RETRY = 1.0  # seconds between tries to open an absent camera


class CameraGone(OSError):
    """No frames: the camera is absent, unplugged or busy; the message says which, in English for the host page
    and the log (like the board link's reasons, it names devices and commands)."""


class Camera(Protocol):
    name: str

    def open(self) -> None: ...

    def grab(self) -> Image: ...

    def close(self) -> None: ...


class PiCamera:
    """A Raspberry Pi camera (Module 3, Module 3 Wide) through picamera2, in continuous autofocus."""

    def __init__(self, number: int = 0, size: tuple[int, int] = (1920, 1080)) -> None:
        self.number, self.size = number, size
        self.name = f"Pi camera {number}"
        self._camera: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]  # the picamera extra; only on a Pi
        except ImportError:
            raise CameraGone("picamera2 is not installed: pip install 'clue-companion[pi,picamera]' on the Pi "
                             "(or sudo apt install python3-picamera2)") from None
        try:
            camera = Picamera2(self.number)
            # "RGB888" is B, G, R in memory: OpenCV's order
            camera.configure(camera.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
            camera.start()
            _autofocus(camera)
        except (IndexError, RuntimeError, OSError) as err:
            raise CameraGone(f"no Pi camera {self.number}: {err} (is the ribbon cable in, blue side to the "
                             "Ethernet port?)") from None
        self._camera = camera

    def grab(self) -> Image:
        if self._camera is None:
            raise CameraGone(f"{self.name} is not open")
        try:
            frame = self._camera.capture_array("main")
        except (RuntimeError, OSError) as err:
            raise CameraGone(f"{self.name} stopped giving frames: {err}") from None
        return np.ascontiguousarray(frame[:, :, :3], dtype=np.uint8)

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
                camera.close()
            except (RuntimeError, OSError):
                pass  # already gone with its cable


def _autofocus(camera: Any) -> None:
    """Continuous autofocus where the module has it (Module 3); fixed-focus modules have no such control."""
    try:
        from libcamera import controls  # type: ignore[import-not-found]  # with picamera2

        if "AfMode" in camera.camera_controls:
            camera.set_controls({"AfMode": controls.AfModeEnum.Continuous})
    except (ImportError, RuntimeError, AttributeError):
        pass


class Webcam:
    """A USB webcam through OpenCV's V4L2 capture."""

    def __init__(self, device: str | int = 0, size: tuple[int, int] = (1920, 1080)) -> None:
        self.device = int(device) if isinstance(device, str) and device.isdigit() else device
        self.size = size
        self.name = f"webcam {device}"
        self._capture: cv2.VideoCapture | None = None

    def open(self) -> None:
        index = _v4l2_index(self.device)
        if index is None:
            raise CameraGone(f"no {self.name}: is it plugged in? (ls /dev/video* lists the cameras)")
        capture = cv2.VideoCapture(index, cv2.CAP_V4L2)
        if not capture.isOpened():
            capture.release()
            raise CameraGone(f"cannot open {self.name}: is it plugged in, and is your user in the video group?")
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))  # 1080p at a usable rate over USB 2
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued a second ago
        self._capture = capture

    def grab(self) -> Image:
        if self._capture is None:
            raise CameraGone(f"{self.name} is not open")
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraGone(f"{self.name} gives no frames: unplugged?")
        return np.asarray(frame, np.uint8)

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


def _v4l2_index(device: str | int) -> int | None:
    """OpenCV's V4L2 capture takes /dev/videoN by its number (a udev name is followed to it); None: no such device."""
    if isinstance(device, int):
        device = f"/dev/video{device}"
    found = re.fullmatch(r"/dev/video(\d+)", os.path.realpath(device))
    return int(found.group(1)) if found and os.path.exists(device) else None


class MockCamera:
    """Frames of the virtual table: ``places()`` rendered by the scene renderer, from a fixed camera.

    A frame is rendered again only when the places change (a real camera's frames differ by their
    noise; the watcher's rules are tested on rendered games in tests and the benchmark).
    """

    def __init__(self, renderer: Renderer | None, places: Callable[[], Mapping[str, str]],
                 shot: Shot | None = None) -> None:
        self.renderer, self.places = renderer, places
        self.shot = shot or Shot(seed=7, focal_px=1400.0, tilt_deg=12.0, fill=0.55, noise=1.0, jpeg=92)
        self.name = "mock camera"
        self.plugged = True
        self._open = False
        self._last: tuple[tuple[Any, ...], Image] | None = None

    def unplug(self) -> None:
        self.plugged = False

    def plug(self) -> None:
        self.plugged = True

    def open(self) -> None:
        if not self.plugged:
            raise CameraGone(f"{self.name} is unplugged")
        self._open = True

    def grab(self) -> Image:
        if not self.plugged or not self._open:
            self._open = False
            raise CameraGone(f"{self.name} is unplugged")
        renderer = self.renderer
        if renderer is None:  # no game yet: an empty table
            return np.full((self.shot.height, self.shot.width, 3), 90, np.uint8)
        places = dict(self.places())
        key = (renderer.edition.id, *sorted(places.items()))
        if self._last is None or self._last[0] != key:
            self._last = (key, renderer.render(self.scene(renderer.plan, places)).image)
        return self._last[1]

    def scene(self, plan: Plan, places: Mapping[str, str]) -> Scene:
        """The pieces at their places: a square's centre, a room's spots shared out one piece each."""
        known = {m.name for m in plan.pieces}
        points = _points(plan, {piece: place for piece, place in places.items() if piece in known})
        return Scene({piece: places[piece] for piece in points}, self.shot, points)

    def close(self) -> None:
        self._open = False


def _points(plan: Plan, placements: Mapping[str, str]) -> dict[str, tuple[float, float]]:
    """Where each piece stands: a square's centre; in a room, a spot 1.5 squares from the others if there is one."""
    points: dict[str, tuple[float, float]] = {}
    for piece, place in sorted(placements.items()):
        spots = [(x, y) for name, x, y in plan.centres if name == place]
        if not spots:
            continue  # off the board (a place the layout has no centre for): not drawn
        free = [s for s in spots if all(math.dist(s, p) > 1.5 * plan.square_mm for p in points.values())]
        points[piece] = free[len(free) // 2] if free else spots[len(points) % len(spots)]
    return points


@dataclass(frozen=True)
class CameraStatus:
    """The camera as the host page shows it: up or down, why, since when, frames read per second."""

    state: str  # "up", "down" or "connecting"
    name: str
    reason: str | None = None
    since: float | None = None
    fps: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"state": self.state, "name": self.name, "reason": self.reason, "since": self.since,
                "fps": round(self.fps, 1)}


class CameraLink:
    """A camera watched on a thread: its events to ``sink`` (which must only enqueue)."""

    def __init__(self, camera: Camera, sink: Callable[[CameraEvent], None], *, timing: WatchTiming | None = None,
                 fps: float = 8.0) -> None:
        self.camera, self.sink = camera, sink
        self.period = 1.0 / fps
        self.watcher = Watcher(timing)
        self._plan: Plan | None = None
        self._lens: Lens | None = None
        self._finder: Any = None
        self._lock = threading.Lock()
        self._latest: tuple[Image, Reading | None, float] | None = None
        self._read_for: Plan | None = None  # the layout the latest frame was read for
        self._status = CameraStatus("connecting", camera.name)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._up = False
        self._times: list[float] = []

    def open(self) -> CameraLink:
        self._thread = threading.Thread(target=self._run, name="clue-camera", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.camera.close()

    def use(self, plan: Plan | None, lens: Lens | None = None) -> None:
        """Read frames against ``plan`` (a new game's edition) from now on; the next steady reading settles anew."""
        with self._lock:
            self._plan, self._lens = plan, lens
            self._finder = detector(plan.dictionary) if plan is not None else None
            self.watcher.reset()

    def latest(self) -> tuple[Image, Reading | None, float] | None:
        """The newest frame, its reading (None: no game to read it for) and when it was grabbed."""
        with self._lock:
            return self._latest

    def status(self) -> CameraStatus:
        with self._lock:
            return self._status

    # ---- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                if not self._up:
                    self.camera.open()
                    self._came_up()
                self._frame(self.camera.grab(), started)
            except CameraGone as err:
                self._went_down(str(err))
                self._stop.wait(RETRY)
                continue
            except Exception:  # a bad frame must not end the watching; the log has it
                LOG.exception("camera_frame_failed")
            self._stop.wait(max(0.0, self.period - (time.monotonic() - started)))

    def _frame(self, frame: Image, now: float) -> None:
        with self._lock:
            plan, lens, finder = self._plan, self._lens, self._finder
            last = self._latest if self._read_for is plan else None
        if plan is None:
            reading = None
        elif last is not None and last[0] is frame and last[1] is not None:
            reading = last[1]  # the same frame again (a mock's): its reading is known
        else:
            reading = read(frame, plan, lens, finder=finder)
        with self._lock:
            if self._plan is not plan:
                return  # a new game's layout came while this frame was read: it was read for the old one
            events = self.watcher.see(reading, now) if reading is not None else []
            self._latest, self._read_for = (frame, reading, time.time()), plan
            self._times = [t for t in (*self._times, now) if now - t < 5.0]
            fps = (len(self._times) - 1) / max(1e-6, self._times[-1] - self._times[0]) if len(self._times) > 1 else 0.0
            self._status = CameraStatus("up", self.camera.name, None, self._status.since, fps)
        for event in events:
            self.sink(event)

    def _came_up(self) -> None:
        self._up = True
        with self._lock:
            self.watcher.reset()
            self._status = CameraStatus("up", self.camera.name, None, time.time())
        self.sink(CameraUp(self.camera.name))

    def _went_down(self, reason: str) -> None:
        self.camera.close()
        with self._lock:
            self._latest = None  # a frame from before the camera went away says nothing now
            was = self._status
            if was.state != "down" or was.reason != reason:
                self._status = CameraStatus("down", self.camera.name, reason, time.time())
        if self._up or was.state == "connecting" or was.reason != reason:
            self.sink(CameraDown(reason))
        self._up = False
