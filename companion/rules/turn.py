"""The moving part of a turn: roll, move (or secret passage), end the turn.

Editions differ here only through data: the number of dice and a question
face, the ``[movement]`` flags passed to :mod:`companion.rules.movement`, and the
marked squares of the map (snoop spaces stop a move part-way; bonus spaces
end it and draw a card).
"""

from __future__ import annotations

from . import movement, rng
from .actions import EndTurn, Move, Roll
from .bonus_cards import bonus_active, draw_card
from .edition import Movement
from .errors import BadInput, IllegalMove, WrongPhase
from .events import Blocked, Event, Moved, Rolled, TurnStarted
from .places import is_room, resolve_place
from .state import QUESTION, Face, GameState, Phase, Turn
from .suggestion import check_suggested

Result = tuple[GameState, tuple[Event, ...]]


def destinations(state: GameState) -> frozenset[str]:
    """Where the player on turn may move now: passages before a roll, else the roll's reach."""
    seat, turn = state.turn.seat, state.turn
    board = state.edition.require_board()
    here = state.position(seat)
    if turn.phase is Phase.START:
        return frozenset(board.passages.get(here, ())) - state.occupied(seat) - turn.used
    if turn.phase is Phase.MOVING and turn.roll:
        return movement.destinations(board, here, turn.roll, state.occupied(seat), *_rules(state))
    return frozenset()


def _rules(state: GameState) -> tuple[Movement, frozenset[str], tuple[str, ...]]:
    """The edition's movement rules, the places used this turn, the marks a move may stop on."""
    stops = ("snoop", "bonus") if bonus_active(state) else ("snoop",)
    return state.edition.movement, state.turn.used, stops


def roll(state: GameState, action: Roll, seat: str) -> Result:
    if state.turn.phase is not Phase.START:
        raise _already(seat, state.turn.phase)
    if action.dice is None:
        faces, after = _rolled(state)
        state = state.evolve(rng=after)
    else:
        faces = _checked_dice(state, action.dice)
    state = state.evolve(turn=state.turn.evolve(phase=Phase.MOVING, dice=faces, moves_left=None))
    steps = state.turn.roll or 0
    events: tuple[Event, ...] = (Rolled(seat, faces, steps),)
    if QUESTION in faces and bonus_active(state):
        # Doctor Who: "If you roll a question mark, immediately draw an Intrigue Card."
        state, drawn = draw_card(state, seat)
        events += drawn
        if state.turn.phase is not Phase.MOVING:
            return state, events  # the draw put the player out
    return _check_blocked(state, seat, events)


def _check_blocked(state: GameState, seat: str, events: tuple[Event, ...]) -> Result:
    """A mover with nowhere to go stays put, and the turn goes on without a move."""
    board = state.edition.require_board()
    steps = state.turn.roll or 0
    if steps == 0 or not movement.can_move(board, state.position(seat), steps, state.occupied(seat), *_rules(state)):
        state = state.evolve(turn=state.turn.evolve(phase=Phase.MOVED, moves_left=0))
        events += (Blocked(seat),)
    return state, events


def move(state: GameState, action: Move, seat: str) -> Result:
    turn = state.turn
    here = state.position(seat)
    target = resolve_place(state.edition, action.to)
    if turn.phase is Phase.START:
        return _passage(state, seat, here, target)
    if turn.phase is not Phase.MOVING or turn.roll is None:
        raise _already(seat, turn.phase)
    board = state.edition.require_board()
    used = movement.stop_steps(board, here, turn.roll, state.occupied(seat), target, *_rules(state))
    if used is None:
        raise IllegalMove("{seat} cannot reach {target} from {here} with {roll} to move", seat=seat, target=target,
                          here=here, roll=turn.roll)
    left = turn.roll - used
    gone = turn.used | ({here} if is_room(state.edition, here) else set())
    kind = board.marks.get(board.index[target]) if target in board.index else None
    state = state.with_position(seat, target)
    events: tuple[Event, ...] = (Moved(seat, target, "roll"),)
    if kind == "snoop" and left > 0:
        # Master Detective: stop on a snoop space part-way, snoop, then finish the roll
        # without going back over the way there (the fewest steps: the engine cannot know
        # another). If the whole roll could have ended there, the mover may also stay.
        way, whole = movement.way_to(board, here, turn.roll, state.occupied(seat), target, *_rules(state))
        state = state.evolve(turn=turn.evolve(moves_left=left, used=gone | set(way), snoop_at=target,
                                              left_room=turn.left_room or _room(state, here), may_stop=whole))
        return _check_blocked(state, seat, events)
    state = state.evolve(turn=turn.evolve(
        phase=Phase.MOVED, entered=target if is_room(state.edition, target) else None, moves_left=0,
        left_room=turn.left_room or _room(state, here), used=gone | {target},
        snoop_at=target if kind == "snoop" else None, may_stop=False,
    ))
    if kind == "bonus" and bonus_active(state):
        state, drawn = draw_card(state, seat)
        events += drawn
    return state, events


