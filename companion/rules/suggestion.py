"""Suggestions and their answers: bring the tokens in, then refute clockwise.

Starting on the suggester's left, a seat holding none of the three named cards
passes automatically. Depending on the edition the first seat that holds one
must show one card of its choice (``refute = "first"``), or every seat is asked
in turn (``"every"``). A shown card goes to the suggester alone.
"""

from __future__ import annotations

from typing import Literal

from .actions import Pass, Show, Suggest
from .errors import CannotShow, MustShow, MustSuggest, NotInRoom, NotYourTurn, WrongPhase
from .events import CardShown, Event, Moved, NoRefutation, Passed, RefuteRequested, SideCardSeen, Suggested, WeaponMoved
from .places import is_room
from .state import GameState, Phase, Refutation, Seen, Shown, Suggestion

Result = tuple[GameState, tuple[Event, ...]]


def suggest(state: GameState, action: Suggest, seat: str) -> Result:
    room = _suggestion_room(state, seat)
    deck = state.edition.deck
    suspect = deck.resolve(action.suspect, "suspect")
    weapon = deck.resolve(action.weapon, "weapon")
    events: list[Event] = [Suggested(seat, suspect, weapon, room)]
    if state.position(suspect) != room:
        state = state.with_position(suspect, room)
        events.append(Moved(suspect, room, "suggestion"))
        if suspect in state.seats and suspect != seat:
            state = state.evolve(summoned=state.summoned | {suspect})
            bonus = state.edition.bonus
            if (bonus is not None and bonus.summoned_may_draw and state.bonus is not None
                    and suspect not in state.eliminated):
                # Doctor Who: "Moved to a Location as part of someone starting a rumor: you may draw a card."
                state = state.evolve(may_draw=state.may_draw | {suspect})
    if state.weapons[deck.weapons.index(weapon)] != room:
        state = state.with_weapon(weapon, room)
        events.append(WeaponMoved(weapon, room))
    asking = Refutation(Suggestion(seat, suspect, weapon, room), None, state.clockwise_from(seat))
    state, answers = _ask_on(state, asking)
    return state, (*events, *answers)


def show(state: GameState, action: Show, seat: str) -> Result:
    asking = state.turn.refutation
    if state.turn.phase is not Phase.REFUTING or asking is None or asking.asked is None:
        raise WrongPhase("no suggestion is waiting for a card")
    if seat != asking.asked:
        raise NotYourTurn("{asked} must answer the suggestion now, not {seat}", asked=asking.asked, seat=seat)
    card = state.edition.deck.resolve(action.card)
    named = asking.suggestion.cards()
    if card not in named:
        suspect, weapon, room = named  # each its own argument, so that the reader's names spell each card
        raise CannotShow("{card} was not named; the suggestion was {suspect}, {weapon}, {room}", card=card,
                         suspect=suspect, weapon=weapon, room=room)
    if card not in state.hand(seat):
        raise CannotShow("{seat} does not hold {card}", seat=seat, card=card)
    suggester = asking.suggestion.suggester
    state = state.evolve(shown=state.shown + (Shown(seat, suggester, card),))
    queue = asking.queue if state.edition.refute == "every" else ()
    state, more = _ask_on(state, asking.evolve(asked=None, queue=queue, shown=True))
    return state, (CardShown(seat, suggester, card), *more)


def pass_(state: GameState, action: Pass, seat: str) -> Result:
    """'I cannot answer': refused from a holder; from anyone else it was already said for them."""
    asking = state.turn.refutation
    if asking is None:
        raise WrongPhase("there is no suggestion to answer")
    suggestion = asking.suggestion
    if seat == suggestion.suggester:
        raise NotYourTurn("{seat} made the suggestion and does not answer it", seat=seat)
    if set(suggestion.cards()) & set(state.hand(seat)):
        if state.turn.phase is not Phase.REFUTING:
            raise WrongPhase("the suggestion has already been answered")
        raise MustShow("{seat} holds a card named in the suggestion and must show one", seat=seat)
    return state, ()


