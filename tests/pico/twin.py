"""The board twin from Python: MicroPython v1.28.0 (rp2, RPI_PICO) with firmware/ on an emulated RP2040.

:func:`start` (or :class:`Twin` as a context manager) writes the files into a
littlefs image (flash_image.py), opens a pty and starts ``node twin.mjs`` with
the pty's master side, under an outside time limit (``limit``: the node
process is killed when it runs out, whatever it is doing). ``twin.port`` is
the board's USB serial port: open it with pyserial, mpremote or the
companion's ``--serial``. The pty's other side stays open here, so the port
outlives its clients, and across the twin's reboots (a real Pico's port
vanishes and comes back; docs/board-twin.md).

Commands go to twin.mjs as JSON lines (its header lists them); the useful ones
have methods:

- :meth:`Twin.now_us` emulated time in microseconds since power-on (monotonic
  across reboots, never ahead of the real time since :meth:`Twin.start`: the
  emulator runs slower than real time, and a core waiting for an interrupt
  skips ahead only until it catches up);
- :meth:`Twin.run_until` until an emulated time and/or a condition, within a
  real-time timeout (raises :class:`TwinTimeout`);
- :meth:`Twin.reset` reboots the chip (flash kept), :meth:`Twin.boots` the
  boot events so far (``reason`` "power-on", "watchdog", "trigger" (machine.reset) or "reset");
- :meth:`Twin.readers` sends ``{"readers": obj}`` to the reader models (needs ``wiring``);
- :meth:`Twin.command` anything else; :meth:`Twin.stop`.

The emulator runs at about 0.35x real time: judge timing by :meth:`now_us`, never by the wall clock.
"""

from __future__ import annotations

import json
import os
import pty
import pwd
import re
import shutil
import subprocess
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flash_image import firmware_files, write_image

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "twin.mjs"
IMAGE_NAME = "micropython-v1.28.0-rpi_pico"
BUILD_COMMAND = "tools/build-pico-image.sh"
INSTALL_COMMAND = "cd tests/pico && npm ci"
REQUIRED_VARIABLE = "CLUE_PICO_REQUIRED"
DEFAULT_UID = bytes.fromhex("e660c0d1c7a5b12f")


class TwinError(RuntimeError):
    """The twin failed: node exited, or answered a command with an error."""


class TwinTimeout(TwinError, TimeoutError):
    """A wait ran out of real time before its emulated time or condition came."""


def cache_root() -> Path:
    """``$CLUE_PICO_CACHE``, else the real user's ~/.cache/clue-companion/pico (the tests' HOME is a temporary one)."""
    chosen = os.environ.get("CLUE_PICO_CACHE")
    if chosen:
        return Path(chosen)
    return Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "clue-companion" / "pico"


def image_dir() -> Path:
    return cache_root() / IMAGE_NAME


def missing() -> str | None:
    """Why the twin cannot run here (and the command that fixes it), or None."""
    folder = image_dir()
    for name in ("firmware.bin", "bootrom.bin"):
        if not (folder / name).is_file():
            return f"no MicroPython image for the board twin at {folder} ({name}): build it with {BUILD_COMMAND}"
    if shutil.which("node") is None:
        return "node not found: the board twin needs Node.js 20 or later"
    if not (HERE / "node_modules" / "rp2040js" / "package.json").is_file():
        return f"rp2040js is not installed for the board twin: run {INSTALL_COMMAND}"
    return None


def firmware_with(**settings: object) -> dict[str, bytes]:
    """firmware/*.py with settings of ``config.py`` replaced, e.g. ``HEARTBEAT_MS=150``.

    Each ``NAME = ...`` line is rewritten (appending would not do: MicroPython folds a
    ``const()`` name into the code that follows it, so a second assignment does not compile).
    """
    files = firmware_files()
    text = files["config.py"].decode()
    for name, value in settings.items():
        text, count = re.subn(rf"^{name} = .*$", f"{name} = {value!r}  # the board twin's", text, flags=re.M)
        if count != 1:
            raise ValueError(f"config.py has no single line setting {name}")
    files["config.py"] = text.encode()
    return files


