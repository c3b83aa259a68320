"""``run --mock --camera``'s rig: movers moved on the rendered board become moves, an illegal one is refused
on the table screen, and a camera unplugged mid-game stops nothing for good."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.cli.mock_table import MockError, MockTable, mock_config
from companion.rules.actions import Roll
from companion.rules.engine import legal_destinations
from companion.rules.state import GameState
from companion.table.commands import Play
from companion.table.store import Store
from hardware.hardware_config import CameraConfig

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[MockTable]:
    with Store(tmp_path / "games.db").open() as store, MockTable(store, camera=True) as table:
        assert table.new_game("classic", SEATS, seed=3).ok
        assert table.start().ok
        yield table


def state(rig: MockTable) -> GameState:
    found: GameState = rig.session.inspect(lambda table: table.state)
    return found


def notice(view: dict[str, Any]) -> str:
    return str((view.get("notice") or {}).get("text", ""))


def test_a_legal_move_on_the_rendered_board_is_played_and_an_illegal_one_refused(rig: MockTable) -> None:
    view = rig.view(None)
    assert view["link"] == "up" and view["board"]["differences"] == []
    seat = state(rig).turn.seat
    assert rig.session.call(Play(seat, Roll(seat))).ok
    game = state(rig)
    board = game.edition.require_board()
    reachable = sorted(legal_destinations(game))
    far = next(square for square in board.squares if square not in reachable and square not in game.positions)
    rig.move(seat, far)
    view = rig.wait_for(lambda v: bool(v["board"]["corrections"]))
    assert "not reachable" in view["board"]["corrections"][0] and "not reachable" in notice(view)
    assert state(rig).position(seat) == game.position(seat)
    rig.move(seat, game.position(seat))  # put back: the table waits no longer
    rig.wait_for(lambda v: not v["board"]["corrections"])
    rig.move(seat, reachable[0])
    rig.wait_for(lambda v: state(rig).position(seat) == reachable[0])


def test_an_unplugged_camera_is_said_on_the_table_and_the_game_goes_on_when_it_is_back(rig: MockTable) -> None:
    seat = state(rig).turn.seat
    before = state(rig)
    rig.camera.camera.unplug()
    view = rig.wait_for(lambda v: v["link"] == "down")
    assert "disconnected" in notice(view).lower()
    assert rig.camera.status()["state"] == "down"
    assert rig.session.call(Play(seat, Roll(seat))).ok  # the game itself goes on: dice are not the camera's
    rig.camera.camera.plug()
    view = rig.wait_for(lambda v: v["link"] == "up", timeout=10)
    assert view["board"]["differences"] == []
    assert state(rig).actions == before.actions + 1


def test_cards_at_a_camera_table_may_be_tapped_on_six_seat_pads(tmp_path: Path) -> None:
    config = replace(mock_config(), camera=CameraConfig(cards="pads"))
    with Store(tmp_path / "games.db").open() as store, MockTable(store, camera=True, config=config) as table:
        assert table.new_game("classic", SEATS, seed=3).ok and table.start().ok
        assert table.link.status().state == "up" and table.board.core.readers == 6
        table.tap("Rope", "Colonel Mustard")  # seat 2's pad: reader 1 of the pad board
        assert notice(table.view("Colonel Mustard")) == "No card to show now: Rope was not used."
        assert table.view(None)["link"] == "up"  # the camera is the table's board; the pads do not reset it


def test_a_refused_new_game_leaves_the_camera_reading_the_game_on_the_table(rig: MockTable) -> None:
    assert not rig.new_game("classic", ("Miss Scarlet", "Miss Scarlet")).ok
    with pytest.raises(MockError, match="phones"):
        rig.tap("Rope", "Colonel Mustard")  # no pads at this table: cards are on the phones
    seat = state(rig).turn.seat
    assert rig.session.call(Play(seat, Roll(seat))).ok
    place = sorted(legal_destinations(state(rig)))[0]
    rig.move(seat, place)
    rig.wait_for(lambda v: state(rig).position(seat) == place)


@pytest.mark.slow  # two rigs, some 5 s
def test_a_game_resumed_at_a_camera_table_is_filmed_where_the_game_has_its_pieces(tmp_path: Path) -> None:
    with Store(tmp_path / "games.db").open() as store:
        with MockTable(store, camera=True) as first:
            assert first.new_game("classic", SEATS, seed=3).ok and first.start().ok
            seat = state(first).turn.seat
            assert first.session.call(Play(seat, Roll(seat))).ok
            place = sorted(legal_destinations(state(first)))[0]
            first.move(seat, place)
            first.wait_for(lambda v: state(first).position(seat) == place)
            game_id = first.view(None)["game_id"]
        with MockTable(store, camera=True) as again:
            assert again.resume(game_id).ok
            view = again.wait_for(lambda v: v["link"] == "up" and v["stage"] == "playing")
            assert view["board"]["differences"] == [] and state(again).position(seat) == place
            assert again.camera.places[seat] == place
