"""``run --pin``: at least 6 digits, and the PIN shown only on a terminal, never in a log."""

from __future__ import annotations

import http.cookiejar
import json
import os
import pty
import re
import stat
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

PIN = "246813"


def run(tmp_path: Path, *extra: str, stderr: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """``run --mock`` with a store in ``tmp_path``; it stops once its (empty) script has run."""
    (tmp_path / "script.txt").write_text("")
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--port", "0", "--host", "127.0.0.1",
         "--script", str(tmp_path / "script.txt"), "--exit-after-script", *extra],
        stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("pin", ["1", "abcdef", "12345", "12345a", "１２３４５６", "1234567890123", ""])
def test_a_short_or_non_digit_pin_is_refused_in_one_line(tmp_path: Path, pin: str) -> None:
    done = run(tmp_path, "--pin", pin)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["clue-companion: --pin: the host PIN must be 6 to 12 digits."]
    assert not (tmp_path / "games.db").exists()  # refused before anything started


def test_without_a_terminal_the_pin_goes_to_a_private_file_not_the_output(tmp_path: Path) -> None:
    done = run(tmp_path, "--pin", PIN)
    assert done.returncode == 0, done.stderr[-2000:]
    pin_file = tmp_path / "host-pin"
    assert PIN not in done.stderr and PIN not in done.stdout
    assert f"clue-companion: host PIN in {pin_file} (readable by this user only)" in done.stdout
    assert pin_file.read_text() == PIN + "\n"
    assert stat.S_IMODE(pin_file.stat().st_mode) == 0o600


def test_a_pin_file_left_readable_is_made_private_again(tmp_path: Path) -> None:
    pin_file = tmp_path / "host-pin"
    pin_file.write_text("000000\n")
    pin_file.chmod(0o644)
    done = run(tmp_path)  # no --pin: the store's PIN (a new one in a new store)
    assert done.returncode == 0, done.stderr[-2000:]
    pin = pin_file.read_text().strip()
    assert re.fullmatch(r"\d{6}", pin) and pin != "000000" and pin not in done.stderr + done.stdout
    assert stat.S_IMODE(pin_file.stat().st_mode) == 0o600


def test_on_a_terminal_the_pin_is_shown_and_no_file_is_written(tmp_path: Path) -> None:
    main, terminal = pty.openpty()
    said: list[bytes] = []
    reader = threading.Thread(target=_drain, args=(main, said), daemon=True)
    reader.start()
    try:
        done = run(tmp_path, "--pin", PIN, stderr=terminal)
    finally:
        os.close(terminal)
        reader.join(timeout=10)
        os.close(main)
    assert done.returncode == 0
    assert f"clue-companion: host PIN {PIN}" in b"".join(said).decode(errors="replace")
    assert not (tmp_path / "host-pin").exists()


def _drain(fd: int, said: list[bytes]) -> None:
    """Read a pty until its last writer closes it (so the companion never blocks on a full terminal)."""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the terminal side is closed
            return
        if not chunk:
            return
        said.append(chunk)


def test_the_host_logs_in_with_the_pin_from_the_file(tmp_path: Path) -> None:
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    with subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--no-console", "--new", "--port", "0",
         "--host", "127.0.0.1", "--pin", PIN],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, stdin=subprocess.DEVNULL,
    ) as companion:
        try:
            assert companion.stdout is not None
            out = ""
            while "clue-companion: new classic game" not in out:
                line = companion.stdout.readline()
                assert line, "the companion stopped early:\n" + out
                out += line
            url = re.search(r"web page on (http://127.0.0.1:\d+)", out)
            assert url and PIN not in out
            assert _login(url.group(1), (tmp_path / "host-pin").read_text().strip()) == 200
        finally:
            companion.terminate()
            companion.wait(timeout=20)


def _login(base: str, pin: str) -> int:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with opener.open(base + "/host", timeout=10) as page:
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page.read().decode())
    assert token
    request = urllib.request.Request(base + "/host/login", data=json.dumps({"pin": pin}).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": token.group(1)})
    with opener.open(request, timeout=10) as answer:
        status: int = answer.status
    return status
