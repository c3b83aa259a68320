"""Starting a game from a record's setup line: seats, deal, tokens, first player.

>>> state, events = new_game(Setup("classic", ("Mrs. White", "Miss Scarlet", "Mr. Green"), seed=7))
>>> state.turn.seat, state.position("Miss Scarlet")
('Miss Scarlet', 'h25')
"""

from __future__ import annotations

from . import rng
from .actions import Setup
from .cards import CardList
from .deal import ASIDE, check_deal, deal_cards
from .edition import Edition, load_edition
from .errors import BadInput, UnknownSeat
from .events import CardsDealt, Event, GameStarted, Rolled, TurnStarted
from .state import Bonus, GameState, Solution, Turn


def new_game(setup: Setup) -> tuple[GameState, tuple[Event, ...]]:
    """The state before the first action, and the events that set it up."""
    edition = load_edition(setup.edition)
    board = edition.require_board()
    seats = check_seats(edition, setup.seats)
    aside = variant_aside(edition, setup.variant, seats)
    # The seeded deal is drawn even when the record gives one, so that a record
    # with its deal written out rolls the same dice as the one without.
    deal, state = deal_cards(edition, seats, rng.seeded(setup.seed), aside)
    if setup.deal is not None:
        deal = check_deal(edition, seats, setup.deal, aside)
    weapons, state = _place_weapons(edition, state)
    bonus, state = _bonus_pile(edition, setup, state)
    first, rolls, state = _first_player(edition, seats, setup.first, state)
    game = GameState(
        edition=edition,
        seats=seats,
        envelope=Solution(*deal.envelope),
        hands=tuple(deal.hands[seat] for seat in seats),
        face_up=deal.face_up,
        positions=tuple(board.start_place(suspect) for suspect in edition.deck.suspects),
        weapons=weapons,
        turn=Turn(first),
        rng=state,
        variant=setup.variant,
        aside=deal.aside,
        bonus=bonus,
    )
    events: tuple[Event, ...] = (
        GameStarted(edition.id, edition.name, seats, deal.face_up),
        *(CardsDealt(seat, deal.hands[seat]) for seat in seats),
        *rolls,
        TurnStarted(first),
    )
    return game.evolve(log=events), events


def check_seats(edition: Edition, names: tuple[str, ...]) -> tuple[str, ...]:
    seats = tuple(edition.deck.resolve(name, "suspect") for name in names)
    if len(set(seats)) != len(seats):
        raise BadInput("a suspect is seated twice: {seats}", seats=CardList(seats))
    if not edition.min_players <= len(seats) <= edition.max_players:
        raise BadInput("{edition} is for {fewest} to {most} players, not {count}", edition=edition.name,
                       fewest=edition.min_players, most=edition.max_players, count=len(seats))
    return seats


def variant_aside(edition: Edition, variant: str | None, seats: tuple[str, ...]) -> int:
    """How many side cards the variant sets aside (checking it suits the edition and seats)."""
    if variant is None:
        return 0
    if variant not in edition.variants:
        if not edition.variants:
            raise BadInput("{edition} has no {variant!r} variant; variants: none", edition=edition.name,
                           variant=variant)
        raise BadInput("{edition} has no {variant!r} variant; variants: {offered}", edition=edition.name,
                       variant=variant, offered=", ".join(edition.variants))
    if len(seats) != 2:
        raise BadInput("the two_player variant is for 2 players or teams, not {count}", count=len(seats))
    return ASIDE


def _bonus_pile(edition: Edition, setup: Setup, state: int) -> tuple[Bonus | None, int]:
    """The shuffled bonus deck; none in the two-player variant ("no bonus deck"), nor when the
    players leave it in the box ("if you want to play original CLUE, return them to the box")."""
    if not setup.bonus_cards and edition.bonus is None:
        raise BadInput("{edition} has no bonus cards to leave out", edition=edition.name)
    if edition.bonus is None or setup.variant == "two_player" or not setup.bonus_cards:
        return None, state
    pile, state = rng.shuffled(state, edition.bonus.instances())
    return Bonus(pile), state


def _place_weapons(edition: Edition, state: int) -> tuple[tuple[str, ...], int]:
    """One weapon per room, none sharing (Classic); or all waiting off the board."""
    if edition.weapons_start != "rooms":
        return tuple(edition.weapons_start for _ in edition.deck.weapons), state
    rooms, state = rng.shuffled(state, edition.deck.rooms)
    return rooms[: len(edition.deck.weapons)], state


def _first_player(
    edition: Edition, seats: tuple[str, ...], first: str | None, state: int
) -> tuple[str, tuple[Event, ...], int]:
    """Who starts: the edition's fixed suspect, the setup's choice, or a roll-off."""
    chosen = _seat_named(edition, seats, first) if first is not None else None
    fixed = edition.first_player(seats)
    if fixed is not None:
        if chosen is not None and chosen != fixed and edition.first in seats:
            raise BadInput("{first} always moves first in {edition}, not {chosen}", first=edition.first,
                           edition=edition.name, chosen=chosen)
        return chosen or fixed, (), state
    if chosen is not None:
        return chosen, (), state
    return _roll_off(edition, seats, state)


def _roll_off(edition: Edition, seats: tuple[str, ...], state: int) -> tuple[str, tuple[Event, ...], int]:
    """Everyone rolls; the highest starts, and tied highest roll again."""
    rolling, events = seats, []
    while True:
        totals = {}
        for seat in rolling:
            faces, state = rng.dice(state, edition.dice)
            events.append(Rolled(seat, faces, sum(faces)))
            totals[seat] = sum(faces)
        best = max(totals.values())
        rolling = tuple(seat for seat in rolling if totals[seat] == best)
        if len(rolling) == 1:
            return rolling[0], tuple(events), state


def _seat_named(edition: Edition, seats: tuple[str, ...], name: str) -> str:
    seat = edition.deck.resolve(name, "suspect")
    if seat not in seats:
        raise UnknownSeat("{seat} is not seated; seats: {seats}", seat=seat, seats=CardList(seats))
    return seat
