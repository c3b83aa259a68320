"""The power-cut judge of the image test (tools/pi/image/test/compare_record.py): the store after a
cut must hold every acknowledged action in order, none twice, plus at most the one in flight."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "pi" / "image" / "test" / "compare_record.py"
ROLL = {"seat": "Miss Scarlet", "type": "roll", "dice": [3]}
MOVE = {"seat": "Miss Scarlet", "type": "move", "to": "h22"}
END = {"seat": "Miss Scarlet", "type": "end_turn"}


def judge(tmp_path: Path, stored: list[dict[str, Any]], acked: list[dict[str, Any]], inflight: dict[str, Any] | None,
          integrity: str = "ok") -> tuple[int, str]:
    store = tmp_path / "store.json"
    # The store keeps its own field order and nulls; the judge compares the actions, not the text.
    lines = [json.dumps({"type": a["type"], "seat": a["seat"], "room": None, **a}) for a in stored]
    store.write_text("noise before the JSON\n" + json.dumps({"integrity": [integrity], "game": 2, "lines": lines}))
    acks = tmp_path / "acks.log"
    acks.write_text("".join(json.dumps(a) + "\n" for a in acked))
    pending = tmp_path / "acks.log.inflight"
    if inflight is not None:
        pending.write_text(json.dumps(inflight) + "\n")
    done = subprocess.run([sys.executable, str(SCRIPT), str(store), str(acks), str(pending), "7"],
                          capture_output=True, text=True, timeout=30)
    return done.returncode, done.stdout


def test_every_acknowledged_action_once_passes(tmp_path: Path) -> None:
    assert judge(tmp_path, [ROLL, MOVE], [ROLL, MOVE], None)[0] == 0


def test_the_action_in_flight_may_be_kept_or_lost(tmp_path: Path) -> None:
    kept, said = judge(tmp_path, [ROLL, MOVE, END], [ROLL, MOVE], END)
    assert kept == 0 and "the one in flight kept" in said
    assert judge(tmp_path, [ROLL, MOVE], [ROLL, MOVE], END)[0] == 0


def test_a_lost_acknowledged_action_fails(tmp_path: Path) -> None:
    status, said = judge(tmp_path, [ROLL], [ROLL, MOVE], None)
    assert status == 1 and "acknowledged action 2 missing" in said


def test_an_action_stored_twice_fails(tmp_path: Path) -> None:
    status, said = judge(tmp_path, [ROLL, MOVE, MOVE], [ROLL, MOVE], None)
    assert status == 1 and "beyond the acknowledged" in said


def test_a_damaged_store_fails(tmp_path: Path) -> None:
    status, said = judge(tmp_path, [ROLL], [ROLL], None, integrity="*** in database main ***")
    assert status == 1 and "integrity_check" in said


def test_adopt_adds_the_kept_action_in_flight_to_the_acknowledged(tmp_path: Path) -> None:
    judge(tmp_path, [ROLL, MOVE], [ROLL], MOVE)
    subprocess.run([sys.executable, str(SCRIPT), "--adopt", str(tmp_path / "store.json"), str(tmp_path / "acks.log"),
                    str(tmp_path / "acks.log.inflight")], check=True, timeout=30)
    assert [json.loads(line) for line in (tmp_path / "acks.log").read_text().splitlines()] == [ROLL, MOVE]
    assert not (tmp_path / "acks.log.inflight").exists()
