"""The assistant in the product: seat views carry it as the host chose, the table view never, and the review."""

from __future__ import annotations

import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from companion.deduction import assistant
from companion.deduction.assistant import Assistants, review, summary
from companion.deduction.knowledge import Knowledge
from companion.deduction.playout import random_game
from companion.record.lines import parse_action
from companion.record.replay import Replay
from companion.table import prompts
from companion.table.commands import NewGame, Play, StartGame
from companion.table.prompts import Menu, screen_for
from companion.table.table import Table

SEED_3 = random_game(random.Random(3))  # 4 players; Mrs. Peacock can first accuse for certain on line 89


def _table(assistant: str, lines: int) -> Table:
    """A table playing the first ``lines`` lines of the seed-3 record with the assistant set so."""
    setup = SEED_3[0]
    table = Table()
    assert table.handle(NewGame(setup["edition"], tuple(setup["seats"]), seed=setup["seed"], dice="physical",
                                assistant=assistant)).ok  # the record's own dice
    assert table.handle(StartGame()).ok
    replay = Replay(json.dumps(setup))  # for the dice the record left to the seed
    for number, line in enumerate(SEED_3[1:lines], start=2):
        events = replay.step(number, json.dumps(line))["events"]
        if line["type"] == "roll":
            line = dict(line, dice=next(event["dice"] for event in events if event["type"] == "rolled"))
        assert table.handle(Play(line["seat"], parse_action(json.dumps(line)))).ok
    return table


def test_off_by_default_and_never_on_the_table_view():
    table = _table("off", 10)
    assert table.view("Mrs. Peacock")["assistant"] is None
    assert "assistant" not in _table("probabilities", 10).view(None)


def test_certain_facts_only_carry_no_probabilities():
    view = _table("certain", 89).view("Mrs. Peacock")
    assistant = view["assistant"]
    assert assistant["mode"] == "certain"
    assert "cards" not in assistant and "accuse_chance" not in assistant
    assert assistant["can_accuse"] and assistant["accusation"] == ["Mrs. Peacock", "Wrench", "Library"]
    assert view["settings"]["assistant"] == "certain"


def test_the_assistant_uses_only_the_seats_own_record():
    table = _table("probabilities", 60)
    for seat in SEED_3[0]["seats"]:
        view = table.view(seat)
        knows = Knowledge(seat, table.state.edition.deck)
        for event in view["record"]:
            knows.learn(event, "")
        assert view["assistant"] == summary(knows.notebook(), "probabilities")
        assert 0 < view["assistant"]["accuse_chance"] <= 1


def test_an_unknown_mode_is_refused():
    outcome = Table().handle(NewGame("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White"), assistant="psychic"))
    assert not outcome.ok and "assistant must be one of" in outcome.error["message"]


def test_the_handheld_notebook_shows_the_deduction():
    view = _table("probabilities", 89).view("Mrs. Peacock")
    read = Menu(step="browse", page=2, shown_seen=len(view["shown_to_me"]), seen_seen=len(view.get("seen") or []),
                notice_seen=(view["notice"] or {}).get("id", 0), context=prompts._context(view))
    screen = screen_for(view, read)
    assert screen.kind == "notebook"
    assert "! Wrench (envelope)" in screen.items
    assert screen.lines == ("Accuse: Mrs. Peacock, Wrench, Library",)


def test_review_gives_each_seats_first_certain_moment():
    game = Replay(json.dumps(SEED_3[0]))
    for number, line in enumerate(SEED_3[1:], start=2):
        game.step(number, json.dumps(line))
    records = {seat: [_redact(event, seat) for event in game.state.log] for seat in game.state.seats}
    found = {entry["seat"]: entry["could_accuse"] for entry in review(game.state.edition.deck, records)}
    peacock = found["Mrs. Peacock"]
    # Line 89: the last of three passes on her suggestion (Mr. Green's) settled it, on turn 26.
    assert peacock == {"turn": 26, "event": 118, "after": {"type": "passed", "seat": "Mr. Green"}}
    table = _table("off", len(SEED_3))
    assert table.state.over
    assert table.view(None)["review"] == table.view("Mrs. Peacock")["review"]
    assert {entry["seat"] for entry in table.view(None)["review"]} == set(SEED_3[0]["seats"])


