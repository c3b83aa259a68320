"""Properties of every random legal game (hypothesis draws the seeds).

Games come from :mod:`companion.playout`: ``random_game`` for whole records,
``choose`` for one legal action at a time. Each property is checked on every
state a game passes through, not only the last one.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.actions import ACTIONS, Accuse, Action, EndTurn, Move, Pass, Roll, Show, Suggest
from companion.cards import CATEGORIES
from companion.cli import main
from companion.edition import load_edition
from companion.engine import apply, new_game
from companion.errors import ClueError
from companion.playout import choose, random_game, random_setup
from companion.record import parse_action, parse_setup
from companion.replay import Replay
from companion.state import GameState, Phase
from companion.views import public_view, seat_view
from record_spec import CODES, EVENT_FIELDS, carried_cards

CLASSIC = load_edition("classic")
DECK = CLASSIC.deck
SEEDS = st.integers()
GAMES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass
class Game:
    """One random legal game: its record, and every state and event batch it went through."""

    record: list[dict[str, Any]]
    states: list[GameState]  # states[0] after setup, states[i] after record line i + 1
    events: list[list[dict[str, Any]]]


def play(seed: int) -> Game:
    """Play a game with ``choose`` as ``random_game`` does, keeping every state."""
    rand = random.Random(seed)
    setup = random_setup(rand, CLASSIC)
    state, events = new_game(setup)
    game = Game([setup.to_record()], [state], [[e.to_dict() for e in events]])
    while not state.over:
        assert len(game.record) < 5000, "game did not end"
        action = choose(rand, state)
        state, events = apply(state, action)
        game.record.append(action.to_record())
        game.states.append(state)
        game.events.append([e.to_dict() for e in events])
    return game


def line(data: dict[str, Any]) -> str:
    return json.dumps(data)


# --- the cards -----------------------------------------------------------------------------------


def check_cards(state: GameState) -> None:
    envelope = state.envelope.cards()
    everything = Counter(envelope + state.face_up + tuple(card for hand in state.hands for card in hand))
    assert everything == Counter(DECK.all), everything - Counter(DECK.all) or Counter(DECK.all) - everything
    assert [DECK.category_of(card) for card in envelope] == list(CATEGORIES)
    assert len(state.hands) == len(state.seats)
    sizes = sorted(len(hand) for hand in state.hands)
    assert sizes[-1] - sizes[0] <= 1 and not state.face_up  # Classic deals every card


@GAMES
@given(SEEDS)
def test_cards_are_conserved_and_the_envelope_never_changes(seed: int) -> None:
    game = play(seed)
    first = game.states[0]
    dealt = {e["seat"]: e["cards"] for e in game.events[0] if e["type"] == "cards_dealt"}
    assert dealt == {seat: list(first.hand(seat)) for seat in first.seats}
    for state in game.states:
        check_cards(state)
        assert state.envelope == first.envelope
        assert state.hands == first.hands and state.face_up == first.face_up
    over = game.events[-1][-1]
    assert over["type"] == "game_over"
    assert over["solution"] == dict(zip(CATEGORIES, first.envelope.cards()))


@GAMES
@given(SEEDS)
def test_events_carry_the_issues_fields_and_agree_with_the_hands(seed: int) -> None:
    game = play(seed)
    first = game.states[0]
    envelope = first.envelope.cards()
    suggestion: dict[str, Any] | None = None
    for before, after, batch in zip(game.states, game.states[1:], game.events[1:]):
        for at, event in enumerate(batch):
            kind = event["type"]
            if kind in EVENT_FIELDS:
                assert set(event) == {"type"} | EVENT_FIELDS[kind], event
            if kind == "rolled":
                assert len(event["dice"]) == 1 and 1 <= event["dice"][0] <= 6
                assert event["total"] == sum(event["dice"])
            elif kind == "moved":
                # "cleared": a wrong accuser's mover is put into the room off the doorway (RULES.md).
                assert event["via"] in {"roll", "passage", "suggestion", "cleared"}
                assert event["via"] != "cleared" or batch[at - 1]["type"] == "eliminated"
                if not any(e["type"] == "moved" and e["seat"] == event["seat"] for e in batch[at + 1:]):
                    assert after.position(event["seat"]) == event["to"]
            elif kind == "suggested":
                suggestion = event
                assert event["room"] == after.position(event["seat"]) == after.position(event["suspect"])
                assert event["room"] in DECK.rooms
                # Asked clockwise from the suggester's left, up to the first holder.
                asked = [e["seat"] for e in batch[at:] if e["type"] in {"passed", "refute_requested"}]
                assert asked == list(before.clockwise_from(event["seat"])[: len(asked)])
                assert batch[-1]["type"] in {"refute_requested", "no_refutation"}
            elif kind in {"passed", "refute_requested", "card_shown", "no_refutation"}:
                assert suggestion is not None
                named = {suggestion["suspect"], suggestion["weapon"], suggestion["room"]}
                suggester = suggestion["seat"]
                if kind == "passed":
                    assert event["seat"] != suggester and not named & set(first.hand(event["seat"]))
                elif kind == "refute_requested":
                    assert event["suggester"] == suggester and named & set(first.hand(event["seat"]))
                elif kind == "card_shown":
                    assert event["to"] == suggester and event["card"] in named & set(first.hand(event["by"]))
                else:
                    assert event["suggester"] == suggester
                    assert all(not named & set(first.hand(s)) for s in first.seats if s != suggester)
            elif kind == "accused":
                assert event["correct"] == ((event["suspect"], event["weapon"], event["room"]) == envelope)
                assert event["correct"] == (batch[at + 1]["type"] == "game_over")
            elif kind == "eliminated":
                assert event["seat"] in after.eliminated and event["seat"] not in before.eliminated
            elif kind == "turn_started":
                assert event["seat"] not in after.eliminated and after.turn.seat == event["seat"]


# --- what each seat may see ---------------------------------------------------------------------


def named_in_public(state: GameState) -> set[str]:
    """Cards named aloud so far: in suggestions and accusations."""
    names: set[str] = set()
    for event in state.log:
        data = event.to_dict()
        if data["type"] in {"suggested", "accused"}:
            names |= {data["suspect"], data["weapon"], data["room"]}
    return names


def check_seat_view(state: GameState, seat: str, full: bool) -> None:
    view = json.loads(json.dumps(seat_view(state, seat)))
    shown = [s for s in state.shown if s.to == seat]
    assert view["seat"] == seat
    assert view["hand"] == list(state.hand(seat))
    assert view["face_up"] == list(state.face_up)
    assert view["shown_to_me"] == [{"by": s.by, "card": s.card} for s in shown]
    for item in view["shown_to_me"]:
        assert item["card"] in state.hand(item["by"])
    assert set(view["may_show"]) <= set(state.hand(seat))
    envelope = dict(zip(CATEGORIES, state.envelope.cards()))
    if state.over:
        assert view["solution"] == envelope
    else:
        assert view["solution"] is None
        assert view["turn"] == state.turn.seat
    if not full:
        return
    for event in view["record"]:
        kind = event["type"]
        if kind == "card_shown":
            assert ("card" in event) == (seat in (event["by"], event["to"])), event
        if kind == "cards_dealt":
            assert ("cards" in event) == (event["seat"] == seat), event
            if "cards" in event:
                assert event["cards"] == list(state.hand(seat))
        if kind == "game_over":
            assert state.over and event["solution"] == envelope
        assert state.over or event.get("solution") is None
    # Every card the view carries as a card is one this seat may know.
    allowed = set(state.hand(seat)) | set(state.face_up) | {s.card for s in shown} | named_in_public(state)
    if state.over:
        allowed |= set(envelope.values())
    assert carried_cards(view) <= allowed


def check_public_view(state: GameState) -> None:
    view = json.loads(json.dumps(public_view(state)))
    assert view["seat"] is None and view["hand"] == [] and view["shown_to_me"] == [] and view["may_show"] == []
    for event in view["record"]:
        assert "card" not in event or event["type"] != "card_shown"
        assert "cards" not in event or event["type"] != "cards_dealt"
    public = set(state.face_up) | named_in_public(state)
    if state.over:
        public |= set(state.envelope.cards())
        assert view["solution"] == dict(zip(CATEGORIES, state.envelope.cards()))
    else:
        assert view["solution"] is None
    assert carried_cards(view) <= public


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_no_view_holds_another_hand_or_the_envelope_before_the_end(seed: int) -> None:
    game = play(seed)
    last_before_end = len(game.states) - 2
    for at, state in enumerate(game.states):
        full = at in (0, last_before_end, len(game.states) - 1) or at % 7 == 0
        for seat in state.seats:
            check_seat_view(state, seat, full)
        if full:
            check_public_view(state)


# --- every game ends ----------------------------------------------------------------------------


@GAMES
@given(SEEDS)
def test_every_game_ends_with_game_over(seed: int) -> None:
    record = random_game(random.Random(seed))  # raises if the game has not ended in 5000 actions
    assert record[0]["type"] == "setup" and len(record) > 1
    replay = Replay(line(record[0]))
    results = [replay.step(number, line(data)) for number, data in enumerate(record[1:], 2)]
    assert all(result["ok"] for result in results), [r for r in results if not r["ok"]][:1]
    final = replay.state
    assert final.over
    over = results[-1]["events"][-1]
    assert over["type"] == "game_over"
    assert [e["type"] for r in results for e in r["events"]].count("game_over") == 1
    assert over["winner"] == final.winner
    assert over["solution"] == dict(zip(CATEGORIES, final.envelope.cards()))
    if over["winner"] is None:
        assert set(final.eliminated) == set(final.seats)
    else:
        assert over["winner"] in final.seats and over["winner"] not in final.eliminated
        accused = results[-1]["events"][-2]
        assert accused["type"] == "accused" and accused["correct"] is True and accused["seat"] == over["winner"]


# --- replaying a record reproduces the game --------------------------------------------------------


@GAMES
@given(SEEDS)
def test_replaying_a_games_own_record_reproduces_every_state(seed: int) -> None:
    game = play(seed)
    replay = Replay(line(game.record[0]))
    assert replay.state == game.states[0]
    assert replay.setup_events == game.events[0]
    for number, (data, state, events) in enumerate(zip(game.record[1:], game.states[1:], game.events[1:]), 2):
        result = replay.step(number, line(data))
        assert result == {"line": number, "ok": True, "events": events}
        assert replay.state == state
    assert replay.state == game.states[-1]


@GAMES
@given(SEEDS)
def test_a_record_with_its_deal_written_out_replays_the_same(seed: int) -> None:
    """The seeded deal, written into the setup line, changes nothing (dice included)."""
    game = play(seed)
    first = game.states[0]
    setup = dict(game.record[0], deal={
        "envelope": list(first.envelope.cards()),
        "hands": {seat: list(first.hand(seat)) for seat in first.seats},
        "face_up": list(first.face_up),
    })
    state, _ = new_game(parse_setup(line(setup)))
    for data in game.record[1:]:
        state, _ = apply(state, parse_action(line(data)))
    assert state == game.states[-1]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_replaying_through_the_cli_reproduces_the_final_view(seed: int) -> None:
    game = play(seed)
    final = game.states[-1]
    seat = random.Random(seed).choice(final.seats)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_text("".join(line(data) + "\n" for data in game.record), encoding="utf-8")
        for options, expected in (([], public_view(final)), (["--view", seat], seat_view(final, seat))):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["replay", str(path), "--final-view", *options])
            assert (code, err.getvalue()) == (0, "")
            printed = [json.loads(text) for text in out.getvalue().splitlines()]
            assert [r["line"] for r in printed[:-1]] == list(range(1, len(game.record) + 1))
            assert all(r["ok"] for r in printed[:-1])
            assert printed[-1] == json.loads(json.dumps(expected))
            if not options:
                assert [r["events"] for r in printed[:-1]] == game.events


# --- arbitrary actions: a known error or a legal change, never a crash ----------------------------

JUNK = ["", " ", "x", "Bob", "h25", "H24", "a1", "z99", "q0", "e7", "the lounge", "mrs white", "MISS SCARLET",
        "Cloakroom", "Poison", "Professor  Plum", "Mrs.White", "lounge ", "\u00e9", "a" * 300]
NAMES = st.one_of(st.sampled_from(DECK.all), st.sampled_from(JUNK), st.text(max_size=12))
DICE = st.one_of(st.none(), st.lists(st.integers(min_value=-2, max_value=9), max_size=3).map(tuple))


@st.composite
def arbitrary_actions(draw: st.DrawFn, state: GameState) -> Action:
    """Any action at all, though mostly from seated players and about real cards and places."""
    kind = draw(st.sampled_from(ACTIONS))
    seat = draw(st.one_of(st.just(state.turn.seat), st.sampled_from(state.seats), st.sampled_from(DECK.suspects),
                          NAMES))
    here = state.position(state.turn.seat)
    places = sorted(CLASSIC.require_board().passages.get(here, ())) + [here, *DECK.rooms]
    if kind is Roll:
        return Roll(seat, draw(DICE))
    if kind is Move:
        return Move(seat, draw(st.one_of(st.sampled_from(places), NAMES)))
    if kind is Show:
        return Show(seat, draw(NAMES))
    if kind is Suggest:
        return Suggest(seat, draw(NAMES), draw(NAMES))
    if kind is Accuse:
        return Accuse(seat, draw(NAMES), draw(NAMES), draw(NAMES))
    return Pass(seat) if kind is Pass else EndTurn(seat)


def near_legal_record(draw: Callable[[st.SearchStrategy[Any]], Any], rand: random.Random, state: GameState) -> dict[str, Any]:
    """A legal action's record line with one field swapped for something arbitrary."""
    record = choose(rand, state).to_record()
    field = draw(st.sampled_from(sorted(record) + ["dice"]))
    if field == "type":  # the same fields under another action type: a show becomes a pass, say
        kind = draw(st.sampled_from(ACTIONS))
        wanted = {"type"} | {item.name for item in fields(kind)}
        record = {key: value for key, value in record.items() if key in wanted} | {"type": kind.type}
    elif field == "dice":
        dice = draw(DICE)
        record[field] = list(dice) if dice is not None else None
    else:
        record[field] = draw(NAMES)
    return {k: v for k, v in record.items() if v is not None}


