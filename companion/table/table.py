"""The table: one game and everything the companion knows around it.

:class:`Table` is the session's state machine, with no threads and no clock:
``handle(command) -> Outcome``. It turns sensor facts into engine actions
(through the tag map, the zone map and :mod:`companion.table.board_watch`), applies
them, commits each accepted action to the store *before* anything can show it,
and answers ``view(seat)`` with what that seat may see. The session
(:mod:`companion.table.session`) runs it on one thread and publishes the views.

>>> from companion.table.commands import NewGame, StartGame, Play
>>> from companion.rules.actions import Roll
>>> table = Table(seed_source=lambda: 7)
>>> table.handle(NewGame("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"))).ok
True
>>> table.handle(StartGame()).ok, table.stage
(True, 'playing')
>>> table.handle(Play("Colonel Mustard", Roll("Colonel Mustard"))).error["code"]
'not_your_turn'
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from companion.language import N_
from companion.language.boxes import boxes, resolve_variant
from companion.deduction.assistant import Assistants, check_mode, review
from companion.rules.actions import Action, EndTurn, Move, Roll, Show
from companion.rules.edition import Edition, load_edition
from companion.rules import movement
from companion.rules.engine import apply, new_game
from companion.rules.errors import BadInput, ClueError
from companion.rules.events import Event
from companion.rules.state import GameState, Phase
from companion.rules.views import event_for, public_view, seat_view

from . import board_watch, bot_seats
from .board_watch import MoveTo, PutBack
from .bot_seats import BotSeats
from .commands import (BoardDown, BoardUp, Command, Configure, EndGame, NewGame, Notify, Play, Resume, StartGame, Stop,
                       TagLost, TagSeen, Tick)
from .house import SETTING as HOUSE_SETTING
from .house import House
from .lobby import Lobby
from .resume import replay_game
from .store import Store, StoreError
from .tags import Piece, TagMap
from .wording import Wording, Words
from .zones import Zone, ZoneMap

View = dict[str, Any]
RED = (255, 0, 0)
DEFAULT_EDITION = "classic"  # the edition whose boxes of names a table without a game offers


class TableError(ClueError, ValueError):
    """A command that does not fit the table's stage (no game open, the board does not match...)."""

    code = "table"

    def __init__(self, code: str, message: str, /, **args: object) -> None:
        super().__init__(message, **args)
        self.code = code


class BoardSignals(Protocol):
    """The board's LEDs and buzzer (the board link, or nothing)."""

    def set_leds(self, mode: str, colour: tuple[int, int, int] = ..., leds: tuple[int, ...] = ...) -> None: ...

    def buzz(self, frequency: int, duration_ms: int) -> None: ...


@dataclass(frozen=True)
class Outcome:
    """What became of one command: accepted (with the events the sender may see) or refused."""

    ok: bool
    events: tuple[dict[str, Any], ...] = ()
    error: dict[str, str] | None = None
    refusal: ClueError | None = field(default=None, compare=False)  # the error itself: its template, to translate

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "events": list(self.events), "error": self.error}


@dataclass
class _Board:
    """What the sensors say, and what the players have been told to put right."""

    link: str = "none"
    reason: str | None = None  # why the link is down, for the host page only (it names devices and users)
    sensed: dict[int, set[str]] = field(default_factory=dict)
    refused: dict[Piece, PutBack] = field(default_factory=dict)
    differences: list[dict[str, Any]] = field(default_factory=list)  # board_watch.differences_data

    def frozen(self) -> dict[int, frozenset[str]]:
        return {reader: frozenset(uids) for reader, uids in self.sensed.items() if uids}


class _Records:
    """Each viewer's redacted record, extended as the log grows instead of redone for every view."""

    def __init__(self) -> None:
        self._log: tuple[Event, ...] = ()
        self._by_viewer: dict[str | None, list[dict[str, Any]]] = {}

    def for_viewer(self, log: tuple[Event, ...], viewer: str | None) -> list[dict[str, Any]]:
        known = len(self._log)
        if known and (len(log) < known or log[known - 1] is not self._log[-1]):
            self._by_viewer.clear()  # another game, or a resumed one: start again
        self._log = log
        record = self._by_viewer.setdefault(viewer, [])
        record.extend(event_for(event, viewer) for event in log[len(record):])
        return list(record)  # a copy: a published view must not grow later


