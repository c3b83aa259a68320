"""Rooms with several antennas at the table: a piece slid between two antennas of one room has not moved.

The default Classic layout (docs/hardware.md) gives the Lounge readers 6, 24
and 25, and the Conservatory 2 and 19. Scarlet starts on h25, six steps from
the Lounge; the Lounge's secret passage leads to the Conservatory.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.rules.actions import EndTurn, Move, Roll
from companion.rules.edition import load_edition
from companion.rules.engine import legal_destinations
from companion.table.commands import BoardUp, NewGame, Play, StartGame, TagLost, TagSeen
from companion.table.store import Store
from companion.table.table import Table
from companion.table.tags import Piece
from companion.table.zones import ZoneMap

SCARLET, MUSTARD, WHITE = "Miss Scarlet", "Colonel Mustard", "Mrs. White"
CLASSIC = load_edition("classic")
ZONES = ZoneMap.default(CLASSIC)
LOUNGE = ZONES.room_readers("Lounge")
CONSERVATORY = ZONES.room_readers("Conservatory")


def uid_of(piece: Piece) -> str:
    names = CLASSIC.deck.suspects if piece.kind == "mover" else CLASSIC.deck.weapons
    return f"04:{'MW'.index(piece.kind[0].upper()):02X}:{names.index(piece.name):02X}:00:00:00:02"


SCARLETS_MOVER = uid_of(Piece("mover", SCARLET))


@pytest.fixture
def table() -> Iterator[Table]:
    with Store(":memory:").open() as store:
        for name in CLASSIC.deck.suspects:
            store.enrol("classic", uid_of(Piece("mover", name)), Piece("mover", name))
        for name in CLASSIC.deck.weapons:
            store.enrol("classic", uid_of(Piece("weapon", name)), Piece("weapon", name))
        table = Table(store=store)
        assert table.handle(NewGame("classic", (SCARLET, MUSTARD, WHITE), seed=7, dice="physical")).ok
        assert table.handle(StartGame()).ok
        state = table.state
        assert state is not None
        weapons = frozenset((ZONES.room_readers(room)[-1], uid_of(Piece("weapon", weapon)))
                            for weapon, room in zip(CLASSIC.deck.weapons, state.weapons))
        table.handle(BoardUp(len(ZONES), weapons))
        yield table


def put_backs(table: Table) -> list[str]:
    return [notice["text"] for notice in table.notices.values() if notice.get("code") == "put_back"]


def test_scarlet_enters_the_lounge_on_its_second_antenna_and_sliding_to_the_third_is_no_move(table: Table) -> None:
    assert table.handle(Play(SCARLET, Roll(SCARLET, (6,)))).ok
    table.handle(TagSeen(LOUNGE[1], SCARLETS_MOVER))
    state = table.state
    assert state is not None and state.position(SCARLET) == "Lounge"
    actions = state.actions
    # Slid across the room: seen on the third antenna, then lost on the second (and the other way round).
    for seen, lost in ((LOUNGE[2], LOUNGE[1]), (LOUNGE[0], LOUNGE[2])):
        assert table.handle(TagSeen(seen, SCARLETS_MOVER)).ok
        assert table.handle(TagLost(lost, SCARLETS_MOVER)).ok
    assert table.handle(TagLost(LOUNGE[0], SCARLETS_MOVER)).ok  # lifted for a moment...
    assert table.handle(TagSeen(LOUNGE[1], SCARLETS_MOVER)).ok  # ...and put down elsewhere in the room
    state = table.state
    assert state is not None and state.actions == actions and state.position(SCARLET) == "Lounge"
    assert not table.board.refused and put_backs(table) == []
    assert table.board.differences == []


def test_scarlet_takes_the_passage_to_an_antenna_of_the_conservatory_a_move(table: Table) -> None:
    assert table.handle(Play(SCARLET, Roll(SCARLET, (6,)))).ok
    table.handle(TagSeen(LOUNGE[2], SCARLETS_MOVER))
    assert table.handle(Play(SCARLET, EndTurn(SCARLET))).ok
    for seat in (MUSTARD, WHITE):  # each rolls 1 and steps off their start square
        assert table.handle(Play(seat, Roll(seat, (1,)))).ok
        state = table.state
        assert state is not None
        assert table.handle(Play(seat, Move(seat, legal_destinations(state)[0]))).ok
        assert table.handle(Play(seat, EndTurn(seat))).ok
    table.handle(TagSeen(CONSERVATORY[1], SCARLETS_MOVER))
    table.handle(TagLost(LOUNGE[2], SCARLETS_MOVER))
    state = table.state
    assert state is not None and state.position(SCARLET) == "Conservatory"
    assert not table.board.refused and put_backs(table) == []


def test_a_mover_seen_in_two_rooms_at_once_is_put_back(table: Table) -> None:
    assert table.handle(Play(SCARLET, Roll(SCARLET, (6,)))).ok
    table.handle(TagSeen(LOUNGE[1], SCARLETS_MOVER))
    table.handle(TagSeen(CONSERVATORY[1], SCARLETS_MOVER))  # her mover now also over the Conservatory
    assert set(put_backs(table)) == {"Put Miss Scarlet back in the Lounge."}  # to her and to the table
    assert Piece("mover", SCARLET) in table.board.refused
    table.handle(TagLost(CONSERVATORY[1], SCARLETS_MOVER))
    assert not table.board.refused
