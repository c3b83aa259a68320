"""Random legal games, for tests, benchmarks and sample records.

Not a bot: it picks uniformly among legal choices, with just enough bias
(prefer rooms, accuse now and then, sometimes with the answer) that games are
varied and always end. Randomness comes from the ``random.Random`` passed in.

>>> import random
>>> record = random_game(random.Random(3))
>>> record[0]["type"], record[-1]["type"] in {"accuse"}
('setup', True)
"""

from __future__ import annotations

import random
from typing import Any

from companion.rules.actions import (Accuse, Action, Draw, EndTurn, Move, PlayCard, Roll, Setup, Show, Snoop, Suggest,
                                     UsePower)
from companion.rules.edition import Edition, load_edition
from companion.rules.engine import apply, legal_destinations, new_game
from companion.rules.errors import ClueError
from companion.rules.state import GameState, Phase
from companion.rules.views import seat_view


def random_setup(rand: random.Random, edition: Edition) -> Setup:
    """Random seats (count and clockwise order), seed, and now and then a variant."""
    count = rand.randint(edition.min_players, edition.max_players)
    seats = rand.sample(edition.deck.suspects, count)
    variant = "two_player" if count == 2 and "two_player" in edition.variants and rand.random() < 0.5 else None
    return Setup(edition.id, tuple(seats), seed=rand.randrange(2**32), variant=variant)


def random_game(rand: random.Random, edition_id: str = "classic", limit: int = 5000) -> list[dict[str, Any]]:
    """A complete game as record lines: the setup, then every action played."""
    setup = random_setup(rand, load_edition(edition_id))
    state, _ = new_game(setup)
    record: list[dict[str, Any]] = [setup.to_record()]
    for _ in range(limit):
        if state.over:
            return record
        action = choose(rand, state)
        state, _ = apply(state, action)
        record.append(action.to_record())
    raise ClueError("game did not end within {limit} actions", limit=limit)


def choose(rand: random.Random, state: GameState) -> Action:
    """A random legal action for whoever must act now."""
    turn = state.turn
    seat = turn.seat
    if turn.phase is Phase.REFUTING and turn.refutation and turn.refutation.asked:
        asked = turn.refutation.asked
        return Show(asked, rand.choice(seat_view(state, asked)["may_show"]))
    if turn.phase is Phase.OUT:
        return EndTurn(seat)
    extra = _extra(rand, state, seat)
    if extra is not None:
        return extra
    if turn.phase is Phase.START:
        return _start(rand, state, seat)
    if turn.phase is Phase.MOVING:
        return _move(rand, state, seat)
    if (turn.phase is Phase.MOVED and turn.entered in state.edition.deck.rooms and not turn.refutation
            and state.position(seat) == turn.entered):
        return _suggest(rand, state, seat)
    if _may_accuse(state, seat) and rand.random() < (0.15 if state.edition.accuse == "anywhere" else 0.6):
        return _accuse(rand, state, seat)
    return EndTurn(seat)


def _may_accuse(state: GameState, seat: str) -> bool:
    place = state.edition.accuse
    return place == "anywhere" or state.position(seat) == place


def _extra(rand: random.Random, state: GameState, seat: str) -> Action | None:
    """Now and then a snoop, a draw, a kept card or a power, if the rules accept it now."""
    turn = state.turn
    options: list[Action] = []
    others = [s for s in state.seats if s != seat]
    if turn.snoop_at is not None and turn.snoop_at == state.position(seat):
        options.append(Snoop(seat, rand.choice(others)))
    if seat in state.may_draw:
        options.append(Draw(seat))
    rooms = state.edition.require_board().rooms
    if state.bonus is not None:
        options += [PlayCard(seat, card, rand.choice(rooms), rand.choice(others)) for card in state.bonus.held_by(seat)]
    if seat in state.edition.powers and seat not in state.powers_used:
        options.append(UsePower(seat, rand.choice(rooms), rand.choice(others)))
    if not options or rand.random() < 0.5:
        return None
    action = rand.choice(options)
    try:
        apply(state, action)
    except ClueError:
        return None
    return action


def _start(rand: random.Random, state: GameState, seat: str) -> Action:
    passages = legal_destinations(state)
    if (seat in state.summoned and rand.random() < 0.5 and state.position(seat) in state.edition.deck.rooms
            and not state.turn.refutation):
        return _suggest(rand, state, seat)
    if passages and rand.random() < 0.3:
        return Move(seat, rand.choice(passages))
    faces: tuple[int | str, ...] = tuple(rand.randint(1, 6) for _ in range(state.edition.dice))
    if state.edition.question_die and faces[-1] == 1:
        faces = (*faces[:-1], "?")
    return Roll(seat, faces if rand.random() < 0.5 else None)


def _move(rand: random.Random, state: GameState, seat: str) -> Action:
    places = legal_destinations(state)
    goal = state.edition.accuse
    if goal in places and rand.random() < 0.3:
        return Move(seat, goal)  # head for the accusation space now and then
    rooms = [place for place in places if place in state.edition.require_board().rooms]
    return Move(seat, rand.choice(rooms if rooms and rand.random() < 0.8 else places))


def _suggest(rand: random.Random, state: GameState, seat: str) -> Action:
    deck = state.edition.deck
    return Suggest(seat, rand.choice(deck.suspects), rand.choice(deck.weapons))


def _accuse(rand: random.Random, state: GameState, seat: str) -> Action:
    if rand.random() < 0.3:
        return Accuse(seat, *state.envelope.cards())
    deck = state.edition.deck
    return Accuse(seat, rand.choice(deck.suspects), rand.choice(deck.weapons), rand.choice(deck.rooms))