def apply_checked(state: GameState, action: Action) -> GameState | None:
    """Apply; a refusal must be a ClueError with a documented code. None when refused."""
    try:
        after, events = apply(state, action)
    except ClueError as err:
        assert err.code in CODES, (err.code, err, action)
        assert str(err)
        return None
    assert after.actions == state.actions + 1
    assert after.log == state.log + events
    check_cards(after)
    assert after.envelope == state.envelope
    return after


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, where=st.floats(min_value=0, max_value=1), data=st.data())
def test_an_arbitrary_action_is_refused_with_a_code_or_applied(seed: int, where: float, data: st.DataObject) -> None:
    game = play(seed)
    phase = data.draw(st.sampled_from([None, *Phase]))  # often a state in one phase of the turn
    candidates = [s for s in game.states if phase is None or s.turn.phase is phase] or game.states
    state = candidates[min(int(where * len(candidates)), len(candidates) - 1)]
    rand = random.Random(seed)
    if state.over or data.draw(st.booleans()):
        action = data.draw(arbitrary_actions(state))
    else:
        try:
            action = parse_action(line(near_legal_record(data.draw, rand, state)))
        except ClueError as err:  # the swapped field does not even parse: refused as a record line
            assert err.code == "bad_input"
            return
    before = state.actions, state.turn, state.positions, state.weapons, state.shown, state.log, state.rng
    after = apply_checked(state, action)
    assert (state.actions, state.turn, state.positions, state.weapons, state.shown, state.log, state.rng) == before
    if after is None:
        return
    # An accepted action leaves a state the game can still be played out from.
    for _ in range(5000):
        if after.over:
            break
        after = apply_checked(after, choose(rand, after))
        assert after is not None, "a legal action was refused"
    assert after.over


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, where=st.floats(min_value=0, max_value=1), junk=st.one_of(
    st.text(max_size=80),
    st.dictionaries(st.sampled_from(["type", "seat", "to", "dice", "card", "suspect", "weapon", "room", "x"]),
                    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | NAMES
                                 | st.sampled_from([a.type for a in ACTIONS]),
                                 lambda inner: st.lists(inner, max_size=3)
                                 | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                                 max_leaves=6)).map(json.dumps),
))
def test_a_junk_line_inserted_in_a_record_is_refused_or_accepted_never_a_crash(
        seed: int, where: float, junk: str) -> None:
    """Replay with one arbitrary line spliced in: a result for every line, known codes only; and when
    the junk is refused, every other line plays exactly as in the clean game."""
    game = play(seed)
    at = 1 + min(int(where * len(game.record)), len(game.record) - 1)
    lines = [line(data) for data in game.record]
    lines.insert(at, junk.replace("\n", " ").replace("\r", " "))
    replay = Replay(lines[0])
    results = []
    for number, text in enumerate(lines[1:], 2):
        before = replay.state
        result = replay.step(number, text)
        assert result["line"] == number
        if result["ok"]:
            assert isinstance(result["events"], list)
        else:
            assert result["error"]["code"] in CODES
            assert replay.state is before
        results.append(result)
    junk_result = results[at - 1]
    if not junk_result["ok"]:
        others = results[: at - 1] + results[at:]
        assert [r["events"] for r in others] == game.events[1:]
        assert replay.state == game.states[-1]
