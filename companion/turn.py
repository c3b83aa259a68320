"""The moving part of a turn: roll, move (or secret passage), end the turn."""

from __future__ import annotations


from . import movement, rng
from .actions import EndTurn, Move, Roll
from .errors import BadInput, IllegalMove, WrongPhase
from .events import Blocked, Event, Moved, Rolled, TurnStarted
from .places import is_room, resolve_place
from .state import GameState, Phase, Turn

Result = tuple[GameState, tuple[Event, ...]]


def destinations(state: GameState) -> frozenset[str]:
    """Where the player on turn may move now: passages before a roll, else the roll's reach."""
    seat, turn = state.turn.seat, state.turn
    board = state.edition.require_board()
    here = state.position(seat)
    if turn.phase is Phase.START:
        return frozenset(board.passages.get(here, ()))
    if turn.phase is Phase.MOVING and turn.roll is not None:
        return movement.destinations(board, here, turn.roll, state.occupied(seat))
    return frozenset()


def roll(state: GameState, action: Roll, seat: str) -> Result:
    if state.turn.phase is not Phase.START:
        raise WrongPhase(f"{seat} has already {_done(state.turn.phase)} this turn")
    if action.dice is None:
        faces, after = rng.dice(state.rng, state.edition.dice)
        state = state.evolve(rng=after)
    else:
        faces = _checked_dice(state, action.dice)
    state = state.evolve(turn=state.turn.evolve(phase=Phase.MOVING, dice=faces))
    events: tuple[Event, ...] = (Rolled(seat, faces, sum(faces)),)
    board = state.edition.require_board()
    if not movement.can_move(board, state.position(seat), sum(faces), state.occupied(seat)):
        # Blocked in: the mover stays, and the turn goes on without a move.
        state = state.evolve(turn=state.turn.evolve(phase=Phase.MOVED))
        events += (Blocked(seat),)
    return state, events


def move(state: GameState, action: Move, seat: str) -> Result:
    turn, board = state.turn, state.edition.require_board()
    here = state.position(seat)
    target = resolve_place(state.edition, action.to)
    if turn.phase is Phase.START:
        if not is_room(state.edition, target):
            raise IllegalMove(f"{seat} must roll before moving to {target}; without a roll only a secret passage is taken")
        if target not in board.passages.get(here, ()):
            raise IllegalMove(f"there is no secret passage from {here} to the {target}")
        via = "passage"
    elif turn.phase is Phase.MOVING and turn.roll is not None:
        if not movement.reaches(board, here, turn.roll, state.occupied(seat), target):
            raise IllegalMove(f"{seat} cannot reach {target} from {here} with a roll of {turn.roll}")
        via = "roll"
    else:
        raise WrongPhase(f"{seat} has already {_done(turn.phase)} this turn")
    entered = target if is_room(state.edition, target) else None
    left = here if is_room(state.edition, here) else None
    state = state.with_position(seat, target)
    state = state.evolve(turn=turn.evolve(phase=Phase.MOVED, entered=entered, left_room=left))
    return state, (Moved(seat, target, via),)


def end_turn(state: GameState, action: EndTurn, seat: str) -> Result:
    phase = state.turn.phase
    if phase is Phase.START:
        raise WrongPhase(f"{seat} must roll or take a secret passage before ending the turn")
    if phase is Phase.MOVING:
        raise WrongPhase(f"{seat} rolled {state.turn.roll} and must move before ending the turn")
    return pass_turn(state)


def pass_turn(state: GameState) -> Result:
    """Hand the turn clockwise to the next player still in the game."""
    following = next_seat(state)
    state = state.evolve(turn=Turn(following), summoned=state.summoned - {state.turn.seat})
    return state, (TurnStarted(following),)


def next_seat(state: GameState) -> str:
    """Who plays after the player on turn."""
    return next((s for s in state.clockwise_from(state.turn.seat) if s not in state.eliminated), state.turn.seat)


def _checked_dice(state: GameState, dice: tuple[int, ...]) -> tuple[int, ...]:
    count = state.edition.dice
    if len(dice) != count or not all(type(face) is int and 1 <= face <= 6 for face in dice):
        raise BadInput(f"dice must be {count} number(s) from 1 to 6, not {list(dice)}")
    return dice


def _done(phase: Phase) -> str:
    return {Phase.MOVING: "rolled", Phase.REFUTING: "suggested"}.get(phase, "moved")
