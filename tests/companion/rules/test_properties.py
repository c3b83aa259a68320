"""Properties of every random legal game, in every edition (hypothesis draws the seeds).

Games come from :mod:`companion.deduction.playout`: ``random_game`` for whole records,
``choose`` for one legal action at a time (snoops, draws, kept cards and
powers included; two seats sometimes play the two_player variant). Each
property is checked on every state a game passes through, not only the last
one, and runs once per edition.
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
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_spec import CODES, EVENT_FIELDS, SECRET_CARDS, carried_cards

from companion.cli.main import main
from companion.deduction.playout import choose, random_game, random_setup
from companion.record.lines import parse_action, parse_setup
from companion.record.replay import Replay
from companion.rules.actions import (ACTIONS, Accuse, Action, Draw, EndTurn, Move, Pass, PlayCard, Roll, Setup, Show,
                                     Snoop, Suggest, UsePower)
from companion.rules.cards import CATEGORIES
from companion.rules.edition import Edition, load_edition
from companion.rules.engine import apply, legal_destinations, new_game
from companion.rules.errors import ClueError
from companion.rules.state import QUESTION, GameState, Phase
from companion.rules.views import public_view, seat_view

EDITIONS = ("classic", "master_detective", "big_bang_theory", "doctor_who")
VARIANT_EDITIONS = tuple(e for e in EDITIONS if "two_player" in load_edition(e).variants)
each_edition = pytest.mark.parametrize("edition_id", EDITIONS)
SEEDS = st.integers()
ASIDE = 4


def examples(count: int) -> Callable[[Any], Any]:
    """Hypothesis settings: ``count`` games per edition, no deadline (games vary in length)."""
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


GAMES = examples(12)


@dataclass
class Game:
    """One random legal game: its record, and every state and event batch it went through."""

    edition: Edition
    record: list[dict[str, Any]]
    states: list[GameState]  # states[0] after setup, states[i] after record line i + 1
    events: list[list[dict[str, Any]]]


def play_from(rand: random.Random, setup: Setup) -> Game:
    """Play a game from ``setup`` with ``choose``, keeping every state."""
    state, events = new_game(setup)
    game = Game(state.edition, [setup.to_record()], [state], [[e.to_dict() for e in events]])
    while not state.over:
        assert len(game.record) < 5000, "game did not end"
        action = choose(rand, state)
        state, events = apply(state, action)
        game.record.append(action.to_record())
        game.states.append(state)
        game.events.append([e.to_dict() for e in events])
    return game


@lru_cache(maxsize=64)
def play(seed: int, edition_id: str) -> Game:
    """Play a game with ``choose`` as ``random_game`` does (same record), keeping every state.

    Cached: hypothesis tries the same small seeds in several tests. Callers must not change it.
    """
    rand = random.Random(seed)
    return play_from(rand, random_setup(rand, load_edition(edition_id)))


def line(data: dict[str, Any]) -> str:
    return json.dumps(data)


# --- the cards -----------------------------------------------------------------------------------


def check_cards(state: GameState) -> None:
    """Envelope + hands + face up + aside is the deck, each card once; the bonus deck is whole too."""
    deck, edition = state.edition.deck, state.edition
    envelope = state.envelope.cards()
    everything = Counter(envelope + state.face_up + state.aside + tuple(card for hand in state.hands for card in hand))
    assert everything == Counter(deck.all), everything - Counter(deck.all) or Counter(deck.all) - everything
    assert [deck.category_of(card) for card in envelope] == list(CATEGORIES)
    assert len(state.hands) == len(state.seats)
    assert len(state.aside) == (ASIDE if state.variant == "two_player" else 0)
    sizes = sorted(len(hand) for hand in state.hands)
    pile = len(deck.all) - 3 - len(state.aside)
    if edition.deal == "all":
        assert sizes[-1] - sizes[0] <= 1 and not state.face_up
    else:
        assert sizes[0] == sizes[-1] == pile // len(state.seats)
        assert len(state.face_up) == pile % len(state.seats)
    assert set(state.revealed) <= set(state.eliminated)
    bonus = state.bonus
    if bonus is None:
        assert edition.bonus is None or state.variant == "two_player"
        assert not state.may_draw
    else:
        assert edition.bonus is not None and state.variant is None
        held = tuple(card for _, card in bonus.held)
        assert Counter(bonus.pile + bonus.discard + held + bonus.watches) == Counter(edition.bonus.instances())
        assert {seat for seat, _ in bonus.held} <= set(state.seats)


@each_edition
@GAMES
@given(SEEDS)
def test_cards_are_conserved_and_the_envelope_never_changes(edition_id: str, seed: int) -> None:
    game = play(seed, edition_id)
    first = game.states[0]
    dealt = {e["seat"]: e["cards"] for e in game.events[0] if e["type"] == "cards_dealt"}
    assert dealt == {seat: list(first.hand(seat)) for seat in first.seats}
    for state in game.states:
        check_cards(state)
        assert state.envelope == first.envelope
        assert state.hands == first.hands and state.face_up == first.face_up and state.aside == first.aside
    over = game.events[-1][-1]
    assert over["type"] == "game_over"
    assert over["solution"] == dict(zip(CATEGORIES, first.envelope.cards()))


def check_refutations(game: Game, before: GameState, after: GameState, batch: list[dict[str, Any]],
                      asking: dict[str, Any]) -> None:
    """Who is asked, who shows: clockwise from the suggester's left; the first holder shows
    (``refute = "first"``) or every holder does (``"every"``); non-holders pass on their own."""
    for at, event in enumerate(batch):
        kind = event["type"]
        if kind == "suggested":
            asking.clear()
            asking.update(suggestion=event, asked=[], showed=[], none=False)
            continue
        if kind not in {"passed", "refute_requested", "card_shown", "no_refutation"}:
            continue
        suggestion = asking["suggestion"]
        named = {suggestion["suspect"], suggestion["weapon"], suggestion["room"]}
        suggester = suggestion["seat"]
        if kind == "passed":
            assert event["seat"] != suggester and not named & set(before.hand(event["seat"]))
            asking["asked"].append(event["seat"])
        elif kind == "refute_requested":
            assert event["suggester"] == suggester and named & set(before.hand(event["seat"]))
            asking["asked"].append(event["seat"])
        elif kind == "card_shown":
            assert event["to"] == suggester and event["card"] in named & set(before.hand(event["by"]))
            assert asking["asked"][-1] == event["by"]
            asking["showed"].append(event["by"])
        else:
            assert event["suggester"] == suggester and not asking["showed"]
            asking["none"] = True
        assert asking["asked"] == list(before.clockwise_from(suggester)[: len(asking["asked"])])
    if asking and asking["suggestion"] and after.turn.phase is not Phase.REFUTING:
        suggester = asking["suggestion"]["seat"]
        named = {asking["suggestion"][key] for key in ("suspect", "weapon", "room")}
        around = list(after.clockwise_from(suggester))
        holders = [seat for seat in around if named & set(after.hand(seat))]
        if not holders:
            assert asking["asked"] == around and asking["none"] and not asking["showed"]
        elif game.edition.refute == "every":
            assert asking["asked"] == around and asking["showed"] == holders and not asking["none"]
        else:
            assert asking["asked"] == around[: around.index(holders[0]) + 1]
            assert asking["showed"] == holders[:1] and not asking["none"]
        asking["suggestion"] = None


VIA = {"roll", "passage", "suggestion", "cleared", "card", "power", "swap"}


@each_edition
@GAMES
@given(SEEDS)
def test_events_carry_the_issues_fields_and_agree_with_the_hands(edition_id: str, seed: int) -> None:
    game = play(seed, edition_id)
    edition, deck = game.edition, game.edition.deck
    board = edition.require_board()
    first = game.states[0]
    envelope = first.envelope.cards()
    asking: dict[str, Any] = {}
    for before, after, batch, action in zip(game.states, game.states[1:], game.events[1:], game.record[1:]):
        check_refutations(game, before, after, batch, asking)
        # Who acts: the player on turn, or the next one taking over from a seat just put out.
        on_turn = next((e["seat"] for e in batch if e["type"] == "turn_started"), before.turn.seat)
        for at, event in enumerate(batch):
            kind = event["type"]
            if kind in EVENT_FIELDS:
                assert set(event) == {"type"} | EVENT_FIELDS[kind], event
            if kind == "rolled":
                dice = event["dice"]
                assert len(dice) == edition.dice
                numbers = [face for face in dice if face != QUESTION]
                assert all(type(face) is int and 1 <= face <= 6 for face in numbers)
                assert len(dice) - len(numbers) <= (1 if edition.question_die else 0)
                assert event["total"] == sum(numbers)
            elif kind == "moved":
                # "cleared": a wrong accuser's mover is put into the room off the doorway (RULES.md).
                assert event["via"] in VIA
                assert event["via"] != "cleared" or batch[at - 1]["type"] == "eliminated"
                if event["via"] == "roll":
                    assert action["type"] == "move" and event["to"] in legal_destinations(before)
                if event["via"] == "passage":
                    assert action["type"] == "move"
                    assert event["to"] in board.passages[before.position(event["seat"])]
                if event["via"] == "swap":
                    assert action["type"] in {"play_card", "use_power"}
                if not any(e["type"] == "moved" and e["seat"] == event["seat"] for e in batch[at + 1:]):
                    assert after.position(event["seat"]) == event["to"]
            elif kind == "suggested":
                assert event["room"] == after.position(event["seat"]) == after.position(event["suspect"])
                assert event["room"] in deck.rooms
                assert batch[-1]["type"] in {"refute_requested", "no_refutation", "side_card_seen"}
            elif kind == "accused":
                assert event["correct"] == ((event["suspect"], event["weapon"], event["room"]) == envelope)
                assert event["correct"] == (batch[at + 1]["type"] == "game_over")
                if edition.accuse != "anywhere":
                    assert before.position(event["seat"]) == edition.accuse
            elif kind == "eliminated":
                assert event["seat"] in after.eliminated and event["seat"] not in before.eliminated
            elif kind == "turn_started":
                assert event["seat"] not in before.eliminated and after.turn.seat == event["seat"]
            elif kind == "snooped":
                assert event["seat"] == on_turn != event["target"]
                assert event["card"] in first.hand(event["target"])
                if action["type"] == "snoop":  # Master Detective: only on a snoop space landed on
                    assert board.marks[board.index[before.position(event["seat"])]] == "snoop"
            elif kind == "side_card_seen":
                assert batch[at - 1] == {"type": "no_refutation", "suggester": event["seat"]}
                assert event["card"] == first.aside[event["index"]]
            elif kind == "drew":
                assert edition.bonus is not None and event["deck"] == edition.bonus.name
                assert before.bonus is not None and event["card_id"] in before.bonus.pile + before.bonus.discard
                assert event["seat"] == on_turn
            elif kind == "card_played":
                assert before.bonus is not None and (event["seat"], event["card_id"]) in before.bonus.held
                assert after.bonus is not None and (event["seat"], event["card_id"]) not in after.bonus.held
                assert action["type"] == "play_card" and event["seat"] == action["seat"]
            elif kind == "power_used":
                assert event["seat"] not in before.powers_used and event["seat"] in after.powers_used
                assert event["power"] == edition.powers[event["seat"]].name
            elif kind == "hand_revealed":
                assert event["cards"] == list(first.hand(event["seat"]))
                assert batch[at + 1] == {"type": "eliminated", "seat": event["seat"]}
                assert event["seat"] in after.revealed and event["seat"] not in before.revealed
        if action["type"] in {"draw", "use_power", "play_card", "snoop"}:
            expected = {"draw": "drew", "use_power": "power_used", "play_card": "card_played", "snoop": "snooped"}
            kinds = [e["type"] for e in batch if e["type"] != "turn_started"]
            if action["type"] == "draw" and not kinds:  # the pile had run out: nothing to draw
                assert before.bonus is not None and not before.bonus.pile
            else:
                assert kinds[0] == expected[action["type"]], (action, batch)


@each_edition
@examples(6)
@given(SEEDS)
def test_every_legal_destination_is_accepted_and_only_those(edition_id: str, seed: int) -> None:
    """``legal_destinations`` and ``apply(Move)`` agree, in every phase of every turn."""
    game = play(seed, edition_id)
    board = game.edition.require_board()
    rand = random.Random(seed)
    for state in game.states[::3]:
        if state.over:
            continue
        seat = state.turn.seat
        places = set(legal_destinations(state))
        for place in places:
            apply(state, Move(seat, place))
        others = [p for p in board.squares + board.rooms if p not in places and p != state.position(seat)]
        for place in rand.sample(others, min(5, len(others))):
            with pytest.raises(ClueError) as err:
                apply(state, Move(seat, place))
            assert err.value.code in {"illegal_move", "wrong_phase", "not_your_turn", "eliminated"}, err.value


# --- what each seat may see ---------------------------------------------------------------------


def check_record(state: GameState, viewer: str | None, record: list[dict[str, Any]]) -> None:
    """Each event as ``viewer`` sees it: secret cards only for those they belong to."""
    envelope = dict(zip(CATEGORIES, state.envelope.cards()))
    assert len(record) == len(state.log)
    for event, full in zip(record, state.log):
        kind = event["type"]
        if kind in SECRET_CARDS:
            field, owners = SECRET_CARDS[kind]
            entitled = viewer is not None and viewer in {event[owner] for owner in owners}
            assert (field in event) == entitled, (viewer, event)
            assert {k: v for k, v in full.to_dict().items() if k != field} == {k: v for k, v in event.items()
                                                                             if k != field}
        else:
            assert event == full.to_dict()
        if kind == "cards_dealt" and "cards" in event:
            assert event["cards"] == list(state.hand(event["seat"]))
        if kind == "hand_revealed":
            assert event["seat"] in state.revealed and event["cards"] == list(state.hand(event["seat"]))
        if kind == "game_over":
            assert state.over and event["solution"] == envelope


def revealed_cards(state: GameState) -> set[str]:
    return {card for seat in state.revealed for card in state.hand(seat)}


def check_seat_view(state: GameState, seat: str, full: bool) -> None:
    view = json.loads(json.dumps(seat_view(state, seat)))
    shown = [s for s in state.shown if s.to == seat]
    seen = [s for s in state.seen if s.seat == seat]
    assert view["seat"] == seat
    assert view["hand"] == list(state.hand(seat))
    assert view["face_up"] == list(state.face_up)
    assert view["shown_to_me"] == [{"by": s.by, "card": s.card} for s in shown]
    for item in view["shown_to_me"]:
        assert item["card"] in state.hand(item["by"])
    assert [item["card"] for item in view["seen"]] == [s.card for s in seen]
    for item in view["seen"]:
        if item["from"] == "aside":
            assert item["card"] == state.aside[item["index"]]
        else:
            assert item["from"] != seat and item["card"] in state.hand(item["from"])
    assert view["revealed"] == {s: list(state.hand(s)) for s in state.revealed}
    assert view["side_cards"] == len(state.aside) and view["variant"] == state.variant
    assert set(view["may_show"]) <= set(state.hand(seat))
    envelope = dict(zip(CATEGORIES, state.envelope.cards()))
    if state.over:
        assert view["solution"] == envelope
    else:
        assert view["solution"] is None
        assert view["turn"] == state.turn.seat
    if not full:
        return
    check_record(state, seat, view["record"])
    # Every card the view carries as a card is one this seat may know.
    allowed = (set(state.hand(seat)) | set(state.face_up) | {s.card for s in shown} | {s.card for s in seen}
               | revealed_cards(state))
    if state.over:
        allowed |= set(envelope.values())
    assert carried_cards(view) <= allowed, carried_cards(view) - allowed


def check_public_view(state: GameState) -> None:
    view = json.loads(json.dumps(public_view(state)))
    assert view["seat"] is None and view["hand"] == [] and view["shown_to_me"] == [] and view["may_show"] == []
    assert view["seen"] == [] and view["revealed"] == {s: list(state.hand(s)) for s in state.revealed}
    check_record(state, None, view["record"])
    public = set(state.face_up) | revealed_cards(state)
    if state.over:
        public |= set(state.envelope.cards())
        assert view["solution"] == dict(zip(CATEGORIES, state.envelope.cards()))
    else:
        assert view["solution"] is None
    assert carried_cards(view) <= public, carried_cards(view) - public


@each_edition
@examples(6)
@given(SEEDS)
def test_no_view_holds_another_hand_or_the_envelope_before_the_end(edition_id: str, seed: int) -> None:
    game = play(seed, edition_id)
    last_before_end = len(game.states) - 2
    # Full checks also where a new kind of secret has just been made: snooped, seen aside, a hand revealed.
    secret = {"snooped", "side_card_seen", "hand_revealed"}
    for at, state in enumerate(game.states):
        full = (at in (0, last_before_end, len(game.states) - 1) or at % 7 == 0
                or any(e["type"] in secret for e in game.events[at]))
        for seat in state.seats:
            check_seat_view(state, seat, full)
        if full:
            check_public_view(state)


def alternatives(rand: random.Random, state: GameState) -> list[Action]:
    """Actions the player on turn might take instead of the one played: a move to every legal
    destination, a snoop on every opponent, a draw, every kept card and the power (choices at random)."""
    seat, board = state.turn.seat, state.edition.require_board()
    others = [s for s in state.seats if s != seat]
    actions: list[Action] = [Move(seat, place) for place in legal_destinations(state)]
    actions += [Snoop(seat, other) for other in others] + [Draw(seat)]
    choices = [(rand.choice(board.rooms), rand.choice(others))]
    if state.bonus is not None:
        actions += [PlayCard(seat, card, *choice) for holder, card in state.bonus.held if holder == seat
                    for choice in choices]
    actions += [UsePower(seat, *choice) for choice in choices]
    return actions


@each_edition
@examples(8)
@given(seed=SEEDS, where=st.floats(min_value=0, max_value=1))
def test_every_alternative_to_a_played_action_keeps_cards_whole_and_views_private(
        edition_id: str, seed: int, where: float) -> None:
    """From a state of a random game (often mid-move), each other legal choice: every destination,
    and on a snoop space part-way through a roll a snoop on each opponent, then the rest of the move."""
    game = play(seed, edition_id)
    moving = [s for s in game.states if s.turn.phase is Phase.MOVING] or game.states
    state = moving[min(int(where * len(moving)), len(moving) - 1)]
    rand = random.Random(seed)
    reached = []
    for action in alternatives(rand, state):
        after = apply_checked(state, action)
        if after is None:
            continue
        reached.append(after)
        if after.turn.snoop_at is not None and not after.over:
            snooper = after.turn.seat
            for other in (s for s in after.seats if s != snooper):
                snooped = apply_checked(after, Snoop(snooper, other))
                assert snooped is not None, "a snoop on the snoop space just reached was refused"
                assert snooped.seen[-1].seat == snooper and snooped.seen[-1].source == other
                assert snooped.turn.snoop_at is None and snooped.turn.phase is after.turn.phase
                with pytest.raises(ClueError) as err:  # one snoop per landing
                    apply(snooped, Snoop(snooper, other))
                assert err.value.code == "wrong_phase"
                reached.append(snooped)
                for place in legal_destinations(snooped)[:3]:  # then the rest of the roll
                    onward = apply_checked(snooped, Move(snooper, place))
                    assert onward is not None and place != after.position(snooper)
                    reached.append(onward)
    for after in reached[:: max(1, len(reached) // 12)]:  # views of a sample: they cost the most
        for seat in after.seats:
            check_seat_view(after, seat, True)
        check_public_view(after)


# --- every game ends ----------------------------------------------------------------------------


@each_edition
@GAMES
@given(SEEDS)
def test_every_game_ends_with_game_over(edition_id: str, seed: int) -> None:
    # raises if the game has not ended in 5000 actions
    record = random_game(random.Random(seed), edition_id)
    assert record == play(seed, edition_id).record
    assert record[0]["type"] == "setup" and record[0]["edition"] == edition_id and len(record) > 1
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


# --- the two-player variant ------------------------------------------------------------------------


def variant_game(edition_id: str, seed: int) -> Game:
    """A random game of the two_player variant (two seats, four side cards)."""
    rand = random.Random(seed)
    edition = load_edition(edition_id)
    seats = tuple(rand.sample(edition.deck.suspects, 2))
    return play_from(rand, Setup(edition_id, seats, seed=rand.randrange(2**32), variant="two_player"))


@pytest.mark.parametrize("edition_id", [e for e in EDITIONS if e not in VARIANT_EDITIONS])
def test_editions_without_the_variant_refuse_it(edition_id: str) -> None:
    edition = load_edition(edition_id)
    for count in (2, 3):
        with pytest.raises(ClueError) as err:
            new_game(Setup(edition_id, edition.deck.suspects[:count], seed=1, variant="two_player"))
        assert err.value.code == "bad_input"


@pytest.mark.parametrize("edition_id", VARIANT_EDITIONS)
@examples(10)
@given(SEEDS)
def test_the_two_player_variant_keeps_four_side_cards_seen_only_after_no_refutation(
        edition_id: str, seed: int) -> None:
    game = variant_game(edition_id, seed)
    first = game.states[0]
    assert len(first.seats) == 2 and first.variant == "two_player"
    for state in game.states:
        assert state.aside == first.aside and len(state.aside) == ASIDE
        assert state.bonus is None and not state.may_draw
        check_cards(state)
    looked: dict[str, list[int]] = {seat: [] for seat in first.seats}
    for state, batch in zip(game.states[1:], game.events[1:]):
        for at, event in enumerate(batch):
            assert event["type"] != "drew"  # no bonus deck in the variant
            if event["type"] == "no_refutation":
                seat = event["suggester"]
                follows = batch[at + 1] if at + 1 < len(batch) else None
                if len(looked[seat]) < ASIDE:  # the next side card not yet seen, in order
                    index = len(looked[seat])
                    assert follows == {"type": "side_card_seen", "seat": seat, "index": index,
                                       "card": first.aside[index]}
                else:
                    assert follows is None or follows["type"] != "side_card_seen"
            if event["type"] == "side_card_seen":
                assert at > 0 and batch[at - 1] == {"type": "no_refutation", "suggester": event["seat"]}
                looked[event["seat"]].append(event["index"])
        for seat in state.seats:
            view = seat_view(state, seat)
            aside = [item for item in view["seen"] if item["from"] == "aside"]
            assert [item["index"] for item in aside] == looked[seat]
            assert [item["card"] for item in aside] == [first.aside[i] for i in looked[seat]]
            assert view["side_cards"] == ASIDE and view["bonus"] is None
            for event in view["record"]:
                if event["type"] == "side_card_seen":
                    assert ("card" in event) == (event["seat"] == seat)
            # No side card this seat has not looked at itself, in any state (after the game too).
            assert carried_cards(view) & set(first.aside) <= {first.aside[i] for i in looked[seat]}
        assert not carried_cards(public_view(state)) & set(first.aside)
    # A record of the variant, its deal and side cards written out, replays the same.
    setup = dict(game.record[0], deal={
        "envelope": list(first.envelope.cards()),
        "hands": {seat: list(first.hand(seat)) for seat in first.seats},
        "face_up": list(first.face_up),
        "aside": list(first.aside),
    })
    state, _ = new_game(parse_setup(line(setup)))
    for data in game.record[1:]:
        state, _ = apply(state, parse_action(line(data)))
    assert state == game.states[-1]


# --- replaying a record reproduces the game --------------------------------------------------------


@each_edition
@GAMES
@given(SEEDS)
def test_replaying_a_games_own_record_reproduces_every_state(edition_id: str, seed: int) -> None:
    game = play(seed, edition_id)
    replay = Replay(line(game.record[0]))
    assert replay.state == game.states[0]
    assert replay.setup_events == game.events[0]
    for number, (data, state, events) in enumerate(zip(game.record[1:], game.states[1:], game.events[1:]), 2):
        result = replay.step(number, line(data))
        assert result == {"line": number, "ok": True, "events": events}
        assert replay.state == state
    assert replay.state == game.states[-1]


@each_edition
@GAMES
@given(SEEDS)
def test_a_record_with_its_deal_written_out_replays_the_same(edition_id: str, seed: int) -> None:
    """The seeded deal, written into the setup line, changes nothing (dice, snoops and draws included)."""
    game = play(seed, edition_id)
    first = game.states[0]
    deal: dict[str, Any] = {
        "envelope": list(first.envelope.cards()),
        "hands": {seat: list(first.hand(seat)) for seat in first.seats},
        "face_up": list(first.face_up),
    }
    if first.aside:
        deal["aside"] = list(first.aside)
    state, _ = new_game(parse_setup(line(dict(game.record[0], deal=deal))))
    for data in game.record[1:]:
        state, _ = apply(state, parse_action(line(data)))
    assert state == game.states[-1]


@each_edition
@examples(3)
@given(SEEDS)
def test_replaying_through_the_cli_reproduces_the_final_view(edition_id: str, seed: int) -> None:
    game = play(seed, edition_id)
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

JUNK = ["", " ", "x", "Bob", "h25", "H24", "a1", "z99", "q0", "e7", "f3", "u22", "the lounge", "mrs white",
        "MISS SCARLET", "Cloakroom", "Centre", "center", "Basement Stairs", "Poison", "Professor  Plum",
        "Mrs.White", "lounge ", "\u00e9", "a" * 300, "bazinga", "pocketwatch", "tardis-1", "tardis-9", "?"]


def names(edition: Edition) -> st.SearchStrategy[str]:
    bonus = edition.bonus.instances() + tuple(card.id for card in edition.bonus.cards) if edition.bonus else ()
    return st.one_of(st.sampled_from(edition.deck.all), st.sampled_from(JUNK + list(bonus)), st.text(max_size=12))


FACES = st.one_of(st.integers(min_value=-2, max_value=9), st.just(QUESTION))
DICE = st.one_of(st.none(), st.lists(FACES, max_size=3).map(tuple))


@st.composite
def arbitrary_actions(draw: st.DrawFn, state: GameState) -> Action:
    """Any action at all, though mostly from seated players and about real cards and places."""
    edition = state.edition
    board = edition.require_board()
    text = names(edition)
    kind = draw(st.sampled_from(ACTIONS))
    seat = draw(st.one_of(st.just(state.turn.seat), st.sampled_from(state.seats), st.sampled_from(edition.deck.suspects),
                          text))
    here = state.position(state.turn.seat)
    places = sorted(board.passages.get(here, ())) + [here, *board.rooms, *legal_destinations(state)]
    place = st.one_of(st.sampled_from(places), st.sampled_from(board.squares), text)
    target = st.one_of(st.sampled_from(state.seats), st.sampled_from(edition.deck.suspects), text)
    if kind is Roll:
        return Roll(seat, draw(DICE))
    if kind is Move:
        return Move(seat, draw(place))
    if kind is Show:
        return Show(seat, draw(text))
    if kind is Suggest:
        return Suggest(seat, draw(text), draw(text))
    if kind is Accuse:
        return Accuse(seat, draw(text), draw(text), draw(text))
    if kind is Snoop:
        return Snoop(seat, draw(target))
    if kind is Draw:
        return Draw(seat)
    if kind is PlayCard:
        held = [card for _, card in state.bonus.held] if state.bonus else []
        card = draw(st.one_of(st.sampled_from(held), text) if held else text)
        return PlayCard(seat, card, draw(st.none() | place), draw(st.none() | target))
    if kind is UsePower:
        return UsePower(seat, draw(st.none() | place), draw(st.none() | target))
    return Pass(seat) if kind is Pass else EndTurn(seat)


def near_legal_record(draw: Callable[[st.SearchStrategy[Any]], Any], rand: random.Random,
                      state: GameState) -> dict[str, Any]:
    """A legal action's record line with one field swapped for something arbitrary."""
    record = choose(rand, state).to_record()
    field = draw(st.sampled_from(sorted(record) + ["dice", "room", "target"]))
    if field == "type":  # the same fields under another action type: a show becomes a pass, say
        kind = draw(st.sampled_from(ACTIONS))
        wanted = {"type"} | {item.name for item in fields(kind)}
        record = {key: value for key, value in record.items() if key in wanted} | {"type": kind.type}
    elif field == "dice":
        dice = draw(DICE)
        record[field] = list(dice) if dice is not None else None
    else:
        record[field] = draw(names(state.edition))
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


