"""Views: the only ways state leaves the engine.

``public_view`` is what the table screen may show; ``seat_view`` adds what one
seat alone may know: its hand, the cards shown to it, and the cards inside the
events it took part in. No view holds another seat's hand, a card shown
between two other seats, or the envelope before the game is over.

>>> from companion.rules.actions import Setup
>>> from companion.rules.engine import new_game
>>> state, _ = new_game(Setup("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), seed=7))
>>> view = seat_view(state, "Mrs. White")
>>> view["turn"], len(view["hand"]), view["solution"]
('Miss Scarlet', 6, None)
"""

from __future__ import annotations

from typing import Any

from .errors import UnknownSeat
from .events import CardsDealt, CardShown, Event, SideCardSeen, Snooped
from .state import GameState, Phase, Seen
from .suggestion import owed_suggestion
from .turn import destinations

View = dict[str, Any]


def event_for(event: Event, viewer: str | None) -> dict[str, Any]:
    """An event as ``viewer`` may see it (None: anyone at the table)."""
    data = event.to_dict()
    if isinstance(event, CardShown) and viewer not in (event.by, event.to):
        del data["card"]
    elif isinstance(event, CardsDealt) and viewer != event.seat:
        del data["cards"]
    elif isinstance(event, (Snooped, SideCardSeen)) and viewer != event.seat:
        del data["card"]  # what a snoop or a side card showed is the looker's alone
    return data


def public_view(state: GameState, record: list[dict[str, Any]] | None = None) -> View:
    """What everyone at the table may see.

    ``record`` is the log as :func:`event_for` gives it to this viewer, when
    the caller keeps it up to date itself (the session does: redoing a long
    log for every view was most of a view's cost).
    """
    return _view(state, None, record)


def seat_view(state: GameState, seat: str, record: list[dict[str, Any]] | None = None) -> View:
    """What one seat may see: the public view plus its own secrets."""
    if seat not in state.seats:
        raise UnknownSeat("{name!r} is not seated; seats: {seats}", name=seat, seats=", ".join(state.seats))
    return _view(state, seat, record)


def _view(state: GameState, seat: str | None, record: list[dict[str, Any]] | None = None) -> View:
    deck, turn = state.edition.deck, state.turn
    return {
        "edition": state.edition.id,
        "seat": seat,
        "seats": list(state.seats),
        "hand": list(state.hand(seat)) if seat else [],
        "face_up": list(state.face_up),
        "shown_to_me": [{"by": s.by, "card": s.card} for s in state.shown if seat and s.to == seat],
        "turn": None if state.over else turn.seat,
        "phase": turn.phase.value,
        "dice": list(turn.dice) if turn.dice else None,
        "position": dict(zip(deck.suspects, state.positions)),
        "weapons": dict(zip(deck.weapons, state.weapons)),
        "legal_destinations": sorted(destinations(state)) if not state.over else [],
        "suggestion": _suggestion(state),
        "may_show": _may_show(state, seat),
        "eliminated": list(state.eliminated),
        "hand_sizes": {s: len(hand) for s, hand in zip(state.seats, state.hands)},
        "record": record if record is not None else [event_for(event, seat) for event in state.log],
        "winner": state.winner,
        "solution": _solution(state),
        "actions": state.actions,
        "variant": state.variant,
        "moves_left": turn.roll if turn.phase is Phase.MOVING else None,
        "snoop_at": turn.snoop_at,
        "seen": [_seen(item) for item in state.seen if seat and item.seat == seat],
        "side_cards": len(state.aside),
        "revealed": {s: list(state.hand(s)) for s in state.revealed},
        "bonus": _bonus(state),
        "may_draw": sorted(state.may_draw),
        "powers": _powers(state),
        # the room the player on turn must suggest in before ending the turn or accusing (must_suggest editions)
        "must_suggest": None if state.over else owed_suggestion(state, turn.seat),
    }


def _seen(item: Seen) -> dict[str, Any]:
    if item.source == "aside":
        return {"from": "aside", "index": item.index, "card": item.card}
    return {"from": item.source, "card": item.card}


def _bonus(state: GameState) -> dict[str, Any] | None:
    """The bonus deck is public: its size, the face-up Pocketwatches, who keeps which card."""
    deck, bonus = state.edition.bonus, state.bonus
    if deck is None or bonus is None:
        return None
    held: dict[str, list[str]] = {}
    for seat, card in bonus.held:
        held.setdefault(seat, []).append(card)
    return {"name": deck.name, "pile": len(bonus.pile), "discard": list(bonus.discard),
            "watches": len(bonus.watches), "held": held}


def _powers(state: GameState) -> dict[str, dict[str, Any]]:
    return {
        seat: {"name": power.name, "text": power.text, "used": seat in state.powers_used}
        for seat, power in state.edition.powers.items()
        if seat in state.seats
    }


def _suggestion(state: GameState) -> dict[str, Any] | None:
    asking = state.turn.refutation
    if asking is None:
        return None
    s = asking.suggestion
    return {"suggester": s.suggester, "suspect": s.suspect, "weapon": s.weapon, "room": s.room,
            "asked": asking.asked}


def _may_show(state: GameState, seat: str | None) -> list[str]:
    """The named cards ``seat`` holds, when it is the one asked to show."""
    asking = state.turn.refutation
    if seat is None or asking is None or asking.asked != seat or state.turn.phase is not Phase.REFUTING:
        return []
    return [card for card in asking.suggestion.cards() if card in state.hand(seat)]


def _solution(state: GameState) -> dict[str, str] | None:
    if not state.over:
        return None
    env = state.envelope
    return {"suspect": env.suspect, "weapon": env.weapon, "room": env.room}
