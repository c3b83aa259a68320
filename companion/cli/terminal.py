"""The console's terminal: readline history and completion, and log lines that keep clear of the prompt.

Python's readline module does not wrap ``rl_forced_update_display`` (cmd2 calls it
through ctypes: python-cmd2/cmd2 pull 362, ``rl_utils.rl_force_redisplay``), and
``readline.redisplay()`` only redraws what readline believes changed. So a log line
that arrives while the prompt waits is written the portable way: return to the start
of the line and erase it (``\\r\\x1b[K``), write the log line, then write the prompt
and the text typed so far (``readline.get_line_buffer()``) again, and move the cursor
back to where it was in that text (GNU readline's ``rl_point``, read through ctypes
where it can be; else the cursor stays at the end of the text).
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import IO

from companion.table.store import default_path

HISTORY_LENGTH = 1000  # lines kept in the history file
HISTORY_FILE = "console-history"
ERASE_LINE = "\r\x1b[K"


def history_path(environ: Mapping[str, str] | None = None) -> Path:
    """In the user's data directory, ``$XDG_DATA_HOME/clue-companion`` (not wherever a store was put).

    >>> history_path({"XDG_DATA_HOME": "/data", "CLUE_COMPANION_DB": "/tmp/x.db"})
    PosixPath('/data/clue-companion/console-history')
    """
    env = {key: value for key, value in (os.environ if environ is None else environ).items()
           if key != "CLUE_COMPANION_DB"}
    return default_path(env).with_name(HISTORY_FILE)


def load_readline() -> ModuleType | None:
    """The readline module where there is one (not on every platform), set up for the console."""
    try:
        import readline
    except ImportError:
        return None
    # Names hold spaces and apostrophes ("Strax's Gun"): only spaces separate the words completed.
    readline.set_completer_delims(" \t\n")
    readline.parse_and_bind("set completion-ignore-case on")
    return readline


@contextmanager
def history(readline: ModuleType | None, path: Path, warn: IO[str]) -> Iterator[None]:
    """This session's lines are recalled from ``path`` and added to it, keeping the last ``HISTORY_LENGTH``."""
    if readline is None:
        yield
        return
    readline.clear_history()  # not an answer typed before the console started (resume? [Y/n])
    readline.set_history_length(HISTORY_LENGTH)
    try:
        readline.read_history_file(str(path))
    except OSError:
        pass  # the first session, or an unreadable file: start afresh
    try:
        yield
    finally:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(str(path))
        except OSError as err:
            print(f"clue-companion: console history not saved to {path}: {err.strerror or err}", file=warn)


class PromptKeeper(logging.Handler):
    """Writes each log line to ``stream``; while the prompt waits, it erases the prompt line
    first and writes the prompt and the typed text again after it."""

    def __init__(self, stream: IO[str], formatter: logging.Formatter | None, out: IO[str], prompt: str,
                 readline: ModuleType | None) -> None:
        super().__init__()
        self.stream, self.out, self.prompt, self.readline = stream, out, prompt, readline
        self.setFormatter(formatter)
        self.waiting = threading.Event()
        self._rl_point = _rl_point(readline)

    def _point(self, typed: str) -> int:
        """How many characters of the typed text are before the cursor (all when that cannot be known)."""
        encoded = typed.encode()
        point = self._rl_point.value if self._rl_point is not None else len(encoded)
        return len(encoded[:point].decode(errors="ignore")) if 0 <= point <= len(encoded) else len(typed)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)
            if not self.waiting.is_set():
                self.stream.write(text + "\n")
                self.stream.flush()
                return
            self.out.flush()
            self.stream.write(ERASE_LINE + text + "\n")
            self.stream.flush()
            typed = self.readline.get_line_buffer() if self.readline else ""
            back = len(typed) - self._point(typed)
            self.out.write(self.prompt + typed + (f"\x1b[{back}D" if back > 0 else ""))
            self.out.flush()
        except Exception:  # a log line must never stop the thread that logged it
            self.handleError(record)


@contextmanager
def prompt_safe_logging(logger: logging.Logger, out: IO[str], prompt: str,
                        readline: ModuleType | None) -> Iterator[PromptKeeper | None]:
    """While the console runs, ``logger``'s lines to a terminal go through a :class:`PromptKeeper`."""
    replaced = [h for h in logger.handlers if isinstance(h, logging.StreamHandler) and is_terminal(h.stream)]
    if not replaced:
        yield None
        return
    keeper = PromptKeeper(replaced[0].stream, replaced[0].formatter, out, prompt, readline)
    keeper.setLevel(replaced[0].level)
    for kept in replaced[0].filters:  # people's lines at a terminal leave the routine events out
        keeper.addFilter(kept)
    before = list(logger.handlers)
    logger.handlers[:] = [h for h in before if h not in replaced] + [keeper]
    try:
        yield keeper
    finally:
        logger.handlers[:] = before


def _rl_point(readline: ModuleType | None) -> ctypes.c_int | None:
    """GNU readline's cursor position in the line (in bytes), which the readline module does not expose."""
    if readline is None or "libedit" in (readline.__doc__ or "") or not getattr(readline, "__file__", None):
        return None
    try:
        return ctypes.c_int.in_dll(ctypes.CDLL(readline.__file__), "rl_point")
    except (OSError, ValueError):  # no such library or symbol: a readline of another make
        return None


def is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # closed
        return False
