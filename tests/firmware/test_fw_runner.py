"""The test harness itself: it really is MicroPython, and it fails loudly, never silently."""

from __future__ import annotations

from pathlib import Path

import mpy_runner
import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from mpy_runner import MicroPython, MicroPythonError


def test_the_interpreter_is_micropython_1_27(mp: MicroPython) -> None:
    assert mp.eval("[sys.implementation.name, list(sys.implementation.version[:2])]", "import sys") == [
        "micropython", [1, 27]]


def test_an_exception_comes_back_with_its_traceback(mp: MicroPython) -> None:
    with pytest.raises(MicroPythonError, match=r"(?s)Traceback.*ZeroDivisionError"):
        mp.eval("1 // 0")
    assert mp.eval("6 * 7") == 42  # the session goes on


def test_printing_is_an_error_since_stdout_is_the_data_channel(mp: MicroPython) -> None:
    with pytest.raises(MicroPythonError, match="something printed:\n\\(printed\\) hello"):
        mp.run("print('hello')")


def test_a_missing_npm_install_says_what_to_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(mpy_runner, "PACKAGE", tmp_path / "missing")
    with pytest.raises(RuntimeError, match="run: cd tests/firmware && npm ci"):
        MicroPython()


def test_a_missing_node_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mpy_runner.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="node not found"):
        MicroPython()