def _passage(state: GameState, seat: str, here: str, target: str) -> Result:
    """Before rolling: a secret passage or joining room to the place at its other end."""
    board = state.edition.require_board()
    if target in state.occupied(seat):
        raise IllegalMove("{target} is taken by another mover: a passage may not land on it", target=target)
    if target in state.turn.used:
        raise IllegalMove("{seat} has already been in the {target} this turn and may not go back",
                          seat=seat, target=target)
    if target not in board.passages.get(here, ()):
        if not is_room(state.edition, target) and here not in board.passages:
            raise IllegalMove(
                "{seat} must roll before moving to {target}; without a roll only a secret passage is taken",
                seat=seat, target=target,
            )
        raise IllegalMove("there is no secret passage from {here} to {target}", here=here, target=target)
    entered = target if is_room(state.edition, target) else None
    state = state.with_position(seat, target)
    turn = state.turn
    state = state.evolve(turn=turn.evolve(
        phase=Phase.MOVED, entered=entered, left_room=turn.left_room or _room(state, here),
        used=turn.used | {here, target},
    ))
    return state, (Moved(seat, target, "passage"),)


def _room(state: GameState, place: str) -> str | None:
    return place if is_room(state.edition, place) else None


def end_turn(state: GameState, action: EndTurn, seat: str) -> Result:
    phase = state.turn.phase
    if phase is Phase.START:
        raise WrongPhase("{seat} must roll or take a secret passage before ending the turn", seat=seat)
    if phase is Phase.MOVING and not state.turn.may_stop:
        raise WrongPhase("{seat} has {roll} to move and must move before ending the turn",
                         seat=seat, roll=state.turn.roll)
    check_suggested(state, seat, "ending the turn")
    return pass_turn(state)


def pass_turn(state: GameState) -> Result:
    """Hand the turn clockwise to the next player still in the game."""
    following = next_seat(state)
    ending = state.turn.seat
    state = state.evolve(turn=Turn(following), summoned=state.summoned - {ending}, may_draw=state.may_draw - {ending})
    return state, (TurnStarted(following),)


def next_seat(state: GameState) -> str:
    """Who plays after the player on turn."""
    return next((s for s in state.clockwise_from(state.turn.seat) if s not in state.eliminated), state.turn.seat)


def _rolled(state: GameState) -> tuple[tuple[Face, ...], int]:
    """The engine's roll; a question die shows "?" where a plain die shows 1."""
    faces, after = rng.dice(state.rng, state.edition.dice)
    shown: list[Face] = list(faces)
    if state.edition.question_die and shown[-1] == 1:
        shown[-1] = QUESTION
    return tuple(shown), after


def _checked_dice(state: GameState, dice: tuple[Face, ...]) -> tuple[Face, ...]:
    count, question = state.edition.dice, state.edition.question_die
    numbers = [face for face in dice if face != QUESTION]
    ok = len(dice) == count and all(type(face) is int and 1 <= face <= 6 for face in numbers)
    if question:
        ok = ok and len(dice) - len(numbers) <= 1
    elif len(numbers) != len(dice):
        ok = False
    if not ok:
        if question:
            raise BadInput('dice must be {count} number(s) from 1 to 6 (one may be "?"), not {dice}', count=count,
                           dice=list(dice))
        raise BadInput("dice must be {count} number(s) from 1 to 6, not {dice}", count=count, dice=list(dice))
    return dice


def _already(seat: str, phase: Phase) -> WrongPhase:
    """Why the turn is past rolling: one whole sentence per phase, so that each translates on its own."""
    if phase is Phase.MOVING:
        return WrongPhase("{seat} has already rolled this turn", seat=seat)
    if phase is Phase.REFUTING:
        return WrongPhase("{seat} has already suggested this turn", seat=seat)
    return WrongPhase("{seat} has already moved this turn", seat=seat)