# The board's heartbeat for a twin a host talks to: `clue-companion run` gives up on a board silent
# for 1.5 s of real time, and the twin runs at a third of real time or less, so the firmware's
# 1 s heartbeat would reach it 3 s or more apart.
TWIN_HEARTBEAT_MS = 150


def require() -> None:
    """In a test: skip it (fail it with CLUE_PICO_REQUIRED=1, as ``make test-pico`` sets) when the twin cannot run."""
    import pytest

    reason = missing()
    if reason is None:
        return
    if os.environ.get(REQUIRED_VARIABLE) == "1":
        pytest.fail(f"{REQUIRED_VARIABLE}=1 and {reason}", pytrace=False)
    pytest.skip(reason)


class Twin:
    """One emulated board; ``start()`` (or ``with``) boots it, ``stop()`` ends it."""

    def __init__(self, image: Path | None = None, files: Mapping[str, bytes] | None = None,
                 wiring: Mapping[str, Any] | Path | None = None, uid: bytes = DEFAULT_UID,
                 limit: float = 300.0, verbose: bool = False) -> None:
        self.image = image or image_dir()
        self.files = dict(files) if files is not None else firmware_files()
        self.wiring = wiring
        self.uid = uid
        self.limit = limit
        self.verbose = verbose
        self.port = ""
        self.started = 0.0
        self._dir = Path(tempfile.mkdtemp(prefix="clue-twin-"))
        self._process: subprocess.Popen[str] | None = None
        self._slave = -1
        self._lock = threading.Condition()
        self._replies: dict[int, dict[str, Any]] = {}
        self._events: list[dict[str, Any]] = []
        self._next_id = 0
        self._killer: threading.Timer | None = None
        self._stderr = tempfile.TemporaryFile(dir=self._dir)

    # ---- life ----------------------------------------------------------------------------
    def start(self) -> Twin:
        fs = write_image(self._dir / "fs.img", self.files)
        master, slave = pty.openpty()
        tty.setraw(slave)  # a serial port carries bytes: no echo, no CR/LF translation
        os.set_blocking(master, False)
        self._slave = slave
        self.port = os.ttyname(slave)
        command = ["node", str(HARNESS), "--image-dir", str(self.image), "--fs", str(fs),
                   "--serial-fd", str(master), "--uid", self.uid.hex()]
        if self.wiring is not None:
            command += ["--wiring", str(self._wiring_file())]
        if self.verbose:
            command.append("--verbose")
        try:
            self._process = subprocess.Popen(command, cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=self._stderr, text=True, bufsize=1, pass_fds=(master,))
        finally:
            os.close(master)  # node holds it now
        self.started = time.monotonic()  # before node starts: emulated time stays behind real time since then
        self._killer = threading.Timer(self.limit, self._kill)
        self._killer.daemon = True
        self._killer.start()
        threading.Thread(target=self._read, name="twin-stdout", daemon=True).start()
        return self

    def _wiring_file(self) -> Path:
        if isinstance(self.wiring, Path):
            return self.wiring
        path = self._dir / "wiring.json"
        path.write_text(json.dumps(self.wiring))
        return path

    def _kill(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()

    def stop(self) -> None:
        process = self._process
        if process is not None:
            assert process.stdin is not None
            try:
                process.stdin.close()  # twin.mjs exits at the end of its input
                process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        if self._killer is not None:
            self._killer.cancel()
        if self._slave >= 0:
            os.close(self._slave)
            self._slave = -1
        self._stderr.close()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> Twin:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    # ---- node's output -------------------------------------------------------------------
    def _read(self) -> None:
        process = self._process
        assert process is not None and process.stdout is not None
        try:
            for line in process.stdout:
                self._take(line)
        except (OSError, ValueError):  # stop() closed the pipe under us
            pass
        with self._lock:
            self._lock.notify_all()

    def _take(self, line: str) -> None:
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return
        with self._lock:
            if "id" in message and message["id"] is not None:
                self._replies[message["id"]] = message
            else:
                self._events.append(message)
            self._lock.notify_all()

    def stderr(self) -> str:
        """What node said on stderr (rp2040js errors, a crash), the last 4000 characters."""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")[-4000:]

    def _alive(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            code = None if process is None else process.returncode
            raise TwinError(f"the twin's node process is not running (exit {code}): {self.stderr()}")

    # ---- commands ------------------------------------------------------------------------
    def command(self, request: Mapping[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Send one JSON command to twin.mjs and wait (in real time) for its reply."""
        self._alive()
        process = self._process
        assert process is not None and process.stdin is not None
        with self._lock:
            self._next_id += 1
            number = self._next_id
        process.stdin.write(json.dumps({**request, "id": number}) + "\n")
        process.stdin.flush()
        deadline = time.monotonic() + timeout
        with self._lock:
            while number not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TwinTimeout(f"no answer to {dict(request)} within {timeout} s of real time")
                if process.poll() is not None:
                    self._alive()
                self._lock.wait(min(left, 0.5))
            reply = self._replies.pop(number)
        if not reply.get("ok"):
            raise TwinError(f"{dict(request)}: {reply.get('error')}")
        return reply

    def now_us(self) -> int:
        """Emulated time since power-on, in microseconds."""
        return int(self.command({"cmd": "time"})["us"])

    def run_until(self, us: int | None = None, condition: Callable[[], bool] | None = None,
                  timeout: float = 60.0, poll: float = 0.05) -> int:
        """Until emulated time ``us`` (absolute) and/or ``condition()``, whichever comes first; the emulated time.

        With neither, returns at once. Raises :class:`TwinTimeout` when ``timeout``
        seconds of real time pass first.
        """
        deadline = time.monotonic() + timeout
        if condition is None and us is not None:
            return int(self.command({"cmd": "run_until", "us": us}, timeout=timeout)["us"])
        while True:
            if condition is not None and condition():
                return self.now_us()
            now = self.now_us()
            if us is not None and now >= us:
                return now
            if time.monotonic() > deadline:
                raise TwinTimeout(f"not there within {timeout} s of real time (emulated {now / 1e6:.3f} s)")
            time.sleep(poll)

    def reset(self) -> None:
        """Reboot the chip as the RUN pin would: flash kept, RAM and peripherals fresh."""
        self.command({"cmd": "reset"})

    def readers(self, request: Mapping[str, Any]) -> Any:
        """One command for the reader models (readers.mjs); their answer."""
        return self.command({"readers": dict(request)})["result"]

    def status(self) -> dict[str, Any]:
        return self.command({"cmd": "status"})

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return [event for event in self._events if kind is None or event.get("event") == kind]

    def boots(self) -> list[dict[str, Any]]:
        return self.events("boot")

    def wait_event(self, kind: str, count: int, timeout: float = 60.0) -> dict[str, Any]:
        """The ``count``-th event of ``kind`` (1 = the first), waiting in real time for it."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = [event for event in self._events if event.get("event") == kind]
                if len(found) >= count:
                    return found[count - 1]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TwinTimeout(f"no {kind} event number {count} within {timeout} s of real time")
                self._alive()
                self._lock.wait(min(left, 0.5))

    def save_fs(self, path: Path) -> Path:
        """The littlefs region of the flash as it is now, written to ``path`` (read it with flash_image.list_files)."""
        self.command({"cmd": "save_fs", "path": str(path)})
        return path


def start(image: Path | None = None, files: Mapping[str, bytes] | None = None,
          wiring: Mapping[str, Any] | Path | None = None, **options: Any) -> Twin:
    """A booting twin (call ``stop()`` when done): ``files`` default to firmware/*.py."""
    return Twin(image, files, wiring, **options).start()
