"""The whole companion on mock hardware: virtual board, board link, session, emulated handhelds.

``clue-companion run --mock``, the end-to-end tests and the session benchmark
all build this one rig. It also knows where every piece's tag is, so it can
play like people at a table: ``move("Miss Scarlet", "Lounge")`` lifts her
mover's tag and puts it on the Lounge's reader; ``tap("Rope", "Mr. Green")``
taps the Rope card on Mr. Green's pad; ``press("Mr. Green", "ok")`` presses a
button on his handheld.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from companion.rules.actions import Setup
from companion.rules.edition import Edition, load_edition
from companion.rules.engine import new_game
from companion.rules.errors import ClueError
from companion.rules.state import GameState
from companion.table.board_watch import expected_places
from companion.table.commands import NewGame, Resume, StartGame
from companion.table.fanout import View
from companion.table.resume import resume as resume_game
from companion.table.session import Session
from companion.table.store import Store
from companion.table.table import Outcome, Table
from companion.table.tags import Piece, TagMap
from companion.table.zones import ZoneMap
from hardware.board_core import BoardTiming
from hardware.board_link import BoardLink
from hardware.handheld import Handheld, open_handhelds
from hardware.hardware_config import EXAMPLE_CONFIG, HardwareConfig, load_hardware_config
from hardware.i2c_mock import MockI2CBus, mock_bus
from hardware.link_core import LinkTiming
from hardware.protocol import parse_uid
from hardware.link_events import LinkDown, LinkEvent
from hardware.table_link import LOGGER as BOARD_LOGGER
from hardware.table_link import to_commands
from hardware.virtual_board import VirtualBoard

READERS = 24  # enough for every edition's rooms, centre and pads
# Quick enough for tests and a responsive demo; a real board keeps the defaults.
FAST_LINK = LinkTiming(hello_retry=0.1, heartbeat=0.2, timeout=1.5, settle=0.02)
FAST_BOARD = BoardTiming(hello_retry=0.1, heartbeat=0.2, host_timeout=1.5, debounce=0.01)


class MockError(ClueError, ValueError):
    code = "mock"


def made_up_tags(edition: Edition) -> TagMap:
    """A tag for every piece, with UIDs that say what they are (04:kind:index:…).

    >>> made_up_tags(load_edition("classic")).piece("04:20:00:00:00:00:01")
    Piece(kind='mover', name='Miss Scarlet')
    """
    deck, pieces = edition.deck, {}
    kinds: tuple[tuple[int, str, tuple[str, ...]], ...] = (
        (0x10, "card", deck.all), (0x20, "mover", deck.suspects), (0x30, "weapon", deck.weapons))
    for code, kind, names in kinds:
        for at, name in enumerate(names):
            pieces[f"04:{code:02X}:{at:02X}:00:00:00:01"] = Piece(kind, name)  # type: ignore[arg-type]
    return TagMap(pieces)


def mock_config() -> HardwareConfig:
    """The example config's handheld wiring, and nothing else of it.

    Its ``[zones]`` are a Classic board's (a room such as the Ballroom is on no
    other edition's board), so the virtual board takes the default zones of
    whichever edition is played; it has no serial port, and the store is the caller's.
    """
    return replace(load_hardware_config(EXAMPLE_CONFIG), board_port=None, store=None, zones={})


class MockTable:
    """A table on mock hardware. ``open()``, drive it, ``close()`` (or use ``with``).

    With ``mock=False`` the same rig runs a real table: the board on the
    config's port (or found by USB ID) and the config's handhelds; the driving
    methods that touch the virtual board then refuse.
    """

    def __init__(self, store: Store, *, mock: bool = True, config: HardwareConfig | None = None,
                 display: str | None = "dummy",
                 link_timing: LinkTiming | None = None, board_timing: BoardTiming = FAST_BOARD,
                 join_url: Callable[[str], str | None] | None = None, handhelds: bool = True,
                 port: str | None = None,
                 log: logging.Logger | None = None, camera: bool = False) -> None:
        self.store = store
        self.mock = mock
        self.port = port  # a board elsewhere (a virtual board in another process): no virtual board here
        self.config = config or mock_config()
        self.display = display
        # The fast timing is for a virtual board, which heartbeats as fast; a real board keeps the
        # protocol's (a 1 s heartbeat, 3 s of silence before the link is down: docs/protocol.md).
        virtual = (mock and port is None) or port is not None
        self.link_timing = link_timing or (FAST_LINK if virtual else LinkTiming())
        self.board_timing = board_timing
        self.join_url = join_url
        self.with_handhelds = handhelds
        self.log = log
        self.handhelds: dict[str, Handheld] = {}
        self.problems: list[str] = []
        # On mock hardware, the handhelds' I2C bus: multiplexers, OLEDs and button expanders as configured.
        self.i2c: MockI2CBus | None = mock_bus(self.config.handhelds) if mock else None
        self.tags = TagMap()
        self.zones: ZoneMap | None = None
        self.edition: Edition | None = None
        self._opened: list[Any] = []
        self._closing = False  # set by close(): the board link's closing is not a fault
        self.with_camera = camera  # a camera over the board instead of the NFC board (companion/cli/camera_table.py)
        self.camera: Any = None

    # ---- life -------------------------------------------------------------------------------

    def open(self) -> MockTable:
        try:
            self.table = Table(store=self.store, signals=self, zone_specs=self.config.zones,
                               join_url=self.join_url, log=self.log)
            self.session = Session(self.table, log=self.log).start()
            self._opened.append(self.session)
            if self.with_camera:
                self._open_camera()
                return self
            port = self.port or self.config.board_port
            if self.mock and self.port is None:
                self.board = VirtualBoard(READERS, timing=self.board_timing).open()
                self._opened.append(self.board)
                port = self.board.port
            forward = to_commands(self.session.submit, lambda: self.link.tags)
            self.link = BoardLink(port, lambda event: self._from_board(event, forward), timing=self.link_timing)
            self.link.open()
            self._opened.append(self.link)
        except BaseException:
            self.close()
            raise
        return self

    def _open_camera(self) -> None:
        """The camera feeds the table; a board link only for NFC seat pads (``[camera] cards = "pads"``)."""
        from .camera_table import PADS, CameraTable

        self.camera = CameraTable(self.session, self.config.camera, mock=self.mock, log=self.log).open()
        self._opened.append(self.camera)
        if not self.camera.pads:
            return
        port = self.port or self.config.board_port
        if self.mock and self.port is None:
            self.board = VirtualBoard(PADS, timing=self.board_timing).open()
            self._opened.append(self.board)
            port = self.board.port
        forward = to_commands(self.session.submit, lambda: self.link.tags)
        pads = self.camera.pad_events(forward, logging.getLogger(BOARD_LOGGER))
        self.link = BoardLink(port, lambda event: self._from_board(event, pads), timing=self.link_timing)
        self.link.open()
        self._opened.append(self.link)

    def _from_board(self, event: LinkEvent, forward: Callable[[LinkEvent], None]) -> None:
        """The board's events to the session and the log; not the link's own closing as the rig closes.

        Closing the link says LinkDown("closed"), a warning when the board goes away; at a
        normal quit it is no news, so it is logged as the rig closing instead.
        """
        if self._closing and isinstance(event, LinkDown):
            logging.getLogger(BOARD_LOGGER).info("link_closed", extra={"fields": {"reason": event.reason}})
            return
        forward(event)

    def close(self) -> None:
        self._closing = True
        for handheld in self.handhelds.values():
            handheld.close()
        self.handhelds.clear()
        for part in reversed(self._opened):
            part.close()
        self._opened.clear()

    def __enter__(self) -> MockTable:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- the board's LEDs and buzzer (the table's signals go to the link) ---------------------

    def set_leds(self, mode: str, colour: tuple[int, int, int] = (0, 0, 0), leds: tuple[int, ...] = ()) -> None:
        if hasattr(self, "link"):  # a camera table with cards on the phones has no board
            self.link.set_leds(mode, colour, leds)

    def buzz(self, frequency: int, duration_ms: int) -> None:
        if hasattr(self, "link"):
            self.link.buzz(frequency, duration_ms)

    # ---- a game ------------------------------------------------------------------------------

    def new_game(self, edition: str, seats: Sequence[str], *, deal: str = "virtual", dice: str = "companion",
                 seed: int | None = 1, variant: str | None = None, bonus_cards: bool = True,
                 assistant: str = "off", bots: tuple[tuple[str, str], ...] = (), speech: bool = False) -> Outcome:
        """Open the table, enrol made-up tags if the store has none, give each seat a handheld."""
        chosen = self.edition = load_edition(edition)
        self.tags = self._on_session(lambda: self._ensure_tags(chosen))
        seed = secrets.randbits(32) if seed is None else seed
        if self.camera is not None:
            self.camera.prepare(chosen)
        outcome = self.session.call(NewGame(self.edition.id, tuple(seats), deal=deal, dice=dice, seed=seed,
                                            variant=variant, bonus_cards=bonus_cards, assistant=assistant,
                                            bots=bots, speech=speech))
        if not outcome.ok:
            if self.camera is not None:
                self.camera.carry_on()
            return outcome
        seated: tuple[str, ...] = self.session.inspect(lambda table: table.seats())
        self._seated(seated)
        if self.camera is not None:
            self._film(new_game(Setup(self.edition.id, seated, seed=seed, variant=variant,
                                      bonus_cards=bonus_cards))[0])
        elif self.mock and self.port is None:
            self._arrange(new_game(Setup(self.edition.id, seated, seed=seed, variant=variant,
                                         bonus_cards=bonus_cards))[0])
        return outcome

    def resume(self, game_id: int) -> Outcome:
        """Resume a stored game: (mock) its pieces laid out first, so the reconciliation finds them; handhelds."""
        state = self._on_session(lambda: resume_game(self.store, game_id))
        self.edition = state.edition
        self.tags = self._on_session(lambda: self._ensure_tags(state.edition))
        if self.camera is not None:
            self.camera.prepare(state.edition)
        elif self.mock and self.port is None:
            self.zones = ZoneMap.with_specs(state.edition, self.config.zones)
            self._arrange(state)
        outcome = self.session.call(Resume(game_id))
        if outcome.ok:
            self._seated(state.seats)
            if self.camera is not None:
                self._film(state)
        elif self.camera is not None:
            self.camera.carry_on()
        return outcome

    def _seated(self, seats: tuple[str, ...]) -> None:
        self.zones = self.session.inspect(lambda table: table.zones)
        if self.with_handhelds:
            self._open_handhelds(seats)

    def start(self) -> Outcome:
        return self.session.call(StartGame())

    def _on_session(self, work: Callable[[], Any]) -> Any:
        """Run ``work`` on the session thread, which owns the store; its exception is raised here."""
        result = self.session.inspect(lambda table: work())
        if isinstance(result, Exception):
            raise result
        return result

    def _ensure_tags(self, edition: Edition) -> TagMap:
        """The store's tags; on mock hardware, made-up tags for every piece if none are enrolled."""
        tags = self.store.tag_map(edition.id)
        if len(tags) == 0 and self.mock:
            for uid, piece in made_up_tags(edition).items():
                self.store.enrol(edition.id, uid, piece)
            tags = self.store.tag_map(edition.id)
        return tags

    def _film(self, state: GameState) -> None:
        """A camera table's game is open: the camera reads its edition; on mock hardware its pieces are laid out
        where the game has them (only those on the board) and the table waits for the camera's first reading."""
        places = {piece.name: place for piece, place in expected_places(state).items() if self._on_board(place)}
        self.camera.begin(state.edition, places if self.mock else None)
        if self.mock:
            self.camera.wait_settled()

    def _arrange(self, state: GameState) -> None:
        """Put every mover and weapon token where the game has them, and wait for the board to say so.

        Nothing here refuses (a new game's table is already open by then): a piece
        without a tag (a store enrolled by hand, in part) is simply not on the board.
        """
        places = expected_places(state)
        self._lift_others(places)
        for piece, place in places.items():
            if not self.tags.uids(piece):
                continue
            if self._on_board(place):
                self._put(piece, place)
            else:  # waiting off the board, as Master Detective's weapons do at the start
                self.board.remove(self.uid(piece))
        placed = len(self.board.core.placed)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if self.session.inspect(lambda table: table.board.link == "up"
                                    and sum(map(len, table.board.sensed.values())) >= placed):
                return
            time.sleep(0.01)

    def _lift_others(self, pieces: Iterable[Piece]) -> None:
        """Take off the virtual board every tag but these pieces': a game of another edition
        (the host page may open one after another) leaves movers this game has no use for."""
        mine = {parse_uid(uid) for piece in pieces for uid in self.tags.uids(piece)}
        for uid in set(self.board.core.placed) - mine:
            self.board.remove(uid)

    def _open_handhelds(self, seats: tuple[str, ...]) -> None:
        for handheld in self.handhelds.values():
            handheld.close()
        i2c = self.i2c
        units, self.problems = open_handhelds(self.config, seats, self.session.submit, display=self.display,
                                              pin_factory="mock" if self.mock else None,
                                              open_bus=None if i2c is None else lambda port: i2c)
        self.handhelds = {unit.seat: unit for unit in units}
        for unit in units:
            unit.start(self.session.subscribe(unit.seat))

    # ---- playing like people -----------------------------------------------------------------

    def uid(self, piece: Piece) -> str:
        uids = self.tags.uids(piece)
        if not uids:
            raise MockError(f"{piece.describe()} has no tag")
        return uids[0]

    def move(self, name: str, place: str) -> bool:
        """Move a suspect's mover (or a weapon token) to a room or a square.

        True if a reader senses it there; False for a place without one (a plain
        hallway square): the piece is then only lifted off the readers.
        """
        piece = self._piece(name)
        if self.camera is not None and self.mock:
            if not self._on_board(place):
                raise MockError(f"{place!r} is not a room or square of the {self._edition().name} board")
            return bool(self.camera.move(piece.name, place))
        return self._put(piece, place)

    def _put(self, piece: Piece, place: str) -> bool:
        if not self.mock or self.port is not None:
            raise MockError("this table's board is not the virtual board here: move the piece by hand")
        uid = self.uid(piece)
        reader = self._reader_for(place)
        if reader is None and not self._on_board(place):
            raise MockError(f"{place!r} is not a room or square of the {self._edition().name} board")
        self.board.remove(uid)
        if reader is not None:
            self.board.place(uid, reader)
        return reader is not None

    def _on_board(self, place: str) -> bool:
        """A room or square of the board (the engine also keeps pieces at off-board labels)."""
        board = self._edition().board
        return board is not None and (board.is_square(place) or place in board.rooms)

    def _reader_for(self, place: str) -> int | None:
        zones = self._zones()
        for reader in zones.readers():
            zone = zones.zone(reader)
            if zone is None:
                continue
            if (zone.kind in ("room", "centre") and zone.place == place) or (zone.kind == "space" and zone.square == place):
                return reader
        return None  # a hallway square without a reader: the piece is just off the readers

    def tap(self, card: str, seat: str | int) -> None:
        """Tap a card on a seat's pad (seat name or number), or on the centre with ``seat=0``."""
        if self.camera is not None and not self.camera.pads:
            raise MockError("cards are shown on the phones at this camera table: it has no pads to tap")
        zones, edition = self._zones(), self._edition()
        uid = self.uid(Piece("card", edition.deck.resolve(card)))
        number = seat if isinstance(seat, int) else self._seat_number(seat)
        reader = zones.pad(number) if number else next(
            (r for r in zones.readers() if (z := zones.zone(r)) is not None and z.kind == "centre"), None)
        if reader is None:
            raise MockError(f"no pad for seat {seat!r}")
        if not self.mock or self.port is not None:
            raise MockError("this table's board is not the virtual board here: tap the card by hand")
        self.board.place(uid, reader)
        self._until_sensed(uid, reader, True)  # a hand holds the card there until the table has seen it
        self.board.remove(uid)
        self._settle()

    def handheld_problems(self) -> list[str]:
        """Units that failed to open, then units failing now (display or buttons not answering)."""
        failing = [f"{unit.label}: not answering ({unit.error}); {seat} can play on the phone view"
                   for seat, unit in self.handhelds.items() if unit.error is not None]
        return self.problems + failing

    def press(self, seat: str, button: str) -> None:
        if seat not in self.handhelds:
            raise MockError(f"{seat} has no handheld: {', '.join(self.handhelds) or 'none open'}")
        self.handhelds[seat].press(button)

    def view(self, seat: str | None = None) -> View:
        """The view the session would publish for ``seat`` now (taken on the session thread)."""
        view: View = self.session.inspect(lambda table: table.view(seat))
        return view

    def applied(self, timeout: float = 10.0) -> None:
        """Wait until every command submitted so far (a press's) has been applied: the session takes
        commands in order, so a look queued after them returns after them."""
        self.session.inspect(lambda table: None, timeout)

    def caught_up(self, seat: str, timeout: float = 5.0) -> None:
        """Wait until ``seat``'s handheld draws the table's latest view for it (its presses applied), or the timeout.

        The console prints a screen right after a press: without this it could print the screen
        from before the session applied the press (the handheld redraws on its own thread).
        """
        unit = self.handhelds.get(seat)
        deadline = time.monotonic() + timeout
        while unit is not None and not unit.showing(self.view(seat)) and time.monotonic() < deadline:
            time.sleep(0.01)

    def wait_for(self, test: Callable[[View], bool], seat: str | None = None, timeout: float = 5.0) -> View:
        """Poll ``seat``'s view until ``test`` holds; raise with the last view if it never does."""
        deadline = time.monotonic() + timeout
        view = self.view(seat)
        while not test(view):
            if time.monotonic() > deadline:
                raise MockError(f"timed out waiting; last view: stage={view.get('stage')} "
                                f"phase={view.get('phase')} notice={view.get('notice')} board={view.get('board')}")
            time.sleep(0.01)
            view = self.view(seat)
        return view

    def _until_sensed(self, uid: str, reader: int, present: bool, timeout: float = 5.0) -> None:
        """Wait until the table senses ``uid`` on ``reader`` (or no longer does): on a busy machine the
        board's scan can take longer than a settle, and a tap lifted before it is never seen. (Lifting
        needs no wait: the next tap is another card, and the table takes each card once.)"""
        def sensed(table: Any) -> bool:
            return uid.upper() in {seen.upper() for seen in table.board.sensed.get(reader, ())}

        deadline = time.monotonic() + timeout
        while self.session.inspect(sensed) is not present and time.monotonic() < deadline:
            time.sleep(0.01)

    def _settle(self) -> None:
        time.sleep(self.link_timing.settle * 3 + self.board_timing.debounce + 0.03)

    def _piece(self, name: str) -> Piece:
        deck = self._edition().deck
        try:
            return Piece("mover", deck.resolve(name, "suspect"))
        except ClueError:
            return Piece("weapon", deck.resolve(name, "weapon"))

    def _seat_number(self, seat: str) -> int:
        seats: tuple[str, ...] = self.session.inspect(lambda table: table.seats())
        if seat not in seats:
            raise MockError(f"{seat!r} is not seated; seats: {', '.join(seats)}")
        return seats.index(seat) + 1

    def _zones(self) -> ZoneMap:
        if self.zones is None:
            raise MockError("open a game first")
        return self.zones

    def _edition(self) -> Edition:
        if self.edition is None:
            raise MockError("open a game first")
        return self.edition