def snapshot(state: GameState) -> dict[str, Any]:
    """Every field of the state (all immutable values), to compare before and after a refusal."""
    return {item.name: getattr(state, item.name) for item in fields(state)}


@each_edition
@examples(60)
@given(seed=SEEDS, where=st.floats(min_value=0, max_value=1), data=st.data())
def test_an_arbitrary_action_is_refused_with_a_code_or_applied(
        edition_id: str, seed: int, where: float, data: st.DataObject) -> None:
    game = play(seed, edition_id)
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
    before = snapshot(state)
    after = apply_checked(state, action)
    assert snapshot(state) == before
    if after is None:
        return
    # An accepted action leaves a state the game can still be played out from.
    for _ in range(5000):
        if after.over:
            break
        after = apply_checked(after, choose(rand, after))
        assert after is not None, "a legal action was refused"
    assert after.over


JUNK_KEYS = ["type", "seat", "to", "dice", "card", "suspect", "weapon", "room", "target", "card_id", "x"]


@each_edition
@examples(20)
@given(seed=SEEDS, where=st.floats(min_value=0, max_value=1), junk=st.one_of(
    st.text(max_size=80),
    st.dictionaries(st.sampled_from(JUNK_KEYS),
                    st.recursive(st.none() | st.booleans() | st.integers() | st.floats()
                                 | st.sampled_from(JUNK + list(load_edition("master_detective").deck.all))
                                 | st.text(max_size=12) | st.sampled_from([a.type for a in ACTIONS]),
                                 lambda inner: st.lists(inner, max_size=3)
                                 | st.dictionaries(st.text(max_size=3), inner, max_size=2),
                                 max_leaves=6)).map(json.dumps),
))
def test_a_junk_line_inserted_in_a_record_is_refused_or_accepted_never_a_crash(
        edition_id: str, seed: int, where: float, junk: str) -> None:
    """Replay with one arbitrary line spliced in: a result for every line, known codes only; and when
    the junk is refused, every other line plays exactly as in the clean game."""
    game = play(seed, edition_id)
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
