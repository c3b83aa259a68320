"""Bot-only games: ``clue-companion simulate --edition E --bots N --games K --seed S``.

Levels rotate round the seats from game to game, so no level keeps the first
turn. Prints win rates by level, the average number of turns and games per second.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass

from companion.deduction.bots import LEVELS, Bot, Routes
from companion.rules.actions import EndTurn, Setup
from companion.rules.edition import Edition, load_edition
from companion.rules.engine import apply, new_game
from companion.rules.errors import ClueError
from companion.rules.events import Event
from companion.rules.state import GameState, Phase
from companion.rules.views import event_for
from companion.table.bot_seats import actor

LIMIT = 4000  # actions: a game still going after this many is counted unfinished


class UsageError(ClueError):
    code = "usage"


@dataclass(frozen=True)
class Outcome:
    levels: dict[str, str]  # seat -> level
    winner: str | None  # the winning seat; None if everyone was out or the game ran too long
    turns: int
    finished: bool

    @property
    def winning_level(self) -> str | None:
        return self.levels[self.winner] if self.winner else None


def play(edition: Edition, levels: list[str], seed: int) -> Outcome:
    """One bot-only game, seats in the edition's suspect order, each with its level."""
    seats = edition.deck.suspects[: len(levels)]
    rand = random.Random(seed)
    state, events = new_game(Setup(edition.id, seats, seed=rand.randrange(2**32)))
    routes = Routes(edition)
    bots = {seat: Bot.create(seat, level, edition, routes, random.Random(rand.randrange(2**32)))
            for seat, level in zip(seats, levels)}
    _tell(bots, events, 1)
    turns = 0
    for number in range(2, LIMIT + 2):
        if state.over:
            break
        state, events = _act(state, bots[actor(state)])
        turns += sum(1 for event in events if event.type == "turn_started")
        _tell(bots, events, number)
    winner = state.winner if state.over else None
    return Outcome(dict(zip(seats, levels)), winner, turns, state.over)


def _act(state: GameState, bot: Bot) -> tuple[GameState, tuple[Event, ...]]:
    action = bot.choose(state)
    try:
        return apply(state, action)
    except ClueError as err:
        if state.turn.phase is Phase.REFUTING:
            raise
        # A bot's plan the rules refuse (say, a move into a room it just left): end the turn instead.
        try:
            return apply(state, EndTurn(bot.seat))
        except ClueError:
            raise err from None


def _tell(bots: dict[str, Bot], events: tuple[Event, ...], number: int) -> None:
    for seat, bot in bots.items():
        bot.observe((event_for(event, seat) for event in events), f"line {number}")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    simulate = commands.add_parser("simulate", help="play bot-only games and report win rates by level")
    simulate.add_argument("--edition", default="classic",
                          help="classic, master_detective, big_bang_theory or doctor_who (default classic)")
    simulate.add_argument("--bots", type=int, default=3, help="players per game, all bots (default 3)")
    simulate.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    simulate.add_argument("--seed", type=int, default=0, help="the same seed plays the same games (default 0)")
    simulate.add_argument("--levels", default="expert,random",
                          help=f"comma-separated levels, given round the seats ({', '.join(LEVELS)})")
    simulate.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    edition = load_edition(args.edition)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or not levels:
        raise UsageError(f"unknown level {', '.join(unknown) or '(none)'}; levels: {', '.join(LEVELS)}")
    if not edition.min_players <= args.bots <= edition.max_players:
        raise UsageError(f"{edition.name} seats {edition.min_players} to {edition.max_players} players, "
                         f"not {args.bots}")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    started = time.perf_counter()
    outcomes = [play(edition, [levels[(seat + game) % len(levels)] for seat in range(args.bots)], args.seed + game)
                for game in range(args.games)]
    print(report(outcomes, time.perf_counter() - started))
    return 0


def report(outcomes: list[Outcome], seconds: float) -> str:
    """Win rates by level (wins per seat played), average turns, games per second."""
    played = Counter(level for outcome in outcomes for level in outcome.levels.values())
    wins = Counter(outcome.winning_level for outcome in outcomes if outcome.winner)
    lines = [f"{'level':<10}{'seats':>8}{'wins':>8}{'win rate':>10}"]
    for level in sorted(played):
        lines.append(f"{level:<10}{played[level]:>8}{wins[level]:>8}{wins[level] / played[level]:>10.1%}")
    no_winner = sum(1 for outcome in outcomes if outcome.finished and not outcome.winner)
    unfinished = sum(1 for outcome in outcomes if not outcome.finished)
    turns = sum(outcome.turns for outcome in outcomes) / len(outcomes)
    lines.append(f"games: {len(outcomes)}, no winner: {no_winner}, unfinished: {unfinished}, "
                 f"average turns: {turns:.1f}, games per second: {len(outcomes) / seconds:.2f}")
    return "\n".join(lines)
