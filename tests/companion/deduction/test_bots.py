"""Computer players: they play legal games through the engine, and the informed level wins more."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.cli.main import main
from companion.cli.simulate import play
from companion.deduction.bots import Bot, Routes, entropy, information
from companion.rules.edition import load_edition

GAMES = 100  # benchmarks/bots.py plays 1,000


@pytest.mark.slow  # 100 whole games: 8 s
def test_an_expert_beats_bots_that_suggest_at_random():
    """Three seats, one expert and two random bots, the expert's seat rotating; 100 seeded games.

    Measured over 1,000 games (benchmarks/bots.py): the expert wins 83% of its games, a random seat 8.7%;
    in each of ten blocks of 100 games, 76-88% against 6-12%, at least 6.3 times a random seat's rate.
    Even play would give each seat a third. The thresholds leave that margin and still fail an expert
    that lost its edge: a "bold" bot in its place wins 70% against 15% (4.7 times) and fails.
    """
    classic = load_edition("classic")
    outcomes = [play(classic, [["expert", "random", "random"][(seat + game) % 3] for seat in range(3)], game)
                for game in range(GAMES)]
    assert all(outcome.finished for outcome in outcomes)
    wins = Counter(outcome.winning_level for outcome in outcomes)
    expert_rate = wins["expert"] / GAMES  # one expert seat per game
    random_rate = wins["random"] / (2 * GAMES)  # two random seats per game
    assert expert_rate >= 0.70, (expert_rate, random_rate)
    assert expert_rate >= 5 * random_rate, (expert_rate, random_rate)


@pytest.mark.parametrize(("edition", "players"), [
    ("master_detective", 3), ("big_bang_theory", 3), ("doctor_who", 3), ("classic", 5),
    ("big_bang_theory", 4), ("doctor_who", 4),  # leftover cards lie face up
])
def test_bots_finish_games_in_every_edition(edition, players):
    levels = (["expert", "random", "bold"] * 2)[:players]
    outcomes = [play(load_edition(edition), levels, seed) for seed in range(3)]
    assert all(outcome.finished for outcome in outcomes)
    assert all(outcome.turns > 0 for outcome in outcomes)


def test_information_is_zero_for_a_suggestion_of_known_cards_and_positive_otherwise():
    triples = {("A", "X", "R"): 0.5, ("B", "X", "R"): 0.5}
    assert entropy(triples.values()) == pytest.approx(1.0)
    # The suggester holds A: suggesting B tells whether B is in the envelope: one whole bit.
    assert information(("B", "X", "R"), triples, hand={"A"}) == pytest.approx(1.0)
    assert information(("A", "X", "R"), triples, hand={"A", "X", "R"}) == 0


def test_a_refuting_bot_shows_a_card_the_suggester_has_already_seen():
    classic = load_edition("classic")
    bot = Bot.create("Mrs. White", "expert", classic, Routes(classic), random.Random(1))
    bot.observe([{"type": "card_shown", "by": "Mrs. White", "to": "Miss Scarlet", "card": "Rope"}])
    assert bot.shown_to["Rope"] == {"Miss Scarlet"}


def test_simulate_prints_win_rates_turns_and_speed(capsys):
    assert main(["simulate", "--edition", "classic", "--bots", "3", "--games", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "expert" in out and "random" in out and "games per second" in out and "average turns" in out
    assert main(["simulate", "--bots", "9"]) == 2
    assert main(["simulate", "--levels", "genius"]) == 2
    assert "unknown level" in capsys.readouterr().err
    assert main(["simulate", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
    assert main(["simulate", "--edition", "monopoly"]) == 2
    assert "unknown edition 'monopoly'" in capsys.readouterr().err