def test_the_winning_accusation_does_not_count_as_a_moment_others_could_have_accused():
    seats = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
    table = Table()
    assert table.handle(NewGame("classic", seats, seed=3, bots=tuple((seat, "expert") for seat in seats))).ok
    assert table.handle(StartGame()).ok and table.state.over  # three bots play the game out
    log = [event.to_dict() for event in table.state.log]
    won = next(index for index, event in enumerate(log) if event["type"] == "accused" and event["correct"])
    moments = {entry["seat"]: entry["could_accuse"] for entry in table.view(None)["review"]}
    assert moments[log[won]["seat"]]["event"] <= won  # the winner was certain before accusing
    # The others learnt the solution only from the winner's accusation: that is no moment of theirs.
    assert all(moment is None or moment["event"] <= won for moment in moments.values())
    assert any(moment is None for moment in moments.values())


def test_the_review_names_no_card_shown_privately_to_a_seat():
    seats = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
    table = Table()
    assert table.handle(NewGame("classic", seats, seed=2, bots=tuple((seat, "expert") for seat in seats))).ok
    assert table.handle(StartGame()).ok and table.state.over
    moments = {entry["seat"]: entry["could_accuse"] for entry in table.view(None)["review"]}
    # Mrs. White was certain once Colonel Mustard showed her the Candlestick; the table only saw "a card".
    assert moments["Mrs. White"]["after"] == {"type": "card_shown", "by": "Colonel Mustard", "to": "Mrs. White"}
    for viewer in (None, *seats):
        assert "Candlestick" not in str(table.view(viewer)["review"])


def _redact(event, seat):
    from companion.rules.views import event_for
    return event_for(event, seat)


@pytest.mark.parametrize("mode", ["certain", "probabilities"])
def test_views_stay_fast_enough_to_publish(mode):
    table = _table(mode, 60)
    for seat in SEED_3[0]["seats"]:
        assert table.view(seat)["assistant"]["mode"] == mode


def test_a_notebook_is_worked_out_off_the_tables_thread_and_the_session_woken():
    woken = threading.Event()
    game = Replay(json.dumps(SEED_3[0]))
    for number, line in enumerate(SEED_3[1:60], start=2):
        game.step(number, json.dumps(line))
    record = [_redact(event, "Mrs. Peacock") for event in game.state.log]
    assistants = Assistants(game.state.edition.deck, wake=woken.set)
    first = assistants.view("Mrs. Peacock", record, "certain")
    assert first == {"mode": "certain", "pending": True}  # nothing worked out yet: say so, do not wait
    assert woken.wait(10)
    ready = assistants.view("Mrs. Peacock", record, "certain")
    assert "pending" not in ready and ready["mode"] == "certain" and ready["certain"]
    # Later facts: the last notebook is shown, marked pending, until the new one is ready.
    woken.clear()
    more = [_redact(event, "Mrs. Peacock") for event in _replayed(SEED_3[:89]).state.log]
    stale = assistants.view("Mrs. Peacock", more, "certain")
    assert stale["pending"] and stale["certain"] == ready["certain"]
    assert woken.wait(10)
    assert assistants.view("Mrs. Peacock", more, "certain")["can_accuse"]


def _replayed(lines):
    game = Replay(json.dumps(lines[0]))
    for number, line in enumerate(lines[1:], start=2):
        game.step(number, json.dumps(line))
    return game


def test_a_notebook_overtaken_by_newer_facts_is_not_worked_out(monkeypatch):
    worked = []
    real = assistant.deduce
    monkeypatch.setattr(assistant, "deduce", lambda *problem: worked.append(len(problem[2])) or real(*problem))
    woken = threading.Event()
    assistants = Assistants(_replayed(SEED_3[:2]).state.edition.deck, wake=woken.set)
    gate = threading.Event()
    assistants.pool = ThreadPoolExecutor(max_workers=1)
    assistants.pool.submit(gate.wait, 10)  # the helper is busy with another seat's notebook
    older = [_redact(event, "Mrs. Peacock") for event in _replayed(SEED_3[:60]).state.log]
    newer = [_redact(event, "Mrs. Peacock") for event in _replayed(SEED_3[:89]).state.log]
    assert assistants.view("Mrs. Peacock", older, "certain")["pending"]
    assert assistants.view("Mrs. Peacock", newer, "certain")["pending"]
    gate.set()
    assert woken.wait(10)
    assert assistants.view("Mrs. Peacock", newer, "certain")["can_accuse"]
    assert worked == [len(assistants.knows["Mrs. Peacock"].facts)]  # only the newest was counted
