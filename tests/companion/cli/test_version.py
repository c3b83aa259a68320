"""``--version`` on the program and on every command it registers, now and later ones too."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from importlib import metadata

import pytest

from companion.cli.main import _parser, main

EXPECTED = f"clue-companion {metadata.version('clue-companion')}"


def commands() -> list[str]:
    parser = _parser()
    found = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    assert found, "the program registers no commands"
    return sorted(found[0].choices)


def test_the_program_prints_its_version_and_exits_0() -> None:
    done = subprocess.run([sys.executable, "-m", "companion.cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, EXPECTED, "")
    assert re.fullmatch(r"clue-companion \d+\.\d+\.\d+", EXPECTED)


@pytest.mark.parametrize("command", commands())
def test_every_command_prints_the_version_and_exits_0(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main([command, "--version"])
    out, err = capsys.readouterr()
    assert (leaving.value.code, out.strip(), err) == (0, EXPECTED, "")


def test_a_command_registered_later_gets_version_too(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import run

    registered = run.add_parser

    def also_doctor(subcommands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        registered(subcommands)
        subcommands.add_parser("doctor-to-be").add_argument("--fix", action="store_true")

    monkeypatch.setattr(run, "add_parser", also_doctor)
    with pytest.raises(SystemExit) as leaving:
        main(["doctor-to-be", "--version"])
    assert (leaving.value.code, capsys.readouterr().out.strip()) == (0, EXPECTED)
