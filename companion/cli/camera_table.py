"""A camera over the board feeding the table, as the board link does (``run --camera``, ``run --mock --camera``).

The camera's events become the board link's commands, so the table judges them the same way
(:mod:`companion.table.board_watch`): each piece has a tag (the made-up UIDs of the mock rig, never
stored), each room its first room reader, each hallway square a reader of its own
(``CAMERA_READERS + square number``, a ``space`` zone). So a mover seen on a new square is
``TagLost`` where it was and ``TagSeen`` there: a legal move becomes the engine's ``Move``, an
illegal one a "put it back" on the table screen. The first steady reading is ``BoardUp`` with every
piece seen; the camera unplugged is ``BoardDown`` (the table says so; the game waits, nothing lost)
and plugged back, a new ``BoardUp`` reconciles the board with the game.

Cards (``[camera] cards``): ``phones`` (no board at all), or ``pads``: six NFC seat pads on a board
link, readers 0-5 being seats 1-6; the pad board's coming and going is the host page's, not the table's
(the camera is the table's board).

The host's camera panel asks :meth:`CameraTable.panel` for the newest frame drawn over
(:mod:`hardware.camera.overlay`), downscaled to JPEG in memory, at most every ``PANEL_EVERY`` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import cv2

from companion.rules.edition import Edition
from companion.table.commands import BoardDown, BoardUp, Command, TagLost, TagSeen
from companion.table.tags import Piece, TagMap
from companion.table.zones import ZoneMap
from hardware.camera.calibration import Calibration
from hardware.camera.device import Camera, CameraLink, MockCamera, PiCamera, Webcam
from hardware.camera.layout import CORNER_NAMES, Plan, corner_rooms, layout
from hardware.camera.overlay import draw
from hardware.camera.read import Reading
from hardware.camera.scene import Renderer
from hardware.camera.watcher import CameraDown, CameraEvent, PieceAt, PieceUnseen, Settled
from hardware.hardware_config import CameraConfig
from hardware.link_events import LinkEvent, TagPlaced, TagRemoved
from hardware.table_link import log_event

if TYPE_CHECKING:
    from companion.table.session import Session

CAMERA_READERS = 1000  # hallway square n is reader 1000 + n: far above any board's readers
PADS = 6  # seat pads on a pad board, readers 0-5
PANEL_WIDTH = 960  # px: the host panel's frame
PANEL_EVERY = 0.5  # s: at most two frames a second are drawn and encoded, however often the page asks
LOGGER = "clue_companion.camera"


def camera_specs(edition: Edition, pads: bool) -> dict[int, str]:
    """The table's zone specs at a camera table: every hallway square a reader, and the pads' readers 0-5."""
    board = edition.require_board()
    specs = {CAMERA_READERS + number: f"space:{square}" for square, number in board.index.items()}
    if pads:
        specs.update({reader: f"seat:{reader + 1}" for reader in range(PADS)})
    return specs


def camera_tags(edition: Edition) -> dict[str, Piece]:
    """A tag for each mover and weapon (the mock rig's made-up UIDs, never stored)."""
    from .mock_table import made_up_tags

    return {uid: piece for uid, piece in made_up_tags(edition).items() if piece.kind != "card"}


def open_camera(config: CameraConfig, mock: bool, places: Callable[[], Mapping[str, str]]) -> Camera:
    """The configured device, or on mock hardware a camera filming the virtual table's ``places``."""
    size = (config.width, config.height)
    if mock:
        return MockCamera(None, places)
    if config.device == "webcam":
        return Webcam(config.path, size)
    return PiCamera(config.number, size)


class CameraTable:
    """The camera (and the pads, if any) wired to a session; see the module's note."""

    def __init__(self, session: Session, config: CameraConfig, *, mock: bool,
                 log: logging.Logger | None = None) -> None:
        self.session, self.config, self.mock = session, config, mock
        self.log = log or logging.getLogger(LOGGER)
        self.places: dict[str, str] = {}  # the virtual table (mock): piece -> room or square
        self.camera = open_camera(config, mock, lambda: dict(self.places))
        self.link = CameraLink(self.camera, self._event, fps=config.fps)
        self.edition: Edition | None = None
        self._readers: dict[str, int] = {}
        self._uids: dict[str, str] = {}
        self._seen: dict[str, int] = {}  # piece -> the reader the table was told it is on
        self._paused = False  # a game is being opened: the camera's news waits for its layout
        self._held: list[CameraEvent] = []  # what it said meanwhile, for the game on the table if none opens
        self._lock = threading.Lock()
        self._panel: tuple[float, bytes, dict[str, Any]] | None = None

    @property
    def pads(self) -> bool:
        return self.config.cards == "pads"

    def open(self) -> CameraTable:
        self.link.open()
        return self

    def close(self) -> None:
        self.link.close()

    # ---- a game ----------------------------------------------------------------------------

    def prepare(self, edition: Edition) -> None:
        """Before the table opens a game of ``edition``: its zones are the camera's; no news meanwhile."""
        with self._lock:
            self._paused = True
        specs = camera_specs(edition, self.pads)
        self.session.inspect(lambda table: setattr(table, "zone_specs", specs))

    def carry_on(self) -> None:
        """The game was not opened after all: the game on the table gets what the camera said meanwhile."""
        edition = self.edition
        if edition is not None:
            specs = camera_specs(edition, self.pads)
            self.session.inspect(lambda table: setattr(table, "zone_specs", specs))
        with self._lock:
            self._paused, held, self._held = False, self._held, []
        for event in held:  # logged when they came
            for command in self._commands(event):
                self.session.submit(command)

    def begin(self, edition: Edition, places: Mapping[str, str] | None = None) -> None:
        """The game is open: its pieces' tags on the table, the camera reading its layout (mock: pieces laid out)."""
        tags = camera_tags(edition)
        self.session.inspect(lambda table: table.use_tags(TagMap({**dict(table.tags.items()), **tags})))
        zones = ZoneMap.with_specs(edition, camera_specs(edition, self.pads))
        board = edition.require_board()
        readers = {square: CAMERA_READERS + number for square, number in board.index.items()}
        readers.update({room: reader for room in board.rooms if (reader := zones.room_reader(room)) is not None})
        plan = Plan.of(layout(edition, self.config.square_mm))
        with self._lock:
            self.edition, self._readers, self._seen, self._paused, self._held = edition, readers, {}, False, []
            self._uids = {piece.name: uid for uid, piece in tags.items()}
        if self.mock and isinstance(self.camera, MockCamera):
            self.places = dict(places or {})
            if self.camera.renderer is None or self.camera.renderer.edition.id != edition.id:
                self.camera.renderer = Renderer(edition, self.config.square_mm)
        calibration = Calibration(self.config.focal_px, self.config.centre_px, self.config.distortion,
                                  self.config.square_mm)
        self.link.use(plan, calibration.lens(self.config.width, self.config.height))

    def move(self, piece: str, place: str) -> bool:
        """Mock: put a piece on the virtual table (the camera sees every place)."""
        self.places[piece] = place
        return True

    def wait_settled(self, timeout: float = 10.0) -> bool:
        """Wait until the table has the camera's first steady reading (True) or the timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.session.inspect(lambda table: table.board.link == "up"):
                return True
            time.sleep(0.05)
        return False

    # ---- events to commands (on the camera's thread: only enqueue) -------------------------

    def _event(self, event: CameraEvent) -> None:
        self._log(event)
        for command in self._commands(event):
            self.session.submit(command)

    def _commands(self, event: CameraEvent) -> list[Command]:
        with self._lock:
            if isinstance(event, CameraDown):
                return [BoardDown(event.reason)]
            if self._paused:
                self._held.append(event)
                return []
            if isinstance(event, Settled):
                self._seen = {piece: self._readers[place] for piece, place in event.places.items()
                              if place in self._readers and piece in self._uids}
                tags = frozenset((reader, self._uids[piece]) for piece, reader in self._seen.items())
                return [BoardUp(len(self._readers), tags)]
            if isinstance(event, PieceAt) and event.piece in self._uids and event.place in self._readers:
                uid, reader = self._uids[event.piece], self._readers[event.place]
                before = self._seen.get(event.piece)
                self._seen[event.piece] = reader
                lost: list[Command] = [TagLost(before, uid)] if before is not None and before != reader else []
                return [*lost, TagSeen(reader, uid)]
        return []  # CameraUp waits for a steady reading; an unseen piece stays where it was

    def _log(self, event: CameraEvent) -> None:
        fields = event.as_dict()
        name = str(fields.pop("event"))
        level = logging.WARNING if isinstance(event, CameraDown) else \
            logging.DEBUG if isinstance(event, PieceAt | PieceUnseen) else logging.INFO
        self.log.log(level, name, extra={"fields": fields})

    # ---- the seat pads ---------------------------------------------------------------------

    def pad_events(self, forward: Callable[[LinkEvent], None], logger: logging.Logger) -> Callable[[LinkEvent], None]:
        """The pad board's events: taps to the table; its link up or down only logged (the host page shows it)."""
        def sink(event: LinkEvent) -> None:
            if isinstance(event, TagPlaced | TagRemoved):
                forward(event)
            else:
                log_event(logger, event)
        return sink

    # ---- the host's panel ------------------------------------------------------------------

    def panel(self) -> tuple[bytes, dict[str, Any]] | None:
        """The newest frame with the outline and labels, as JPEG, and what the page says of it (None: no frame)."""
        now = time.monotonic()
        with self._lock:
            cached = self._panel
        if cached is not None and now - cached[0] < PANEL_EVERY:
            return cached[1], cached[2]
        latest = self.link.latest()
        if latest is None:
            return None
        frame, reading, _ = latest
        image = draw(frame, reading) if reading is not None else frame
        scale = PANEL_WIDTH / image.shape[1]
        small = cv2.resize(image, (PANEL_WIDTH, round(image.shape[0] * scale)), interpolation=cv2.INTER_AREA) \
            if scale < 1 else image
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if not ok:
            return None
        facts = self._facts(reading, (frame.shape[1], frame.shape[0]))
        with self._lock:
            self._panel = (now, data.tobytes(), facts)
        return data.tobytes(), facts

    def status(self) -> dict[str, Any]:
        return self.link.status().as_dict()

    def _facts(self, reading: Reading | None, size: tuple[int, int]) -> dict[str, Any]:
        """What the panel says: each missing corner (its room, covered or out of the picture, which way to move)."""
        facts: dict[str, Any] = {"status": self.status(), "board_found": bool(reading and reading.board_found),
                                 "pieces": dict(reading.pieces) if reading else {},
                                 "unseen": list(reading.unseen) if reading else [], "corners": []}
        if reading is None or not reading.board_found:
            return facts
        width, height = size
        for corner in reading.missing_corners:
            x, y = reading.outline[corner]
            inside = 0 <= x < width and 0 <= y < height
            ways = [way for way, beyond in (("up", y < 0), ("down", y >= height), ("left", x < 0),
                                            ("right", x >= width)) if beyond]
            facts["corners"].append({"corner": corner, "position": CORNER_NAMES[corner], "room": self._room_at(corner),
                                     "problem": "covered" if inside else "outside", "ways": ways})
        return facts

    def _room_at(self, corner: int) -> str | None:
        """The room in a corner of the board (the Study corner), if a room lies there."""
        return None if self.edition is None else corner_rooms(self.edition)[corner]


