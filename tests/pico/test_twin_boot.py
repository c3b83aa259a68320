"""The board twin boots, and is updated with mpremote: MicroPython v1.28.0's rp2 image on the emulated RP2040.

One twin (the module's, no reader models wired, so every reader is dead) serves both halves, in order:

- it boots firmware/main.py from littlefs: the firmware must name its dead readers in LOG frames and
  still greet the host. Times are emulated (the twin runs at about a third of real time);
- the real mpremote updates it. mpremote's raw-REPL entry (CR, Ctrl-C, CR, Ctrl-A) must stop the
  running firmware (main.py turns Ctrl-C back on when frames.Parser sees a CR then Ctrl-C outside a
  frame, and pauses the watchdog); ``cp`` then writes the littlefs file system through rp2.Flash,
  which the twin's flash model programs and erases, so the file is still there after a reboot.
  Real times are printed with -s.

A board whose config.py cannot start and the twin's outside time limit each have a twin of their own.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import serial
from flash_image import firmware_files, list_files
from twin import DEFAULT_UID, Twin

from hardware.protocol import Hello, Log, Message, Parser

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
BOOT_LIMIT_US = 3_000_000  # power-on to the first HELLO, emulated: measured 1.29 s with 16 dead readers


def frames_until(port: str, done: Callable[[list[Message]], bool], timeout: float = 40.0) -> list[Message]:
    """Frames from the board's ``port`` until ``done(frames)`` (real ``timeout``)."""
    parser, frames = Parser(), list[Message]()
    deadline = time.monotonic() + timeout
    with serial.Serial(port, timeout=0.2) as link:
        while not done(frames):
            assert time.monotonic() < deadline, f"not seen within {timeout} s: {frames}"
            frames += parser.feed(link.read(link.in_waiting or 1))
    return frames


def saw_hello(frames: list[Message]) -> bool:
    return any(isinstance(m, Hello) for m in frames)


def mpremote(port: str, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, *args],
                          capture_output=True, text=True, timeout=timeout, check=False)
    print(f"mpremote {' '.join(args)[:60]}: {time.monotonic() - started:.2f} s real")
    return done


def test_firmware_greets_with_its_unique_id_and_names_its_dead_readers(booted: Twin) -> None:
    frames = frames_until(booted.port, saw_hello)
    hello_us = booted.now_us()
    hello = next(m for m in frames if isinstance(m, Hello))
    # machine.unique_id() is the flash chip's 64-bit id (pico-sdk reads it with command 4B):
    # the twin's flash model answers with the id the twin was given.
    assert hello.board_id == DEFAULT_UID
    assert hello.readers == 16 and hello.working == frozenset()
    assert hello.protocol == (1, 1)
    # Each reader is named in an error LOG before the HELLO (the wording is the firmware's).
    errors = [m.text for m in frames if isinstance(m, Log) and m.level == "error"]
    for reader in range(16):
        assert any(text.startswith(f"reader {reader} (") for text in errors), (reader, errors)
    assert errors[0].startswith("reader 0 (Kitchen)"), errors
    assert not [m for m in frames if isinstance(m, Log) and "crashed" in m.text]
    # The first HELLO came within the boot budget of power-on (the port may have held it a little while).
    assert hello_us < BOOT_LIMIT_US, f"first HELLO read at {hello_us / 1e6:.2f} s emulated"


def test_usb_enumerates_and_time_is_emulated(booted: Twin) -> None:
    usb = booted.wait_event("usb", 1)
    assert 0 < usb["us"] < 500_000  # tinyusb is up well inside the first half second
    start_us = booted.now_us()
    reached = booted.run_until(us=start_us + 300_000, timeout=30)
    assert reached >= start_us + 300_000
    # Emulated time is not wall-clock time: it never runs ahead of the real time since the start.
    assert booted.now_us() / 1e6 <= time.monotonic() - booted.started


# ---- mpremote on the same twin (it stops the firmware, then resets it) ------------------------------


