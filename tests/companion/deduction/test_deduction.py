"""The detective's assistant against brute force, and on recorded games.

Brute force deals every card of a small deck every possible way and keeps the
deals that fit the facts; the assistant's counts must be the same integers, so
its probabilities are equal exactly (not merely to 1e-9) and its certain facts
identical.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.deduction.knowledge import Knowledge
from companion.deduction.notebook import ASIDE, ENVELOPE, Contradiction, Fact, deduce
from companion.deduction.playout import random_game
from companion.record.replay import Replay
from companion.rules.edition import load_edition

SMALL = (("S1", "S2", "S3"), ("W1", "W2", "W3"), ("R1", "R2", "R3", "R4"))
TINY = (("S1", "S2"), ("W1", "W2", "W3"), ("R1", "R2", "R3"))


def brute(deck, sizes, facts, face_up=(), aside=0):
    """Every deal, tried one by one: (deals, card -> place -> count, triple -> count)."""
    cards = [card for category in deck for card in category if card not in face_up]
    capacity = dict(sizes) | ({ASIDE: aside} if aside else {})
    total, counts, triples = 0, {card: {} for card in cards}, {}
    for envelope in itertools.product(*[[c for c in category if c not in face_up] for category in deck]):
        rest = [card for card in cards if card not in envelope]
        for owners in _fill(rest, capacity):
            where = dict(zip(rest, owners)) | dict.fromkeys(envelope, ENVELOPE)
            if all(_fits(fact, where, envelope) for fact in facts):
                total += 1
                triples[envelope] = triples.get(envelope, 0) + 1
                for card, place in where.items():
                    counts[card][place] = counts[card].get(place, 0) + 1
    return total, counts, triples


def _fill(cards, capacity):
    if not cards:
        yield ()
        return
    for owner, room in capacity.items():
        if room:
            for rest in _fill(cards[1:], capacity | {owner: room - 1}):
                yield (owner, *rest)


def _fits(fact, where, envelope):
    places = [where.get(card) for card in fact.cards]
    if fact.kind in ("holds", "aside", "envelope"):
        return all(place == fact.owner for place in places)
    if fact.kind == "lacks":
        return fact.owner not in places
    if fact.kind == "holds_one_of":
        return fact.owner in places
    return tuple(envelope) != fact.cards  # not_envelope


@st.composite
def small_games(draw):
    """A true deal of a small deck, and facts a seat could learn about it (now and then a false one)."""
    deck = draw(st.sampled_from([SMALL, TINY]))
    rand = random.Random(draw(st.integers(0, 2**32)))
    players = ["A", "B", "C"][: draw(st.integers(2, 3))]
    envelope = tuple(rand.choice(category) for category in deck)
    rest = [card for category in deck for card in category if card not in envelope]
    rand.shuffle(rest)
    aside = draw(st.sampled_from([0, 0, 2])) if len(players) == 2 else 0
    per = (len(rest) - aside) // len(players)
    face_up = tuple(rest[: len(rest) - aside - per * len(players)])
    rest = rest[len(face_up):]
    hands = {player: rest[i * per:(i + 1) * per] for i, player in enumerate(players)}
    set_aside = rest[per * len(players):]
    facts = [Fact.holds("A", card, f"hand {card}") for card in hands["A"]]
    for step in range(draw(st.integers(0, 7))):
        triple = tuple(rand.choice(category) for category in deck)
        who = rand.choice(players[1:])
        held = [card for card in triple if card in hands[who]]
        roll = rand.random()
        if roll < 0.08:  # a false entry: the record may contradict itself
            facts.append(Fact.holds(who, rand.choice([c for c in triple if c not in face_up] or ["S1"]), f"wrong {step}"))
        elif not held:
            facts.append(Fact.lacks(who, triple, f"pass {step}"))
        elif roll < 0.55:
            facts.append(Fact.holds_one_of(who, triple, f"showed {step}"))
        else:
            facts.append(Fact.holds(who, rand.choice(held), f"shown {step}"))
        if rand.random() < 0.2 and triple != envelope:
            facts.append(Fact.not_envelope(triple, f"accused {step}"))
        if set_aside and rand.random() < 0.2:
            facts.append(Fact.aside(rand.choice(set_aside), f"side {step}"))
    sizes = {player: len(hand) for player, hand in hands.items()}
    return deck, sizes, facts, face_up, aside


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games())
def test_counts_equal_brute_force(game):
    deck, sizes, facts, face_up, aside = game
    total, counts, triples = brute(deck, sizes, facts, face_up, aside)
    if total == 0:
        with pytest.raises(Contradiction) as raised:
            deduce(deck, sizes, facts, face_up, aside)
        blamed = [fact for fact in facts if fact.source in raised.value.entries]
        assert brute(deck, sizes, blamed, face_up, aside)[0] == 0, "the entries named must contradict each other"
        return
    notebook = deduce(deck, sizes, facts, face_up, aside)
    assert notebook.deals == total
    for card, at in counts.items():
        for place in notebook.places:
            assert notebook.probability(card, place) == Fraction(at.get(place, 0), total)
    assert notebook.certain == {card: place for card, at in counts.items() for place, n in at.items() if n == total}
    assert {triple: p for triple, p in notebook.triple_probabilities().items()} == {
        triple: Fraction(n, total) for triple, n in triples.items()}
    assert sum(notebook.triple_probabilities().values()) == 1


def test_holds_one_of_and_hand_sizes_are_used():
    # B showed a card from {S1, W1, R1} and holds one card: with W1 and R1 placed, it must be S1.
    facts = [Fact.holds("A", "W1", "hand"), Fact.holds("A", "R1", "hand"),
             Fact.holds_one_of("B", ("S1", "W1", "R1"), "B showed A card")]
    notebook = deduce(TINY, {"A": 2, "B": 2}, facts, face_up=("R3",))
    assert notebook.certain["S1"] == "B"
    assert notebook.certain["S2"] == ENVELOPE


def test_a_contradiction_names_the_entries_responsible():
    facts = [Fact.holds("A", "S1", "line 1: A holds S1"), Fact.holds("A", "W1", "line 1: A holds W1"),
             Fact.lacks("B", ("S2", "W2", "R2"), "line 4: B passed"),
             Fact.holds("B", "S2", "line 7: B showed A S2")]
    with pytest.raises(Contradiction) as raised:
        deduce(TINY, {"A": 3, "B": 2}, facts, face_up=())
    assert raised.value.entries == ("line 4: B passed", "line 7: B showed A S2")
    assert raised.value.code == "contradiction"


def test_unknown_cards_and_players_are_errors_not_contradictions():
    with pytest.raises(Exception, match="not a card"):
        deduce(TINY, {"A": 3, "B": 2}, [Fact.holds("A", "Nope", "typo")])
    with pytest.raises(Exception, match="not a player"):
        deduce(TINY, {"A": 3, "B": 2}, [Fact.holds("Z", "S1", "typo")])


def test_probabilities_are_exact_not_sampled():
    # Two rooms left for the envelope and B's one card: exactly half each.
    notebook = deduce(TINY, {"A": 4, "B": 1}, [Fact.holds("A", card, "hand") for card in ("S1", "W1", "W2", "R1")])
    assert notebook.certain["S2"] == notebook.certain["W3"] == ENVELOPE
    assert [notebook.probability(room, ENVELOPE) for room in TINY[2]] == [0, Fraction(1, 2), Fraction(1, 2)]
    assert notebook.best_accusation[1] == Fraction(1, 2)


def _seat_notebooks(record: Sequence[dict], seat: str):
    """(line number, notebook) after each line, as ``seat`` sees the game."""
    game = Replay(json.dumps(record[0]), view=seat)
    knows = Knowledge(seat, game.state.edition.deck)
    for event in game.setup_events:
        knows.learn(event, "line 1")
    yield 1, knows.notebook()
    for number, line in enumerate(record[1:], start=2):
        result = game.step(number, json.dumps(line))
        for event in result.get("events", []):
            knows.learn(event, f"line {number}")
        yield number, knows.notebook()


def test_a_recorded_classic_game_is_solved_by_deduction_at_a_known_line():
    # Seed 3 is a 4-player game of 141 lines. On line 89 Mrs. Peacock suggests herself with the
    # Wrench in the Library and nobody can answer: she holds none of the three, so she knows.
    record = random_game(random.Random(3))
    chances = {}
    solution = None
    for number, notebook in _seat_notebooks(record, "Mrs. Peacock"):
        best, chances[number] = notebook.best_accusation
        if chances[number] == 1:
            solution = (number, best)
            break
    assert solution == (89, ("Mrs. Peacock", "Wrench", "Library"))
    assert chances[88] == Fraction(64, 1925)  # 3.3%: the likeliest triple the line before
    # The game's own answer, from the unredacted replay:
    game = Replay(json.dumps(record[0]))
    assert (game.state.envelope.suspect, game.state.envelope.weapon, game.state.envelope.room) == solution[1]


# Master Detective seed 28 seats 4; the 10-player games are benchmarks/deduction.py's (test_reference_games.py).
@pytest.mark.parametrize(("edition", "seed"), [("classic", 11), ("master_detective", 28), ("big_bang_theory", 11),
                                               ("doctor_who", 11)])
def test_every_seat_in_a_random_game_keeps_the_truth_possible(edition, seed):
    """What a seat deduces never rules out the real deal, in every edition and refutation rule."""
    record = random_game(random.Random(seed), edition)
    truth = Replay(json.dumps(record[0]))
    for line in record[1:]:
        truth.step(0, json.dumps(line))
    envelope = truth.state.envelope
    for seat in record[0]["seats"][:2]:
        for _, notebook in _seat_notebooks(record, seat):
            assert notebook.triples.get((envelope.suspect, envelope.weapon, envelope.room), 0) > 0
            for card, place in notebook.certain.items():
                assert place == _holder(truth.state, card)


def _holder(state, card):
    envelope = state.envelope
    if card in (envelope.suspect, envelope.weapon, envelope.room):
        return ENVELOPE
    for seat in state.seats:
        if card in state.hand(seat):
            return seat
    return ASIDE


def test_notebook_command_prints_a_table_and_json(tmp_path, capsys):
    record = random_game(random.Random(3))
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in record) + "\n")
    assert main(["notebook", str(path), "--seat", "mrs. peacock", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(record)
    assert lines[88]["line"] == 89 and lines[88]["notebook"]["can_accuse"]
    assert lines[88]["notebook"]["certain"]["Wrench"] == "envelope"
    assert not lines[87]["notebook"]["can_accuse"]
    assert lines[87]["notebook"]["accuse_chance"] == pytest.approx(64 / 1925, abs=1e-12)
    assert main(["notebook", str(path), "--seat", "Mrs. Peacock"]) == 0
    text = capsys.readouterr().out
    assert "line 89:\n" in text and "certain: accuse now" in text
    assert main(["notebook", str(path), "--seat", "Nobody"]) == 2
