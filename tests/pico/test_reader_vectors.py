"""One model of the RF field: the twin's MFRC522 port (readers.mjs) against vectors from the Python fake.

make_vectors.py runs the real driver and scanner on the WebAssembly tests'
fake (tests/firmware/micropython/fake_mfrc522.py) under CPython and records
every SPI transaction with the fake's MISO bytes; here the committed vectors
must still be what the fake answers, and the JavaScript port must answer every
byte the same.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
VECTORS = HERE / "vectors"
REPLAY = """
import fs from 'fs';
import { replayVector } from './readers.mjs';
const out = {};
for (const path of process.argv.slice(1)) out[path] = replayVector(JSON.parse(fs.readFileSync(path, 'utf8')));
console.log(JSON.stringify(out));
"""


def _replay(paths: list[Path]) -> dict[str, list[dict[str, object]]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not found: the twin's tests need Node.js 20 or later")
    done = subprocess.run([node, "--input-type=module", "-e", REPLAY, *map(str, paths)], cwd=HERE,
                          capture_output=True, text=True, timeout=60, check=True)
    result: dict[str, list[dict[str, object]]] = json.loads(done.stdout)
    return result


def test_the_python_fake_answers_every_byte_as_recorded() -> None:
    """The fake still gives the vectors' answers (the driver that made the traffic may have changed since)."""
    done = subprocess.run([sys.executable, str(HERE / "make_vectors.py"), "--check"], capture_output=True, text=True,
                          timeout=60, check=True)
    problems = json.loads(done.stdout)
    assert problems == {path.name: [] for path in sorted(VECTORS.glob("*.json"))}, "rerun make_vectors.py"


def test_the_port_answers_every_byte_as_the_fake() -> None:
    paths = sorted(VECTORS.glob("*.json"))
    crowd = json.loads((VECTORS / "crowd.json").read_text())
    assert crowd["collisions"] > 10 and crowd["reports"] > 5  # the vectors exercise anticollision
    straddle = json.loads((VECTORS / "straddle.json").read_text())
    assert straddle["readers"] == 2 and any(len(step.get("readers", ())) == 2 for step in straddle["steps"])
    faults = json.loads((VECTORS / "faults.json").read_text())
    assert {"dip", "unplug", "plug", "overheat", "cool"} <= {key for step in faults["steps"] for key in step}
    problems = _replay(paths)
    assert problems == {str(path): [] for path in paths}


def test_a_changed_answer_is_caught(tmp_path: Path) -> None:
    vector = json.loads((VECTORS / "one_tag.json").read_text())
    reads = [step for step in vector["steps"] if step.get("mosi", "").startswith("ee")]  # VersionReg reads
    reads[0]["miso"] = reads[0]["miso"][:2] + "91"
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(vector))
    problems = _replay([path])[str(path)]
    assert len(problems) == 1 and str(problems[0]["want"]).endswith("91")
