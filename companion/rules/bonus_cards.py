"""Bonus decks: Sheldon Cards (Big Bang Theory) and Intrigue Cards (Doctor Who).

A card is drawn on landing on a bonus space, on rolling Doctor Who's "?" face,
and (where the edition allows) by a player a rumour brought into a room, who
asks for it with a ``draw`` action. A "now" card takes effect as drawn; a
"keep" card is held and played later with ``play_card``. Pocketwatches lie
face up; whoever draws the last of them is out, lays their hand face up, and
that watch is shuffled back into the pile.
"""

from __future__ import annotations

from . import rng
from .actions import Draw, PlayCard
from .edition import BonusDeck
from .errors import BadInput, WrongPhase
from .events import CardPlayed, Drew, Event
from .state import Bonus, GameState

Result = tuple[GameState, tuple[Event, ...]]


def bonus_active(state: GameState) -> bool:
    """True when this game plays with a bonus deck (never in the two-player variant)."""
    return state.bonus is not None


def _deck(state: GameState) -> tuple[BonusDeck, Bonus]:
    deck, bonus = state.edition.bonus, state.bonus
    if deck is None or bonus is None:
        raise WrongPhase("this game is played without a bonus deck")
    return deck, bonus


def draw(state: GameState, action: Draw, seat: str) -> Result:
    """The optional draw owed to a player brought into a room by someone's rumour."""
    deck, _ = _deck(state)
    if seat not in state.may_draw:
        raise WrongPhase("{seat} has no {deck} to draw now", seat=seat, deck=deck.name)
    state = state.evolve(may_draw=state.may_draw - {seat})
    return draw_card(state, seat)


def draw_card(state: GameState, seat: str) -> Result:
    """Draw the top card for ``seat``; a "now" card takes effect at once."""
    from .effects import apply_effect, pocketwatch

    deck, bonus = _deck(state)
    if not bonus.pile and deck.reshuffle and bonus.discard:
        pile, after = rng.shuffled(state.rng, bonus.discard)
        bonus, state = bonus.evolve(pile=pile, discard=()), state.evolve(rng=after)
    if not bonus.pile:
        return state.evolve(bonus=bonus), ()  # the pile has run out: nothing to draw
    card_id, bonus = bonus.pile[0], bonus.evolve(pile=bonus.pile[1:])
    state = state.evolve(bonus=bonus)
    card = deck.card(card_id)
    events: tuple[Event, ...] = (Drew(seat, deck.name, card_id),)
    if card.effect == "pocketwatch":
        state, more = pocketwatch(state, seat, card_id)
        return state, events + more
    if card.when == "keep":
        return state.evolve(bonus=bonus.evolve(held=bonus.held + ((seat, card_id),))), events
    state, more = apply_effect(state, seat, card.effect, None, None, "card")
    return _discard(state, card_id), events + more


def play_card(state: GameState, action: PlayCard, seat: str) -> Result:
    """Play a kept card: its effect, then it goes to the discard pile."""
    from .effects import apply_effect

    deck, bonus = _deck(state)
    held = bonus.held_by(seat)
    card_id = next((c for c in held if c == action.card_id), None)
    card_id = card_id or next((c for c in held if deck.card(c).id == action.card_id), None)
    if card_id is None:
        if not held:
            raise BadInput("{seat} holds no {deck} {card!r}; held: none", seat=seat, deck=deck.name,
                           card=action.card_id)
        raise BadInput("{seat} holds no {deck} {card!r}; held: {held}", seat=seat, deck=deck.name, card=action.card_id,
                       held=", ".join(held))
    effect = deck.card(card_id).effect
    state, events = apply_effect(state, seat, effect, action.room, action.target, "card")
    kept = list(bonus.held)
    kept.remove((seat, card_id))
    state = state.evolve(bonus=bonus.evolve(held=tuple(kept)))
    return _discard(state, card_id), (CardPlayed(seat, card_id), *events)


def _discard(state: GameState, card_id: str) -> GameState:
    bonus = state.bonus
    assert bonus is not None
    return state.evolve(bonus=bonus.evolve(discard=bonus.discard + (card_id,)))
