"""``doctor`` tells what was wrong with the card's boot file at this boot (the problems first-boot left)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_doctor import doctor, line, setup  # noqa: F401 - setup is a fixture used by name

from companion.cli.doctor import FIRST_BOOT_VARIABLE, check_first_boot
from companion.cli.first_boot import Paths, first_boot

REPO = Path(__file__).resolve().parents[3]


def boot_with(tmp_path: Path, text: str) -> Path:
    """A boot of the card image with ``text`` as its boot file; the problems file it leaves."""
    boot = tmp_path / "boot" / "clue-companion.toml"
    boot.parent.mkdir()
    boot.write_text(text)
    problems = tmp_path / "run" / "first-boot-problems.json"
    first_boot(Paths(boot, tmp_path / "etc.toml", tmp_path / "run" / "network.json", problems,
                     (REPO / "tools/pi/clue-companion.toml",), (tmp_path / "no-id",)))
    return problems


def test_doctor_lists_the_boot_files_problems_with_the_fix(capsys: pytest.CaptureFixture[str], setup: Path,  # noqa: F811
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUE_COMPANION_EDITIONS", str(tmp_path / "editions"))
    problems = boot_with(tmp_path, '[companion]\npin = "20486"\nedition = "Monopoly"\n')
    capsys.readouterr()
    monkeypatch.setenv(FIRST_BOOT_VARIABLE, str(problems))
    _, out = doctor(capsys, "--config", str(setup))
    found = line(out, "boot file")
    assert found.startswith(f"! boot file: 2 problems in {tmp_path / 'boot' / 'clue-companion.toml'}: the last good "
                            "settings are used")
    assert "companion.pin: The host PIN must be 6 to 12 digits." in found
    assert "companion.edition: unknown edition 'Monopoly'" in found
    assert "fix: edit clue-companion.toml on the card's boot partition (docs/first-boot.md)" in found


def test_after_a_good_boot_doctor_says_nothing_of_the_boot_file(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    problems = boot_with(tmp_path, '[companion]\npin = "204868"\n')
    assert not problems.exists() and check_first_boot(problems) == []


def test_a_damaged_problems_file_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "first-boot-problems.json"
    path.write_text("{half")
    (finding,) = check_first_boot(path)
    assert finding.status == "warn" and finding.text.startswith(f"cannot read {path}")
