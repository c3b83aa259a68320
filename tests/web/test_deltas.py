"""Views as deltas: a stream's operations turn the view it sent last into the new one, exactly."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.deduction.playout import choose, random_setup
from companion.rules.edition import load_edition
from companion.rules.engine import apply as play
from companion.rules.engine import new_game
from companion.rules.state import GameState
from companion.rules.views import public_view, seat_view
from web.context import with_log
from web.deltas import Messages, apply, changes

LEAVES = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
JSON = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                                        max_size=4), max_leaves=20)
VIEWS = st.dictionaries(st.sampled_from(["record", "log", "turn", "board", "hand", "x"]), JSON, max_size=6)


@given(VIEWS, VIEWS)
def test_the_operations_turn_any_view_into_any_other(old: dict[str, Any], new: dict[str, Any]) -> None:
    ops = changes(old, new)
    assert apply(old, ops) == new
    assert apply(json.loads(json.dumps(old)), json.loads(json.dumps(ops))) == new  # as the page gets them


@given(VIEWS, st.lists(JSON, min_size=1, max_size=3))
def test_a_grown_list_is_sent_as_its_new_items(old: dict[str, Any], more: list[Any]) -> None:
    old = {**old, "record": [1, 2]}
    new = {**old, "record": [1, 2, *more]}
    assert changes(old, new) == [["a", ["record"], more]]


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["classic", "master_detective", "big_bang_theory", "doctor_who"]), st.integers(0, 2 ** 32))
def test_every_view_of_a_real_game_is_rebuilt_from_the_deltas(edition: str, seed: int) -> None:
    messages = Messages(with_log)
    viewers: list[str | None] = []
    sent: dict[Any, Any] = {}
    page: dict[Any, Any] = {}
    for state in _states(edition, seed, 60):
        if not viewers:
            viewers = [None, state.seats[0]]
            sent, page = {viewer: None for viewer in viewers}, {viewer: None for viewer in viewers}
        for viewer in viewers:
            view = public_view(state) if viewer is None else seat_view(state, viewer)
            event, data = _parse(messages.message(sent[viewer], view))
            page[viewer] = json.loads(data) if event == "view" else apply(page[viewer], json.loads(data))
            assert page[viewer] == json.loads(json.dumps(with_log(view)))
            sent[viewer] = view


def test_the_first_message_is_the_whole_view_and_a_later_one_a_small_delta() -> None:
    messages, last = Messages(with_log), None
    sizes = []
    for state in _states("classic", 3, 40):
        view = public_view(state)
        event, data = _parse(messages.message(last, view))
        assert event == ("view" if last is None else "delta")
        sizes.append((len(data), len(json.dumps(with_log(view)))))
        last = view
    delta, whole = sizes[-1]
    assert delta < whole / 4


def _states(edition: str, seed: int, count: int) -> Iterator[GameState]:
    """The states of a random legal game, one per action."""
    rand = random.Random(seed)
    state, _ = new_game(random_setup(rand, load_edition(edition)))
    for _ in range(count):
        if state.over:
            return
        state, _ = play(state, choose(rand, state))
        yield state


def _parse(message: str) -> tuple[str, str]:
    head, data = message.rstrip("\n").split("\n", 1)
    return head.removeprefix("event: "), data.removeprefix("data: ")