class Table:
    """One table's game, from setup to game over. Not thread-safe: one thread drives it."""

    def __init__(self, *, store: Store | None = None, zone_specs: Mapping[int, str] | None = None,
                 signals: BoardSignals | None = None, seed_source: Callable[[], int] | None = None,
                 join_url: Callable[[str], str | None] | None = None, log: logging.Logger | None = None) -> None:
        self.store = store
        self.signals = signals
        self.zone_specs = dict(zone_specs or {})
        self.seed_source = seed_source or _random_seed
        self.join_url = join_url or (lambda seat: None)
        self.log = log or logging.getLogger("clue_companion.table")
        self.stage = "idle"
        self.lobby: Lobby | None = None
        self.state: GameState | None = None
        self.game_id: int | None = None
        # Games started or resumed at this table since it opened: tells two games apart where the
        # store's game_id cannot (no store: game_id is None; two games of one seed look alike).
        self.game_number = 0
        self.resumed = False  # the game under way came from the store: its past was played before this run
        self.settings: dict[str, str] = {"deal": "virtual", "dice": "companion", "assistant": "off"}
        self.tags = TagMap()
        self.zones: ZoneMap | None = None
        self.board = _Board()
        self.notices: dict[str | None, dict[str, Any]] = {}
        self._notice_id = 0
        self._records = _Records()
        self._assistants: Assistants | None = None
        self._review: tuple[int, list[dict[str, Any]]] | None = None
        self._bots = BotSeats()
        self._wording: tuple[tuple[Any, ...], Wording] | None = None  # kept while locale, names, edition stay
        self.wake: Callable[[], None] | None = None  # the session's: publish again (a slow notebook is ready)
        self.house = House.from_setting(store.setting(HOUSE_SETTING) if store is not None else None)
        self._run_only: dict[str, Any] = {}  # locale, names_variant: the stored value while this run's is not kept

    # ---- commands ------------------------------------------------------------------------------

    def handle(self, command: Command) -> Outcome:
        """Carry out one command; a refusal changes nothing and says why."""
        try:
            outcome = self._dispatch(command)
        except ClueError as err:
            seat = getattr(command, "seat", None)
            secret = isinstance(command, Play) and isinstance(command.action, Show)  # names a card in a hand
            self._log("refused", command=type(command).__name__, seat=seat, code=err.code,
                      message=None if secret else str(err))
            if isinstance(command, (Play, StartGame)):
                self.notify(seat if isinstance(seat, str) else None, self.wording().told(err), err.code, Words.of(err))
            return Outcome(False, error=err.as_dict(), refusal=err)
        if outcome.ok:
            self._drive_bots()
        return outcome

    def _drive_bots(self) -> None:
        """Let computer players act until a person is needed (their own refusals end their turn)."""
        for _ in range(bot_seats.MAX_IN_A_ROW):
            state = self.state
            if state is None or self.stage != "playing" or self.board.refused:
                return
            action = self._bots.next_action(state, lambda seat: self._records.for_viewer(state.log, seat), self.wake)
            if action is None or isinstance(action, str):
                return  # no bot to act, or one still thinking (the session is woken when it is done)
            seat = bot_seats.actor(state)
            if self._bots.needs_hands(action, self._senses):
                assert isinstance(action, Move)
                if self._bots.waiting != (seat, action.to):
                    self._bots.waiting = (seat, action.to)
                    prompt = bot_seats.move_prompt(seat, action.to, state.edition.deck.rooms)
                    self.tell(None, prompt, "bot_move")
                    self.tell(seat, prompt, "bot_move")
                return
            self._bots.waiting = None
            try:
                self._commit(seat, action, state)  # a bot's roll is the companion's, whatever the dice setting
            except ClueError as err:
                self._log("bot_refused", seat=seat, code=err.code, message=str(err))
                try:
                    self._commit(seat, EndTurn(seat), state)
                except ClueError:
                    return

    def _dispatch(self, command: Command) -> Outcome:
        match command:
            case Play():
                return self._play(command.seat, command.action)
            case TagSeen():
                return self._tag_seen(command.reader, command.uid)
            case TagLost():
                return self._tag_lost(command.reader, command.uid)
            case BoardUp():
                return self._board_up(command)
            case BoardDown():
                return self._board_down(command.reason)
            case NewGame():
                return self._new_game(command)
            case StartGame():
                return self._start()
            case Resume():
                return self._resume(command.game_id)
            case EndGame():
                return self._end()
            case Notify():
                self.notify(command.seat, command.text)
                return Outcome(True)
            case Configure():
                return self._configure(command)
            case Tick() | Stop():
                return Outcome(True)
        raise BadInput(f"unknown command {command!r}")

    def _new_game(self, command: NewGame) -> Outcome:
        if self.stage == "playing":
            raise TableError("game_in_progress", "a game is under way: end it before opening a new one")
        seed = command.seed if command.seed is not None else self.seed_source()
        lobby = Lobby.open(command.edition, command.seats, deal=command.deal, dice=command.dice, seed=seed,
                           variant=command.variant, bonus_cards=command.bonus_cards)
        self._use_edition(lobby.edition.id)
        self.lobby, self.state, self.game_id = lobby, None, None
        bots = bot_seats.check(dict(command.bots), lobby.seats, lobby.deal)
        self.stage, self.settings = "setup", lobby.settings() | {"assistant": check_mode(command.assistant)}
        if bots:
            self.settings["bots"] = bots
        self.notices.clear()
        self.house = self.house.changed(speech=command.speech)
        self._log("table_opened", edition=lobby.edition.id, seats=list(lobby.seats), **self.settings)
        return Outcome(True)

    def _configure(self, command: Configure) -> Outcome:
        edition = self.state.edition if self.state is not None else self.lobby.edition if self.lobby else None
        house = self.house.changed(locale=command.locale, house_names=command.house_names, speech=command.speech,
                                   cards=edition.deck.all if edition else ())
        house = house.changed(names_variant=self._variant(command, house, edition))
        for name in ("locale", "names_variant"):  # a run-only choice keeps the stored one aside, a kept one ends it
            if getattr(command, name) is not None or getattr(house, name) != getattr(self.house, name):
                if command.keep:
                    self._run_only.pop(name, None)
                else:
                    self._run_only.setdefault(name, getattr(self._kept(), name))
        self.house = house
        chosen = command.locale is not None or command.names_variant is not None
        if self.store is not None and ((chosen and command.keep) or command.house_names is not None):
            self.store.set_setting(HOUSE_SETTING, replace(self.house, **self._run_only).stored())
        self._log("table_configured", **self.house.as_dict())
        return Outcome(True)

    def _variant(self, command: Configure, house: House, edition: Edition | None) -> str | None:
        """The box of names after ``command``: the one asked for (checked against the edition and the locale),
        else the one kept while the locale still has it (a new locale without that box: its own names)."""
        edition = edition or load_edition(DEFAULT_EDITION)  # no game yet: the boxes of the edition a table opens
        if command.names_variant is not None:
            if not isinstance(command.names_variant, str):
                raise BadInput("names_variant must be text: a box of names such as 1990s")
            return resolve_variant(edition, house.locale, command.names_variant)
        if house.names_variant is None or any(box.variant == house.names_variant
                                              for box in boxes(edition, house.locale)):
            return house.names_variant
        return None

    def _kept(self) -> House:
        """The choices stored on purpose (a run-only locale or box never replaces them)."""
        stored = House.from_setting(self.store.setting(HOUSE_SETTING) if self.store is not None else None)
        return replace(stored, **self._run_only)

    def _start(self) -> Outcome:
        if self.stage != "setup" or self.lobby is None:
            raise TableError("no_table", "open a new game first (choose the edition and seats)")
        setup = self.lobby.setup()
        state, events = new_game(setup)
        if self.store is not None:
            self.game_id = self.store.new_game(setup, self.settings)
        self.state, self.lobby, self.stage = state, None, "playing"
        self.game_number, self.resumed = self.game_number + 1, False
        self._bots = BotSeats.for_game(state, self.settings)
        self._log("game_started", game_id=self.game_id, edition=setup.edition, seats=list(setup.seats))
        self._reconcile(Words(N_("The game starts.")))
        return Outcome(True, tuple(event_for(event, None) for event in events))

    def _resume(self, game_id: int) -> Outcome:
        if self.store is None:
            raise TableError("no_store", "there is no game store to resume from")
        if self.stage == "playing":
            raise TableError("game_in_progress", "a game is under way: end it before resuming another")
        summary = self.store.find(game_id)
        if summary is None:
            raise TableError("no_game", "there is no game {game_id} to resume", game_id=game_id)
        if summary.status == "abandoned":  # its record is closed: no action could be stored
            raise TableError("game_ended", "game {game_id} was ended; only an unfinished game can be resumed",
                             game_id=game_id)
        setup, actions, settings = self.store.load(game_id)
        state = replay_game(setup, actions)
        self._use_edition(setup.edition)
        self.state, self.lobby, self.game_id = state, None, game_id
        self.game_number, self.resumed = self.game_number + 1, True
        self.settings = {"deal": "virtual", "dice": "companion", "assistant": "off", **settings}
        self.stage = "over" if state.over else "playing"
        self._bots = BotSeats.for_game(state, self.settings)
        self.notices.clear()
        self._log("game_resumed", game_id=game_id, actions=len(actions))
        self._reconcile(Words(N_("Game {game_id} resumed after {count} actions."),
                              {"game_id": game_id, "count": len(actions)}))
        return Outcome(True)

    def _end(self) -> Outcome:
        if self.store is not None and self.game_id is not None and self.stage == "playing":
            try:
                self.store.finish(self.game_id, "abandoned")
            except StoreError as err:  # the table still ends: a game the store keeps open can be resumed
                self._log("store_refused_end", game_id=self.game_id, message=str(err))
        self._log("game_ended", game_id=self.game_id)
        self.stage, self.state, self.lobby, self.game_id = "idle", None, None, None
        self._bots = BotSeats()
        self.board.refused.clear()
        self.board.differences = []
        self.notices.clear()
        self._signal_clear()
        return Outcome(True)

    def _use_edition(self, edition_id: str) -> None:
        edition = load_edition(edition_id)
        if edition.board is not None:  # the movement tables now, so that no player's first move waits for them
            movement.prepare(edition.board, edition.movement, 6 * max(edition.dice, 1))
        self.zones = ZoneMap.with_specs(edition, self.zone_specs)
        self.tags = self.store.tag_map(edition.id) if self.store is not None else self.tags

    def use_tags(self, tags: TagMap) -> None:
        """Replace the tag map (enrolment happened, or a mock board's made-up tags)."""
        self.tags = tags

    # ---- playing -------------------------------------------------------------------------------

    def _play(self, seat: str, action: Action) -> Outcome:
        state = self._playing()
        if self.board.refused:
            first = next(iter(self.board.refused.values()))
            raise TableError("board_mismatch", "Waiting for the board. {correction}",
                             correction=first.words or first.text)
        if isinstance(action, Roll):
            self._check_dice(action)
        return self._commit(seat, action, state)

    def _playing(self) -> GameState:
        if self.stage == "setup":
            raise TableError("not_started", "the game has not started: finish the deal and start it")
        if self.state is None or self.stage == "idle":
            raise TableError("no_game", "no game is being played: open one and start it")
        return self.state

    def _check_dice(self, action: Roll) -> None:
        physical = self.settings.get("dice") == "physical"
        if physical and action.dice is None:
            raise TableError("dice_mode", "this game uses real dice: enter what you rolled")
        if not physical and action.dice is not None:
            raise TableError("dice_mode", "the companion rolls the dice in this game")

    def _commit(self, seat: str, action: Action, state: GameState) -> Outcome:
        """Apply, then store, then (the session) publish: a view never runs ahead of the store."""
        after, events = apply(state, action)
        if self.store is not None and self.game_id is not None:
            self.store.append(self.game_id, after.actions, action)
        self.state = after
        # The seat has moved on, and so has the table: their earlier refusals and hints are stale.
        # (The board's state has its own place in the view: link, corrections, differences.)
        for viewer in (seat, None):
            self.notices.pop(viewer, None)
        self._log("action", game_id=self.game_id, number=after.actions, **_public(action))
        if after.over:
            self.stage = "over"
            if self.store is not None and self.game_id is not None:
                self.store.finish(self.game_id, "finished", after.winner)
        self.board.differences = self._differences()
        return Outcome(True, tuple(event_for(event, seat) for event in events))

    # ---- sensing -------------------------------------------------------------------------------

    def _tag_seen(self, reader: int, uid: str) -> Outcome:
        self.board.sensed.setdefault(reader, set()).add(uid)
        zone = self.zones.zone(reader) if self.zones is not None else None
        piece = self.tags.piece(uid)
        outcome = Outcome(True)
        if zone is None or self.stage == "idle":
            return outcome
        if piece is None:
            self._unknown_tag(reader, uid, zone)
        elif piece.kind == "card":
            outcome = self._card_tapped(piece.name, zone)
        elif self.state is not None and self.stage == "playing":
            outcome = self._piece_seen(piece, zone, self.state)
        self._settle_board()
        return outcome

    def _tag_lost(self, reader: int, uid: str) -> Outcome:
        self.board.sensed.get(reader, set()).discard(uid)
        self._settle_board()
        return Outcome(True)

    def _board_up(self, command: BoardUp) -> Outcome:
        self.board.link, self.board.reason = "up", None
        self.board.sensed = {}
        for reader, uid in command.tags:
            self.board.sensed.setdefault(reader, set()).add(uid)
        self._settle_board()
        self._reconcile(Words(N_("Board connected.")))
        return Outcome(True)

    def _board_down(self, reason: str) -> Outcome:
        """The table is told once that the board is away; why (a device path, a user, a fix) is the host's."""
        if self.board.link != "down":
            lost = N_("Board disconnected: searching for it. The host page says why.")
            self.tell(None, Words(lost if self.board.link == "up"
                                  else N_("No board yet: searching for it. The host page says why.")), "board_down")
        self.board.link, self.board.reason = "down", reason
        return Outcome(True)

    def _unknown_tag(self, reader: int, uid: str, zone: Zone) -> None:
        words = Words(N_("Unknown tag {uid} on {zone}'s reader: enrol it with clue-companion enroll."),
                      {"uid": uid, "zone": zone.words()})
        self.tell(self._pad_seat(zone), words, "unknown_tag")

    def _card_tapped(self, card: str, zone: Zone) -> Outcome:
        seat = self._pad_seat(zone)
        if self.stage == "setup" and self.lobby is not None and self.lobby.deal == "physical":
            if seat is not None:
                self.lobby = self.lobby.scan(seat, card)
            elif zone.kind == "centre":
                self.lobby = self.lobby.scan_face_up(card)
            return Outcome(True)
        state = self.state
        if seat is None or state is None or self.stage != "playing":
            return Outcome(True)
        asking = state.turn.refutation
        if state.turn.phase is Phase.REFUTING and asking is not None and asking.asked == seat:
            return self.handle(Play(seat, Show(seat, card)))
        self.tell(seat, Words(N_("No card to show now: {card} was not used."), {"card": card}))
        return Outcome(True)

    def _piece_seen(self, piece: Piece, zone: Zone, state: GameState) -> Outcome:
        assert self.zones is not None  # a zone was found, so the map exists
        verdict = board_watch.judge(state, self.zones, piece, zone)
        if isinstance(verdict, MoveTo):
            if self.board.refused:
                return Outcome(True)  # the game waits; looked at again once the board matches
            return self.handle(Play(verdict.seat, Move(verdict.seat, verdict.place)))
        if isinstance(verdict, PutBack):
            self._refuse(verdict)
        return Outcome(True)

    def _refuse(self, verdict: PutBack) -> None:
        assert self.zones is not None and self.state is not None
        self.board.refused[verdict.piece] = verdict
        owner = verdict.piece.name if verdict.piece.kind == "mover" and verdict.piece.name in self.state.seats \
            else None
        for seat in {owner, None}:
            self.tell(seat, verdict.words or Words("{text}", {"text": verdict.text}), "put_back")
        self._log("put_back", piece=verdict.piece.describe(), text=verdict.text)
        if self.signals is not None:
            self.signals.set_leds("blink", RED, board_watch.signal_for(self.zones, verdict))
            self.signals.buzz(220, 400)

    def _settle_board(self) -> None:
        """Drop corrections the board now agrees with; once none is left, look again at the mover."""
        state, zones = self.state, self.zones
        if state is None or zones is None:
            return
        seen, _ = board_watch.sightings(self.board.frozen(), zones, self.tags)
        had = bool(self.board.refused)
        for piece in list(self.board.refused):
            if board_watch.agrees(state, zones, piece, seen.get(piece, frozenset())):
                del self.board.refused[piece]
        if had and not self.board.refused:
            self._signal_clear()
            for seat, notice in list(self.notices.items()):
                if notice.get("code") in ("put_back", "board_mismatch"):  # the correction has done its job
                    del self.notices[seat]
            self.tell(None, Words(N_("The board matches the game again.")))
            self._rejudge_mover(state, zones, seen)
        self.board.differences = self._differences()

    def _rejudge_mover(self, state: GameState, zones: ZoneMap, seen: Mapping[Piece, frozenset[Zone]]) -> None:
        """A legal move made while the game waited is taken now the board matches."""
        if self.stage != "playing":
            return
        mover = Piece("mover", state.turn.seat)
        zones_seen = seen.get(mover, frozenset())
        if len(zones_seen) == 1 and not board_watch.agrees(state, zones, mover, zones_seen):
            self._piece_seen(mover, next(iter(zones_seen)), state)

    def _signal_clear(self) -> None:
        if self.signals is not None:
            self.signals.set_leds("off")

    def _reconcile(self, opening: Words) -> None:
        """Compare the sensed board with the game's and tell the table what differs."""
        self.board.differences = self._differences()
        if self.board.link != "up" or self.state is None:
            self.tell(None, opening)
            return
        differences = tuple(board_watch.words_for_viewer(entry, None) for entry in self.board.differences)
        if differences:
            self.tell(None, Words(N_("{opening} The board differs in {count} place(s): {differences}"),
                                  {"opening": opening, "count": len(differences), "differences": differences}))
        else:
            self.tell(None, Words(N_("{opening} The board matches the game."), {"opening": opening}))
        self._log("reconciled", differences=[board_watch.for_viewer(entry, None) for entry in self.board.differences])

    def _senses(self, place: str) -> bool:
        """True if the connected board has a reader that would see a mover arrive at ``place``."""
        return self.board.link == "up" and self.zones is not None and bool(self.zones.readers_for(place))

    def _differences(self) -> list[dict[str, Any]]:
        if self.state is None or self.zones is None or self.board.link != "up":
            return []
        return board_watch.differences_data(self.state, self.zones, self.tags, self.board.frozen(), parts=True)

    def _pad_seat(self, zone: Zone) -> str | None:
        seats = self.state.seats if self.state is not None else self.lobby.seats if self.lobby is not None else ()
        if zone.kind == "seat" and zone.seat is not None and 1 <= zone.seat <= len(seats):
            return seats[zone.seat - 1]
        return None

    # ---- telling people ------------------------------------------------------------------------

    def notify(self, seat: str | None, text: str, code: str | None = None, words: Words | None = None) -> None:
        """Leave ``text`` for ``seat`` (None: the table); the newest notice replaces the last.

        With ``words`` (``text`` as a message), the notice also has its
        ``template`` and ``args``, so a reader in another language can word it.
        """
        self._notice_id += 1
        notice: dict[str, Any] = {"text": text, "code": code, "id": self._notice_id}
        if words is not None:
            notice.update(words.as_dict())
        self.notices[seat] = notice

    def tell(self, seat: str | None, words: Words, code: str | None = None) -> None:
        """:meth:`notify` ``words``, said in the table's language."""
        self.notify(seat, self.wording().say(words), code, words)

    def wording(self) -> Wording:
        """The table's language and spelling of the cards (:mod:`companion.table.wording`)."""
        edition = self.state.edition if self.state is not None else self.lobby.edition if self.lobby else None
        key = (self.house.locale, tuple(sorted(self.house.house_names.items())), edition.id if edition else None,
               self.house.names_variant)
        if self._wording is None or self._wording[0] != key:
            self._wording = (key, Wording.for_table(key[0], key[2], self.house.house_names, key[3]))
        return self._wording[1]

    def seats(self) -> tuple[str, ...]:
        if self.state is not None:
            return self.state.seats
        return self.lobby.seats if self.lobby is not None else ()

    def view(self, seat: str | None) -> View:
        """What ``seat`` (None: the table) may see now; never another seat's secrets."""
        if self.state is not None:
            record = self._records.for_viewer(self.state.log, seat)
            base = seat_view(self.state, seat, record) if seat is not None else public_view(self.state, record)
            if seat is not None:  # the table view never carries a notebook
                base["assistant"] = self._assistant(self.state, seat, record)
            base["review"] = self._game_review(self.state)
        elif self.lobby is not None:
            base = self.lobby.view(seat)
        else:
            base = {"seat": seat, "seats": [], "phase": "idle", "turn": None, "hand": []}
        base.update(self._session_keys(seat))
        return base

    def _assistant(self, state: GameState, seat: str, record: list[dict[str, Any]]) -> dict[str, Any] | None:
        if self._assistants is None or self._assistants.deck is not state.edition.deck:
            self._assistants = Assistants(state.edition.deck, wake=self.wake)
        return self._assistants.view(seat, record, self.settings.get("assistant", "off"))

    def _game_review(self, state: GameState) -> list[dict[str, Any]] | None:
        """After game over: when each seat could first have accused with certainty (computed once).

        With the session's ``wake``, it is worked out on a helper thread (a
        10-player game's takes a while) and is null in the views until ready.
        """
        if not state.over:
            return None
        if self._review is None or self._review[0] != len(state.log):
            key = len(state.log)
            records = {seat: self._records.for_viewer(state.log, seat) for seat in state.seats}
            public = self._records.for_viewer(state.log, None)  # what the review may name: everyone sees it
            self._review = (key, [])
            if self.wake is None:
                self._reviewed(key, review(state.edition.deck, records, public))
            else:
                threading.Thread(target=lambda: self._reviewed(key, review(state.edition.deck, records, public)),
                                 name="clue-review", daemon=True).start()
        return self._review[1] or None

    def _reviewed(self, key: int, result: list[dict[str, Any]]) -> None:
        if self._review is not None and self._review[0] == key:
            self._review = (key, result)
            if self.wake is not None:
                self.wake()

    def _session_keys(self, seat: str | None) -> View:
        edition = self.state.edition if self.state is not None else self.lobby.edition if self.lobby else None
        wording = self.wording()
        corrections = [verdict.words or Words("{text}", {"text": verdict.text})
                       for verdict in self.board.refused.values()]
        differences = [board_watch.words_for_viewer(entry, seat) for entry in self.board.differences]
        return {
            "stage": self.stage,
            "link": self.board.link,
            "board": {"waiting": bool(self.board.refused),  # sentences in the table's language, and their parts
                      "corrections": [wording.say(words) for words in corrections],
                      "correction_parts": [words.as_dict() for words in corrections],
                      "differences": [wording.say(words) for words in differences],
                      "difference_parts": [words.as_dict() for words in differences]},
            "notice": self.notices.get(seat),
            "settings": dict(self.settings),
            "join_url": self.join_url(seat) if seat is not None else None,
            "game_id": self.game_id,
            "game_number": self.game_number,
            "resumed": self.resumed,
            "edition_cards": {"suspects": list(edition.deck.suspects), "weapons": list(edition.deck.weapons),
                              "rooms": list(edition.deck.rooms)} if edition else None,
            "dice_count": edition.dice if edition else 0,
            "question_die": bool(edition and edition.question_die),  # the last die shows "?" for 1
            "house": self.house.as_dict(),  # locale, house names, speech, box of names: companion.table.house
        }

    def _log(self, event: str, **fields: Any) -> None:
        self.log.info(event, extra={"fields": fields})


def _public(action: Action) -> dict[str, Any]:
    """An action as a log line may carry it: which card was shown is the two seats' secret."""
    record = action.to_record()
    if isinstance(action, Show):
        record.pop("card", None)
    return record


def _random_seed() -> int:
    return secrets.randbits(32)
