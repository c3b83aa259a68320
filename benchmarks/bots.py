"""How much better the expert bot plays than bots that suggest at random, over 1,000 seeded games.

Run with ``python benchmarks/bots.py`` (``--games N`` for another count). Three
seats of Classic, one expert and two random bots, the expert's seat rotating
with the game's number, seeds 0 to N-1, as
``tests/companion/deduction/test_bots.py`` plays its first 100. Prints the
expert's and a random seat's win rates, overall and per block of 100 games, the
smallest ratio of a block, and the games per second.

Targets (the test's thresholds, which this measure chose): the expert wins at
least 70% of its games in every block of 100 and at least 5 times as often as a
random seat. Measured before the test was cut to 100 games: 82.6% against 8.7%
over 1,000 games; per block 76-88% against 6-12%, the smallest ratio 6.3. A
"bold" bot in the expert's place misses them: 70% against 15% (4.7 times) over
the first 100.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from companion.cli.simulate import Outcome, play
from companion.rules.edition import load_edition

BLOCK = 100
EXPERT_AT_LEAST = 0.70
RATIO_AT_LEAST = 5.0


def rates(outcomes: list[Outcome]) -> tuple[float, float]:
    """The expert's win rate (one seat a game) and a random seat's (two a game)."""
    wins = Counter(outcome.winning_level for outcome in outcomes)
    return wins["expert"] / len(outcomes), wins["random"] / (2 * len(outcomes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    games = parser.parse_args().games
    classic = load_edition("classic")
    started = time.perf_counter()
    outcomes = [play(classic, [["expert", "random", "random"][(seat + game) % 3] for seat in range(3)], game)
                for game in range(games)]
    elapsed = time.perf_counter() - started
    unfinished = sum(not outcome.finished for outcome in outcomes)
    expert, random_seat = rates(outcomes)
    print(f"{games} games in {elapsed:.1f} s ({games / elapsed:.1f} games per second), {unfinished} unfinished")
    print(f"expert {expert:.1%}, random seat {random_seat:.1%}, ratio {expert / max(random_seat, 1e-9):.1f}")
    blocks = [rates(outcomes[start:start + BLOCK]) for start in range(0, games - BLOCK + 1, BLOCK)]
    for number, (block_expert, block_random) in enumerate(blocks):
        print(f"  games {number * BLOCK}-{number * BLOCK + BLOCK - 1}: expert {block_expert:.0%}, "
              f"random seat {block_random:.0%}")
    if blocks:
        lowest = min(block_expert for block_expert, _ in blocks)
        ratio = min(block_expert / max(block_random, 1e-9) for block_expert, block_random in blocks)
        print(f"per block of {BLOCK}: expert at least {lowest:.0%} (target {EXPERT_AT_LEAST:.0%}), "
              f"ratio at least {ratio:.1f} (target {RATIO_AT_LEAST:.0f}): "
              + ("met" if lowest >= EXPERT_AT_LEAST and ratio >= RATIO_AT_LEAST and not unfinished else "MISSED"))


if __name__ == "__main__":
    main()
