"""The real ``clue-companion run`` with the board twin's pty where the board's USB port would be.

``run`` takes a real board from the hardware config's ``[board] port`` (docs/install.md); the
handhelds are left out (``display = "dummy"``, ``pin_factory = "mock"``, no seats wired). Pieces
are enrolled in the store beforehand, as ``clue-companion enroll`` would have done on the board.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.table.store import Store
from companion.table.tags import Piece

SEATS = "Scarlet,Mustard,White"


class Companion:
    """``clue-companion run`` against ``port``; ``view()`` is its /api/table, ``log()`` its JSON log lines."""

    def __init__(self, folder: Path, port: str, tags: Mapping[str, Piece]) -> None:
        self.folder = folder
        self.db = folder / "games.db"
        with Store(self.db).open() as store:
            for uid, piece in tags.items():
                store.enrol("classic", uid, piece)
        config = folder / "hardware.toml"
        config.write_text(f'[board]\nport = "{port}"\n[handhelds]\ndisplay = "dummy"\npin_factory = "mock"\n')
        env = {**os.environ, "CLUE_COMPANION_DB": str(self.db), "PYTHONUNBUFFERED": "1"}
        self._stderr = tempfile.TemporaryFile(dir=folder)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--no-console", "--new",
             "--port", "0", "--host", "127.0.0.1", "--seats", SEATS, "--log-json"],
            stdout=subprocess.PIPE, stderr=self._stderr, stdin=subprocess.DEVNULL, text=True, env=env)
        self.url = self._address()

    def _address(self, timeout: float = 30.0) -> str:
        assert self.process.stdout is not None
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.extend(self._until_url()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not found:
            self.stop()
            raise AssertionError(f"clue-companion run printed no web address: {self.log_text()[-2000:]}")
        return found[0]

    def _until_url(self) -> list[str]:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            match = re.search(r"web page on (http://127\.0\.0\.1:\d+)", line)
            if match:
                return [match.group(1)]
        return []

    def view(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/api/table", timeout=10) as answer:
            return dict(json.load(answer))

    def wait_view(self, done: Callable[[dict[str, Any]], bool], timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            view = self.view()
            if done(view):
                return view
            assert self.process.poll() is None, f"run stopped: {self.log_text()[-2000:]}"
            assert time.monotonic() < deadline, f"/api/table never got there: {view.get('link')} " \
                f"{view.get('board')}\n{self.log_text()[-2000:]}"
            time.sleep(0.2)

    def log_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def log(self, event: str) -> list[dict[str, Any]]:
        lines = []
        for line in self.log_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("event") == event:
                lines.append(entry)
        return lines

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._stderr.close()


def differences(view: Mapping[str, Any]) -> list[str]:
    return list(view["board"]["differences"])
