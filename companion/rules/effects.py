"""What bonus cards and personality powers do: each effect named in the edition data.

Effects act on the player whose turn it is. Those that need a choice take it
from the action (``room`` or ``target``) and refuse it with a clear error when
it is missing or wrong.
"""

from __future__ import annotations

from . import rng
from .accusation import eliminate
from .errors import BadInput, IllegalMove, WrongPhase
from .events import Event, HandRevealed, Moved, Snooped
from .places import is_room, resolve_place
from .state import GameState, Phase, Seen

Result = tuple[GameState, tuple[Event, ...]]


def apply_effect(state: GameState, seat: str, effect: str, room: str | None, target: str | None, via: str) -> Result:
    if effect == "move_to_room":
        return _move_to_room(state, seat, room, via)
    if effect == "roll_again":
        return _roll_again(state, seat)
    if effect == "peek_left":
        left = next((s for s in state.clockwise_from(seat) if state.hand(s)), None)
        return peek(state, seat, left) if left is not None else (state, ())
    if effect == "peek":
        return peek(state, seat, _opponent(state, seat, target))
    if effect == "swap_places":
        return _swap(state, seat, target)
    raise BadInput("{effect!r} cannot be played; it happens only when drawn", effect=effect)


def peek(state: GameState, seat: str, target: str) -> Result:
    """``seat`` sees one of ``target``'s cards, drawn blind (seeded), privately."""
    hand = state.hand(target)
    if not hand:
        raise WrongPhase("{target} holds no cards to look at", target=target)
    pick, after = rng.below(state.rng, len(hand))
    card = hand[pick]
    state = state.evolve(rng=after, seen=state.seen + (Seen(seat, card, target),))
    return state, (Snooped(seat, target, card),)


def pocketwatch(state: GameState, seat: str, card_id: str) -> Result:
    """A Pocketwatch lies face up; the last of them puts its drawer out and goes back in the pile."""
    deck, bonus = state.edition.bonus, state.bonus
    assert deck is not None and bonus is not None
    total = sum(card.count for card in deck.cards if card.effect == "pocketwatch")
    if len(bonus.watches) + 1 < total:
        return state.evolve(bonus=bonus.evolve(watches=bonus.watches + (card_id,))), ()
    at, after = rng.below(state.rng, len(bonus.pile) + 1)
    pile = bonus.pile[:at] + (card_id,) + bonus.pile[at:]
    state = state.evolve(rng=after, bonus=bonus.evolve(pile=pile), revealed=state.revealed + (seat,))
    events: tuple[Event, ...] = (HandRevealed(seat, state.hand(seat)),)
    state, out = eliminate(state, seat)
    return state, events + out


def _opponent(state: GameState, seat: str, target: str | None) -> str:
    if target is None:
        raise BadInput("this effect needs a \"target\": the player whose card to see")
    chosen = state.seat_named(target)
    if chosen == seat:
        raise BadInput("{seat} cannot look at their own cards this way", seat=seat)
    return chosen


def _move_to_room(state: GameState, seat: str, room: str | None, via: str) -> Result:
    """Straight into a room of the player's choice, as if entered: a suggestion may follow."""
    turn = state.turn
    if room is None:
        raise BadInput("this effect needs a \"room\" to move to")
    place = resolve_place(state.edition, room)
    if place not in state.edition.deck.rooms:
        # Only the scenes of the crime: the Centre must still be reached on foot.
        raise IllegalMove("{place} is not one of the rooms on the cards", place=place)
    here = state.position(seat)
    if place == here:
        raise IllegalMove("{seat} is already in the {place}", seat=seat, place=place)
    if place in turn.used:
        raise IllegalMove("{seat} has already been in the {place} this turn and may not go back",
                          seat=seat, place=place)
    if turn.refutation is not None or turn.phase not in (Phase.START, Phase.MOVING, Phase.MOVED):
        raise WrongPhase("{seat} has already made a suggestion this turn; moving now would allow another", seat=seat)
    state = state.with_position(seat, place)
    left = turn.left_room or (here if is_room(state.edition, here) else None)
    state = state.evolve(turn=turn.evolve(
        phase=Phase.MOVED, entered=place, left_room=left, moves_left=0, used=turn.used | {here, place}, snoop_at=None,
    ))
    return state, (Moved(seat, place, via),)


def _roll_again(state: GameState, seat: str) -> Result:
    """After moving, roll and move once more; a suggestion already made still counts."""
    turn = state.turn
    if turn.phase not in (Phase.MOVED, Phase.SUGGESTED):
        raise WrongPhase("{seat} may roll again only after moving", seat=seat)
    return state.evolve(turn=turn.evolve(phase=Phase.START, dice=None, moves_left=None, entered=None, snoop_at=None)), ()


def _swap(state: GameState, seat: str, target: str | None) -> Result:
    if target is None:
        raise BadInput("this effect needs a \"target\": the suspect whose mover to swap places with")
    other = state.edition.deck.resolve(target, "suspect")
    mine, theirs = state.position(seat), state.position(other)
    if other == seat or mine == theirs:
        raise IllegalMove("{seat} and {other} are already in the same place", seat=seat, other=other)
    if state.turn.phase not in (Phase.START, Phase.MOVED, Phase.SUGGESTED):
        raise WrongPhase("{seat} must finish moving before swapping places", seat=seat)
    state = state.with_position(seat, theirs).with_position(other, mine)
    if other in state.seats and mine in state.edition.deck.rooms:
        # "If your mover was moved by another player since your last turn, you can ...
        # ask a question without moving."
        state = state.evolve(summoned=state.summoned | {other})
    return state, (Moved(seat, theirs, "swap"), Moved(other, mine, "swap"))
