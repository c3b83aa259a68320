"""The session: one thread, one queue; views published after the store has the action."""

from __future__ import annotations

import threading
import time

from companion.rules.actions import Roll
from companion.table.commands import NewGame, Play, StartGame
from companion.table.session import Session
from companion.table.store import Store
from companion.table.table import Outcome, Table

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")


def game(store: Store | None = None) -> Session:
    session = Session(Table(store=store, seed_source=lambda: 3)).start()
    assert session.call(NewGame("classic", SEATS)).ok and session.call(StartGame()).ok
    return session


def test_a_subscriber_gets_the_current_view_at_once_and_each_change_after() -> None:
    with game() as session:
        box = session.subscribe("Colonel Mustard")
        first = box.get(timeout=2)
        assert first is not None and first["seat"] == "Colonel Mustard" and first["stage"] == "playing"
        session.call(Play("Miss Scarlet", Roll("Miss Scarlet")))
        after = box.get(timeout=2)
        assert after is not None and after["phase"] == "moving" and len(after["hand"]) == 6


def test_a_slow_subscriber_gets_only_the_newest_view_and_never_holds_the_session_up() -> None:
    with game() as session:
        box = session.subscribe(None)
        box.get(timeout=2)
        started = time.monotonic()
        for _ in range(50):  # nobody reads the box meanwhile
            session.call(Play("Colonel Mustard", Roll("Colonel Mustard")))  # refused each time: not his turn
        assert time.monotonic() - started < 2
        newest = box.get(timeout=0)
        assert newest is not None and newest["notice"]["text"] == "The game starts."  # the table's own notice
        assert box.version >= 50  # fifty views were left, and only the newest is there
        assert box.get(timeout=0) is None


def test_a_refusal_goes_back_to_whoever_asked_with_its_code() -> None:
    with game() as session:
        outcome = session.call(Play("Mrs. White", Roll("Mrs. White")))
        assert not outcome.ok and outcome.error is not None and outcome.error["code"] == "not_your_turn"
        notice = session.inspect(lambda table: table.view("Mrs. White")["notice"])
        assert notice["code"] == "not_your_turn"


def test_no_view_shows_an_action_before_the_store_has_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with Store(tmp_path / "games.db").open() as store, game(store) as session:
        box = session.subscribe(None)
        seen: list[tuple[int, int]] = []
        stop = threading.Event()

        def watch() -> None:
            with Store(tmp_path / "games.db", exclusive=False).open() as reader:  # another connection, as after a crash
                while not stop.is_set():
                    view = box.get(timeout=0.05)
                    if view is not None and view.get("game_id"):
                        seen.append((view["actions"], len(reader.record(view["game_id"])) - 1))

        watcher = threading.Thread(target=watch)
        watcher.start()
        seat = "Miss Scarlet"
        for _ in range(8):
            state = session.inspect(lambda table: table.state)
            seat = state.turn.seat
            session.call(Play(seat, Roll(seat)))
            state = session.inspect(lambda table: table.state)
            from companion.rules.actions import EndTurn, Move
            from companion.rules.engine import legal_destinations
            session.call(Play(seat, Move(seat, legal_destinations(state)[0])))
            session.call(Play(seat, EndTurn(seat)))
        stop.set()
        watcher.join()
        assert seen and all(shown <= stored for shown, stored in seen)


def test_a_bug_in_handling_is_reported_and_the_session_lives_on() -> None:
    class Faulty(Table):
        def handle(self, command):  # type: ignore[no-untyped-def]
            if isinstance(command, Play):
                raise RuntimeError("boom")
            return super().handle(command)

    with Session(Faulty(seed_source=lambda: 1)) as session:
        session.call(NewGame("classic", SEATS))
        broken = session.call(Play("Miss Scarlet", Roll("Miss Scarlet")))
        assert broken.error is not None and broken.error["code"] == "internal"
        assert session.call(StartGame()).ok


def test_stop_wakes_every_subscriber() -> None:
    session = game()
    box = session.subscribe("Mrs. White")
    box.get(timeout=2)
    session.stop()
    box.get(timeout=0)  # the last view, if it was not read yet
    started = time.monotonic()
    assert box.closed and box.get(timeout=5) is None and time.monotonic() - started < 1
    assert isinstance(session.submit(StartGame()).wait(0.05), Outcome)  # nobody answers: a timeout outcome
