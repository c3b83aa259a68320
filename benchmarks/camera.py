"""How well ``camera read`` reads synthetic photos, per condition, and how long a 1920 x 1080 frame takes.

    .venv/bin/python benchmarks/camera.py            # 2,112 scenes over the four editions (5-10 minutes)
    .venv/bin/python benchmarks/camera.py --quick    # 20 a condition, to try a change
    .venv/bin/python benchmarks/camera.py --scenes 50 --seed 3

Each scene is a random position of every mover and weapon of one edition (cycling over the four),
photographed by :mod:`hardware.camera.scene` under one condition (tilt up to 30° from vertical, the
board wholly in view and filling 45-62% of the frame, as issue 29's item 7 asks). A piece is
*wrong* when the reading puts it anywhere but its true place; *unseen* when the reading does not
place it. A frame is *all right* when every piece of the edition is at its true place. A piece is *hidden*
when its sticker is not wholly in view: under a hand, or behind a taller piece the camera looks
past (a mover beside a weapon, seen at a slant); such a frame is occluded, and judged on wrong
pieces only (a hidden piece is rightly unseen). The targets:

- pieces placed wrong: at most 0.1% (over every condition);
- frames all right, no occlusion (nothing hidden, over every condition): at least 99.5%;
- at most 60 ms to read a 1920 x 1080 frame (the mean, on this machine).

Item 7's game of 10,000 frames with hands is the live watcher's (issue 29 item 3), not measured
here: ``hardware.camera.scene.move`` steps a scene's position (one piece to a new place) and a
shot with ``hands=1`` and a new seed puts a hand over it, so a game can be filmed frame by frame.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.rules.edition import load_edition  # noqa: E402
from hardware.camera.read import detector, read  # noqa: E402
from hardware.camera.scene import Conditions, Photo, Renderer, random_scene  # noqa: E402

EDITIONS = ("classic", "master_detective", "doctor_who", "big_bang_theory")
ALL_EFFECTS = dict(k1=(-0.12, 0.03), light=(0.2, 0.5), glare=(30.0, 110.0), blur=(0.4, 1.1), noise=(2.0, 7.0),
                   jpeg=(65, 85))
CONDITIONS = (
    Conditions("looking down (tilt 0-10°)", tilt_deg=(0.0, 10.0), k1=(0.0, 0.0), light=(0.0, 0.0), blur=(0.0, 0.0),
               noise=(0.0, 0.0)),
    Conditions("tilted 15-30°", tilt_deg=(15.0, 30.0)),
    Conditions("small board (fill 45-48%), tilted", tilt_deg=(15.0, 30.0), fill=(0.45, 0.48)),
    Conditions("lens distortion (k1 -0.12 to 0.03)", k1=(-0.12, 0.03)),
    Conditions("uneven light and glare", light=(0.2, 0.5), glare=(30.0, 110.0)),
    Conditions("blur, noise, JPEG 65-85", blur=(0.4, 1.1), noise=(2.0, 7.0), jpeg=(65, 85)),
    Conditions("all of the above", **ALL_EFFECTS),  # type: ignore[arg-type]
)
HANDS = Conditions("hands over the board (1-2)", hands=(1, 2), **ALL_EFFECTS)  # type: ignore[arg-type]
TARGETS = {"wrong": 0.1, "all_right": 99.5, "ms": 60.0}


@dataclass
class Tally:
    frames: int = 0
    board_found: int = 0
    pieces: int = 0
    wrong: int = 0
    unseen: int = 0
    hidden: int = 0
    all_right: int = 0
    clear: int = 0  # frames where no piece is hidden (by a hand or another piece)
    clear_right: int = 0
    ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def add(self, photo: Photo, pieces: dict[str, str], found: bool, ms: float) -> None:
        self.frames += 1
        self.board_found += found
        self.pieces += len(photo.truth)
        wrong = sum(1 for name, place in pieces.items() if photo.truth.get(name) != place)
        self.wrong += wrong
        self.unseen += sum(1 for name in photo.truth if name not in pieces)
        self.hidden += len(photo.hidden)
        right = wrong == 0 and len(pieces) == len(photo.truth)
        self.all_right += right
        self.clear += not photo.hidden
        self.clear_right += right and not photo.hidden
        self.ms.append(ms)


def scenes(conditions: Conditions, count: int, seed: int) -> Iterator[tuple[Renderer, int]]:
    renderers = {name: Renderer(load_edition(name)) for name in EDITIONS}
    for n in range(count):
        yield renderers[EDITIONS[n % len(EDITIONS)]], seed * 1_000_003 + n


def run(conditions: Conditions, count: int, seed: int) -> Tally:
    tally = Tally()
    finders: dict[str, object] = {}
    for renderer, scene_seed in scenes(conditions, count, seed):
        photo = renderer.render(random_scene(renderer, np.random.default_rng(scene_seed), conditions))
        finder = finders.setdefault(renderer.plan.dictionary, detector(renderer.plan.dictionary))
        start = time.perf_counter()
        reading = read(photo.image, renderer.plan, finder=finder)  # type: ignore[arg-type]
        tally.add(photo, dict(reading.pieces), reading.board_found, (time.perf_counter() - start) * 1000)
        misplaced = {name: place for name, place in reading.pieces.items() if photo.truth[name] != place}
        missed = [name for name in photo.truth if name not in reading.pieces and name not in photo.hidden]
        if misplaced or missed:
            tally.failures.append(f"{conditions.name}: {renderer.edition.id} seed {scene_seed}: "
                                  f"misplaced {misplaced}, missed in view {missed}")
    return tally


def table(rows: list[tuple[str, Tally]]) -> list[str]:
    lines = ["| condition | frames | board found | pieces | wrong | unseen | hidden (truth) | frames all right "
             "| all right, nothing hidden | ms mean | ms p95 |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, t in rows:
        ms = sorted(t.ms)
        lines.append(f"| {name} | {t.frames} | {_pct(t.board_found, t.frames)} | {t.pieces} | "
                     f"{t.wrong} ({_pct(t.wrong, t.pieces, 2)}) | {_pct(t.unseen, t.pieces, 2)} | {t.hidden} | "
                     f"{_pct(t.all_right, t.frames, 1)} | {_pct(t.clear_right, t.clear, 2)} of {t.clear} | {statistics.fmean(ms):.1f} | {ms[int(0.95 * (len(ms) - 1))]:.1f} |")
    return lines


def _pct(part: int, whole: int, digits: int = 1) -> str:
    return f"{100 * part / max(whole, 1):.{digits}f}%"


def verdict(rows: list[tuple[str, Tally]]) -> list[str]:
    every = [t for _, t in rows]
    wrong = 100 * sum(t.wrong for t in every) / max(1, sum(t.pieces for t in every))
    right = 100 * sum(t.clear_right for t in every) / max(1, sum(t.clear for t in every))
    ms = statistics.fmean([m for t in every for m in t.ms])
    checks = [(f"pieces placed wrong {wrong:.3f}% (target <= {TARGETS['wrong']}%)", wrong <= TARGETS["wrong"]),
              (f"frames all right without occlusion {right:.2f}% (target >= {TARGETS['all_right']}%)",
               right >= TARGETS["all_right"]),
              (f"read time {ms:.1f} ms a 1920x1080 frame, mean (target <= {TARGETS['ms']:.0f} ms)", ms <= TARGETS["ms"])]
    return [f"{'met ' if ok else 'MISSED'}  {text}" for text, ok in checks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 scenes a condition")
    parser.add_argument("--scenes", type=int, default=None, help="scenes a condition (default 264: 2,112 in all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--failures", action="store_true", help="list each frame with a piece misplaced or missed")
    args = parser.parse_args(argv)
    count = args.scenes or (20 if args.quick else 264)
    rows = []
    for conditions in (*CONDITIONS, HANDS):
        start = time.perf_counter()
        rows.append((conditions.name, run(conditions, count, args.seed)))
        print(f"  {conditions.name}: {count} scenes in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"camera read: {count * len(rows)} synthetic 1920x1080 photos, editions {', '.join(EDITIONS)}\n")
    print("\n".join(table(rows)))
    print()
    lines = verdict(rows)
    print("\n".join(lines))
    if args.failures:
        print("\n".join(["", *[line for _, t in rows for line in t.failures]]))
    return 0 if all(line.startswith("met") for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
