"""Run Python on a real MicroPython (v1.27, WebAssembly, under Node.js) from pytest.

:class:`MicroPython` starts ``node mpy_runner.mjs``, which loads the npm
package ``@micropython/micropython-webassembly-pyscript``, copies
``firmware/*.py`` and ``tests/firmware/micropython/*.py`` (the stand-ins for
``machine``, ``neopixel`` and the MFRC522, the test rig) into its file system,
and then answers one JSON line per command. Code runs in one namespace that
lasts as long as the process.

The MicroPython-side files live in a hidden folder because pytest, run with
``--doctest-modules``, imports every ``.py`` it recurses into, and those only
import on MicroPython.
"""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import tempfile
import tty
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "mpy_runner.mjs"
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
INSTALL = "run: cd tests/firmware && npm ci"


class MicroPythonError(AssertionError):
    """Code run on MicroPython raised; the message is its traceback."""


class MicroPython:
    """One MicroPython interpreter in a node process (about 0.1 s to start)."""

    def __init__(self, timeout: float = 60.0, args: tuple[str, ...] = (), pass_fds: tuple[int, ...] = (),
                 stdin: int | None = None) -> None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError(f"node not found: the firmware tests need Node.js 20 or later; then {INSTALL}")
        if not (PACKAGE / "micropython.mjs").is_file():
            raise RuntimeError(f"MicroPython for the firmware tests is not installed; {INSTALL}")
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()
        self._process = subprocess.Popen(
            [node, str(RUNNER), *args], stdin=subprocess.PIPE if stdin is None else stdin, stdout=subprocess.PIPE,
            stderr=self._stderr, cwd=HERE, text=True, encoding="utf-8", bufsize=1, pass_fds=pass_fds,
        )
        self._stdin = self._process.stdin

    def run(self, code: str) -> None:
        """Execute statements."""
        self._call({"exec": code})

    def eval(self, expression: str, code: str = "") -> Any:
        """Execute ``code`` (if any), then return ``expression``'s value (JSON-able)."""
        return self._call({"exec": code, "eval": expression})

    def _call(self, command: dict[str, str]) -> Any:
        process = self._process
        assert self._stdin is not None and process.stdout is not None
        if process.poll() is not None:
            raise RuntimeError(f"the MicroPython runner has exited: {self._errors()}")
        self._stdin.write(json.dumps(command) + "\n")
        self._stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], self.timeout)
        line = process.stdout.readline() if ready else ""
        if not line:
            self.close()
            raise RuntimeError(f"no answer from the MicroPython runner within {self.timeout} s: {self._errors()}")
        reply = json.loads(line)
        printed = "".join(f"\n(printed) {text}" for text in reply.get("printed", []))
        if "error" in reply:
            raise MicroPythonError(reply["error"] + printed)
        if printed:
            # On the Pico stdout is the data channel: nothing may print outside a LOG frame.
            raise MicroPythonError(f"something printed:{printed}")
        return reply["ok"]

    def _errors(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")[-2000:] or "(nothing on stderr)"

    def close(self) -> None:
        process = self._process
        if process.poll() is None:
            assert self._stdin is not None
            self._stdin.close()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout is not None:
            process.stdout.close()
        self._stderr.close()

    def __enter__(self) -> MicroPython:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class SerialMicroPython(MicroPython):
    """The firmware's main() on MicroPython behind a pty: ``port`` is the Pico's USB serial port.

    The runner bridges the pty's master side (``mpy_runner.mjs --serial``);
    once the firmware stops for the REPL, MicroPython's own REPL answers on
    ``port``, and :meth:`run`/:meth:`eval` work as for :class:`MicroPython`
    (before that they time out: the firmware's loop holds the interpreter).
    """

    def __init__(self, timeout: float = 60.0) -> None:
        master, slave = pty.openpty()
        tty.setraw(slave)  # a serial port carries bytes: no echo, no CR/LF translation
        os.set_blocking(master, False)
        read_end, write_end = os.pipe()
        os.set_blocking(read_end, False)  # the runner polls its commands between serial bytes
        self._fds = (master, slave)
        self.port = os.ttyname(slave)
        try:
            super().__init__(timeout, ("--serial", str(master)), (master,), read_end)
        finally:
            os.close(read_end)
        self._stdin = open(write_end, "w", encoding="utf-8", buffering=1)  # noqa: SIM115 - closed in close()

    def close(self) -> None:
        super().close()
        for fd in self._fds:
            os.close(fd)