def owed_suggestion(state: GameState, seat: str) -> str | None:
    """The room ``seat`` entered by a move this turn and must suggest in before ending or accusing, if any.

    Only editions whose rulebook says so (``must_suggest``: "If you entered a room, you must
    stop and ask a CLUE question"); a room where no suggestion may be made owes none.
    """
    turn = state.turn
    if not state.edition.must_suggest or turn.seat != seat or turn.phase is not Phase.MOVED:
        return None
    here = state.position(seat)
    if turn.entered != here or turn.refutation is not None or here not in state.edition.deck.rooms:
        return None
    return here


def check_suggested(state: GameState, seat: str, instead: Literal["ending the turn", "accusing"]) -> None:
    """Refuse ``instead`` (ending the turn, accusing) while a suggestion is owed."""
    room = owed_suggestion(state, seat)
    if room is None:
        return
    if instead == "accusing":  # one whole sentence each, so that a translation can word it freely
        raise MustSuggest("{seat} must make a suggestion in the room just entered ({room}) before accusing",
                          seat=seat, room=room)
    raise MustSuggest("{seat} must make a suggestion in the room just entered ({room}) before ending the turn",
                      seat=seat, room=room)


def _suggestion_room(state: GameState, seat: str) -> str:
    """The room a suggestion is about, or why none may be made now."""
    here, turn = state.position(seat), state.turn
    if turn.refutation is not None:
        raise WrongPhase("{seat} has already made a suggestion this turn", seat=seat)
    if not is_room(state.edition, here):
        raise NotInRoom("{seat} is on {here}, not in a room", seat=seat, here=here)
    if here not in state.edition.deck.rooms:
        raise NotInRoom("the {here} is not a scene of the crime: no suggestions there", here=here)
    if turn.phase is Phase.START and seat in state.summoned:
        return here  # moved here by another's suggestion: may suggest without moving
    if turn.phase is Phase.MOVED and turn.entered == here:
        return here
    if turn.phase is Phase.START:
        raise WrongPhase("{seat} must move first: a suggestion needs a room entered this turn", seat=seat)
    if turn.phase is Phase.MOVING:
        raise WrongPhase("{seat} rolled and must move before suggesting", seat=seat)
    if turn.phase is Phase.MOVED:
        raise WrongPhase("{seat} did not enter the {here} this turn", seat=seat, here=here)
    raise WrongPhase("{seat} has already made a suggestion this turn", seat=seat)


def _ask_on(state: GameState, asking: Refutation) -> Result:
    """Ask round the table until a holder must show, or everyone has been asked."""
    suggester, named = asking.suggestion.suggester, set(asking.suggestion.cards())
    events: list[Event] = []
    queue = list(asking.queue)
    while queue:
        seat = queue.pop(0)
        if named & set(state.hand(seat)):
            events.append(RefuteRequested(seat, suggester))
            waiting = asking.evolve(asked=seat, queue=tuple(queue))
            return state.evolve(turn=state.turn.evolve(phase=Phase.REFUTING, refutation=waiting)), tuple(events)
        events.append(Passed(seat))
    if not asking.shown:
        events.append(NoRefutation(suggester))
        state, side = _side_card(state, suggester)
        events.extend(side)
    settled = asking.evolve(asked=None, queue=())
    return state.evolve(turn=state.turn.evolve(phase=Phase.SUGGESTED, refutation=settled)), tuple(events)


def _side_card(state: GameState, seat: str) -> Result:
    """Two-player variant: unanswered, the suggester looks at a side card not yet seen."""
    if not state.aside:
        return state, ()
    looked = {s.index for s in state.seen if s.seat == seat and s.source == "aside"}
    index = next((i for i in range(len(state.aside)) if i not in looked), None)
    if index is None:
        return state, ()  # all four already seen
    card = state.aside[index]
    state = state.evolve(seen=state.seen + (Seen(seat, card, "aside", index),))
    return state, (SideCardSeen(seat, index, card),)