def test_mpremote_stops_the_firmware_copies_lists_and_runs(booted: Twin, tmp_path: Path) -> None:
    frames_until(booted.port, saw_hello)  # the firmware is running and greeting
    source = tmp_path / "greeting.py"
    source.write_text("TEXT = 'copied by mpremote'\n" + "# padding\n" * 600)  # 6 KB: two flash blocks
    before = booted.now_us()
    done = mpremote(booted.port, "cp", str(source), ":greeting.py", "+", "ls", ":", "+",
                    "exec", "import greeting, gc; print(greeting.TEXT, len(open('greeting.py').read()), gc.mem_free())")
    assert done.returncode == 0, done.stdout + done.stderr
    print(f"cp + ls + exec: {(booted.now_us() - before) / 1e6:.2f} s emulated")
    assert "greeting.py" in done.stdout and "main.py" in done.stdout
    text, size, free = done.stdout.strip().splitlines()[-1].rsplit(" ", 2)
    assert text == "copied by mpremote" and int(size) == len(source.read_text())
    assert 100_000 < int(free) < 264_000  # the rp2 port's heap, not a host's
    # A second connection finds the REPL at once: the firmware stays stopped, its watchdog paused.
    again = mpremote(booted.port, "exec", "print(6 * 7)")
    assert again.returncode == 0 and again.stdout.strip() == "42", again.stdout + again.stderr
    assert [boot["reason"] for boot in booted.boots()] == ["power-on"]


def test_the_copy_survives_a_reset_and_the_firmware_runs_again(booted: Twin, tmp_path: Path) -> None:
    # mpremote's own reset: machine.reset(), which reboots through the watchdog (CTRL.TRIGGER).
    done = mpremote(booted.port, "reset")
    assert done.returncode == 0, done.stdout + done.stderr
    boot = booted.wait_event("boot", 2)
    assert boot["reason"] == "trigger"
    frames = frames_until(booted.port, saw_hello)
    assert not [m for m in frames if isinstance(m, Log) and "crashed" in m.text]
    listed = mpremote(booted.port, "exec", "import os, machine; print(sorted(os.listdir()), machine.reset_cause())")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    names, cause = listed.stdout.strip().rsplit("] ", 1)
    assert "'greeting.py'" in names and "'main.py'" in names
    assert cause == "3"  # machine.WDT_RESET: the rp2 port's machine.reset() goes through the watchdog
    # The flash itself holds it: the host's littlefs reads the file system MicroPython wrote.
    on_flash = list_files(booted.save_fs(tmp_path / "fs.img").read_bytes())
    assert on_flash["greeting.py"] == len("TEXT = 'copied by mpremote'\n" + "# padding\n" * 600)


def broken_config() -> bytes:
    """config.py with more readers than chip-select pins and no decoder: build() cannot wire it."""
    extra = "\nREADERS = READERS + tuple('extra %d' % i for i in range(24 - len(READERS)))\nDECODER = None\n"
    return (FIRMWARE / "config.py").read_bytes() + extra.encode()


def test_a_board_that_cannot_start_reports_why_and_lets_mpremote_in(twin_ready: None, tmp_path: Path) -> None:
    with Twin(files=firmware_files(extra={"config.py": broken_config()})) as board:
        frames = frames_until(board.port, lambda got: any(isinstance(m, Log) and m.level == "error" for m in got))
        # No reset loop (the old main.py reset 0.1 s after its LOG): 1.5 s later it is still the first boot.
        board.run_until(us=board.now_us() + 1_500_000, condition=lambda: len(board.boots()) > 1)
        assert len(board.boots()) == 1, f"it rebooted: {board.boots()}"
        errors = [m.text for m in frames if isinstance(m, Log) and m.level == "error"]
        assert any("CS pins" in text or "DECODER" in text for text in errors), errors
        source = tmp_path / "config.py"
        source.write_bytes((FIRMWARE / "config.py").read_bytes())
        done = mpremote(board.port, "cp", str(source), ":config.py", "+", "ls", ":", "+", "exec", "print(6 * 7)")
        assert done.returncode == 0 and "42" in done.stdout, done.stdout + done.stderr
        # With the good config.py back, a reset brings the firmware up.
        mpremote(board.port, "reset")
        assert saw_hello(frames_until(board.port, saw_hello))


def test_twin_stops_within_its_outside_limit(twin_ready: None) -> None:
    """The outside time limit ends a twin whatever it is doing: no test can hang on it."""
    twin = Twin(limit=2.0).start()
    try:
        deadline = time.monotonic() + 10
        while twin._process is not None and twin._process.poll() is None:
            assert time.monotonic() < deadline, "the twin outlived its limit"
            time.sleep(0.1)
    finally:
        twin.stop()
