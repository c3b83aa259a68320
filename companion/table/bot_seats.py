"""Computer players filling seats at a real table.

The table asks :class:`BotSeats` for the next bot action after every command.
A bot learns only from its seat's redacted record. Where movers are sensed on a
board, a bot cannot lift its own mover: it asks a person ("Move Professor Plum
to the Study") and the sensed move, once made, is its move.

Bot seats are kept in the game's settings as ``"Professor Plum=expert,..."`` so
a resumed game keeps them.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from companion.language import N_
from companion.deduction.bots import LEVELS, Bot, Routes
from companion.rules.actions import Action, Move
from companion.rules.errors import BadInput
from companion.rules.state import GameState, Phase

from .wording import Words

MAX_IN_A_ROW = 2000  # actions bots may take before a person gets a word in (an all-bot game ends well before)
SLOW = 0.15  # seconds: once a decision took longer, bots decide on a helper thread so the table keeps answering
PENDING = "pending"  # next_action's answer while a decision is being worked out


def parse(text: str) -> dict[str, str]:
    """``"Seat=level,Seat=level"`` into {seat: level}."""
    result: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        seat, _, level = item.partition("=")
        result[seat.strip()] = level.strip()
    return result


def check(bots: Mapping[str, str], seats: Sequence[str], deal: str) -> str:
    """Validate bot seats; the settings text for them."""
    for seat, level in bots.items():
        if seat not in seats:
            raise BadInput(f"bot seat {seat!r} is not at the table; seats: {', '.join(seats)}")
        if level not in LEVELS:
            raise BadInput(f"bot level must be one of {', '.join(LEVELS)}, not {level!r}")
        if "," in seat or "=" in seat:
            raise BadInput(f"a bot's seat name cannot hold ',' or '=': {seat!r}")
    if bots and deal == "physical":
        raise BadInput("computer players need the companion to deal: nobody may hold a bot's cards")
    return ",".join(f"{seat}={level}" for seat, level in bots.items())


def actor(state: GameState) -> str:
    """Whose action the game waits for."""
    turn = state.turn
    if turn.phase is Phase.REFUTING and turn.refutation and turn.refutation.asked:
        return turn.refutation.asked
    return turn.seat


def move_prompt(seat: str, place: str, rooms: Sequence[str]) -> Words:
    """What a person is asked to do with a bot's mover, in a notice: "a computer player's move"."""
    if place in rooms:
        return Words(N_("Move {seat} to the {room} (a computer player's move)."), {"seat": seat, "room": place})
    return Words(N_("Move {seat} to square {square} (a computer player's move)."), {"seat": seat, "square": place})


@dataclass
class BotSeats:
    """The bots of one game, each fed its seat's record as it grows.

    A decision is remembered for its position (the log's length and the seat),
    so asking again, as the table does after every command while a person
    carries a bot's move, gives the same answer. A 10-player game's notebook
    can take seconds; once a decision took longer than :data:`SLOW`, and given
    ``wake`` (which makes the session ask again), later ones are worked out on
    a helper thread and :data:`PENDING` is the answer meanwhile.
    """

    bots: dict[str, Bot] = field(default_factory=dict)
    fed: dict[str, int] = field(default_factory=dict)
    waiting: tuple[str, str] | None = None  # (seat, place): a move asked of a person, not yet sensed
    slow: bool = False
    decided: tuple[tuple[int, str], Action | None] | None = None  # ((log length, seat), action)
    busy: bool = False  # a decision is being worked out on the helper thread
    lock: threading.Lock = field(default_factory=threading.Lock)
    pool: ThreadPoolExecutor | None = None

    @classmethod
    def for_game(cls, state: GameState, settings: Mapping[str, str]) -> BotSeats:
        routes = Routes(state.edition)
        chosen = parse(settings.get("bots", ""))
        return cls({seat: Bot.create(seat, level, state.edition, routes, random.Random(seat))
                    for seat, level in chosen.items() if seat in state.seats})

    def next_action(self, state: GameState, record: Callable[[str], list[dict[str, Any]]],
                    wake: Callable[[], None] | None = None) -> Action | None | str:
        """The bot's action if a bot is to act, None if not, or :data:`PENDING`."""
        if state.over:
            return None
        seat = actor(state)
        if seat not in self.bots:
            return None
        key = (len(state.log), seat)
        with self.lock:
            if self.busy:
                return PENDING
            if self.decided is not None and self.decided[0] == key:
                return self.decided[1]
            self.busy = wake is not None and self.slow
        seen = record(seat)  # taken here: the table's record cache belongs to its thread
        if not self.busy:
            return self._decide(key, seen, state)
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clue-bot")
        self.pool.submit(self._decide_later, key, seen, state, wake)
        return PENDING

    def _decide(self, key: tuple[int, str], seen: list[dict[str, Any]], state: GameState) -> Action:
        seat = key[1]
        started = time.perf_counter()
        bot = self.bots[seat]
        bot.observe(seen[self.fed.get(seat, 0):], "table")
        self.fed[seat] = len(seen)
        action = bot.choose(state)
        with self.lock:
            self.slow = time.perf_counter() - started > SLOW
            self.decided = (key, action)
        return action

    def _decide_later(self, key: tuple[int, str], seen: list[dict[str, Any]], state: GameState,
                      wake: Callable[[], None] | None) -> None:
        try:
            self._decide(key, seen, state)
        except Exception:  # a bug in a bot must not leave the table waiting for it forever
            logging.getLogger("clue_companion.bots").exception("bot %s could not decide", key[1])
            with self.lock:
                self.decided = (key, None)
        finally:
            with self.lock:
                self.busy = False
            if wake is not None:
                wake()

    def needs_hands(self, action: Action, sensed: Callable[[str], bool]) -> bool:
        """True if a person must carry this out: a move to a place the board senses.

        A move to an unsensed place (a hallway square with no reader) is taken
        at once, like a person's move entered on a handheld.
        """
        return isinstance(action, Move) and sensed(action.to)
