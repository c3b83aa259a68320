"""The count against the reference (the count before issue 32) on every update of the benchmark's games.

``reference_games.jsonl`` holds, for the 5 six-player Classic and 5 ten-player
Master Detective games of ``benchmarks/deduction.py`` (seed 1), each game's
facts as its first seat learnt them and, for every update (a line that added
facts), how many facts there were and the digest of the reference's notebook:
every deal, card-at-place and triple count. The reference takes about a minute
on those games, so its answers are recorded
(``python benchmarks/deduction.py --record tests/companion/deduction/reference_games.jsonl``,
which also checks the two agree); the count must give the same digests. The
Classic games, two of the ten-player games (marked slow) and random tables are
also compared live.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.deduction import digest
from companion.deduction.notebook import Fact, deduce
from companion.deduction.reference_count import ReferenceCount
from companion.rules.edition import load_edition

GAMES = Path(__file__).with_name("reference_games.jsonl")


@cache
def recorded() -> list[dict[str, Any]]:
    lines = GAMES.read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


def problem(game: dict[str, Any], facts: int) -> tuple[Any, ...]:
    """The arguments of ``deduce`` for the game's first ``facts`` facts."""
    cards = load_edition(game["edition"]).deck
    known = [Fact(kind, owner, tuple(names), f"fact {number}")
             for number, (kind, owner, names) in enumerate(game["facts"][:facts], start=1)]
    return ((cards.suspects, cards.weapons, cards.rooms), game["hand_sizes"], known, tuple(game["face_up"]),
            game["aside"])


def test_the_recording_covers_the_benchmarks_games():
    games = recorded()
    assert [(game["table"], game["game"]) for game in games] == [
        (table, number) for table in ("Classic 6p", "MD 10p") for number in range(1, 6)]
    assert sum(len(game["updates"]) for game in games if game["table"] == "MD 10p") >= 300


@pytest.mark.parametrize("index", range(10))
def test_every_update_gives_the_references_counts(index):
    game = recorded()[index]
    for update in game["updates"]:
        assert digest(deduce(*problem(game, update["facts"]))) == update["digest"], (game["table"], game["game"],
                                                                                   update["line"])


def live(game: dict[str, Any]) -> None:
    """The count and the reference, run here, agree on every update of ``game``, and the reference with the record."""
    for update in game["updates"]:
        args = problem(game, update["facts"])
        ours, theirs = deduce(*args), deduce(*args, counter=ReferenceCount)
        assert (ours.deals, ours.counts, ours.triples) == (theirs.deals, theirs.counts, theirs.triples)
        assert digest(theirs) == update["digest"]


def test_every_classic_update_equals_the_reference_live():
    for game in recorded()[:5]:
        live(game)


@pytest.mark.slow  # the reference takes 1 to 3 s on each of these two (6 to 9 s on each of the other three)
def test_two_whole_ten_player_games_equal_the_reference_live():
    for game in recorded()[7:9]:
        assert (game["table"], game["game"]) in (("MD 10p", 3), ("MD 10p", 4))
        live(game)


@st.composite
def tables(draw):
    """A true deal of an edition's deck at 3 to 6 seats, and facts a seat could learn about it."""
    cards = load_edition(draw(st.sampled_from(["classic", "master_detective"]))).deck
    deck = (cards.suspects, cards.weapons, cards.rooms)
    rand = random.Random(draw(st.integers(0, 2**32)))
    players = [f"P{seat}" for seat in range(draw(st.integers(3, 6)))]
    envelope = [rand.choice(category) for category in deck]
    rest = [card for category in deck for card in category if card not in envelope]
    rand.shuffle(rest)
    per = len(rest) // len(players)
    face_up, rest = tuple(rest[per * len(players):]), rest[:per * len(players)]
    hands = {player: rest[at * per:(at + 1) * per] for at, player in enumerate(players)}
    facts = [Fact.holds(players[0], card, "hand") for card in hands[players[0]]]
    for step in range(draw(st.integers(0, 40))):
        triple = [rand.choice(category) for category in deck]
        if any(card in face_up for card in triple):
            continue
        who = rand.choice(players[1:])
        held = [card for card in triple if card in hands[who]]
        if not held:
            facts.append(Fact.lacks(who, triple, f"pass {step}"))
        elif rand.random() < 0.6:
            facts.append(Fact.holds_one_of(who, triple, f"showed {step}"))
        else:
            facts.append(Fact.holds(who, rand.choice(held), f"shown {step}"))
        if rand.random() < 0.1 and triple != envelope:
            facts.append(Fact.not_envelope((triple[0], triple[1], triple[2]), f"accused {step}"))
    return deck, {player: per for player in players}, facts, face_up


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_random_tables_equal_the_reference(table):
    ours, theirs = deduce(*table), deduce(*table, counter=ReferenceCount)
    assert (ours.deals, ours.counts, ours.triples) == (theirs.deals, theirs.counts, theirs.triples)
