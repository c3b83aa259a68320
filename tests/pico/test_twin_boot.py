"""The board twin boots: MicroPython v1.28.0's rp2 image runs firmware/main.py from littlefs on the emulated RP2040.

No reader models are wired here, so every reader is dead: the firmware must say so in LOG frames and
still greet the host. Times are emulated (the twin runs at about a third of real time).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import serial
from hardware.protocol import Hello, Log, Message, Parser
from twin import DEFAULT_UID, Twin

BOOT_LIMIT_US = 3_000_000  # power-on to the first HELLO, emulated: measured 1.29 s with 16 dead readers


def read_until(port: serial.Serial, done: Callable[[list[Message]], bool], timeout: float = 40.0) -> list[Message]:
    """Frames from ``port`` until ``done(frames)`` (real ``timeout``)."""
    parser, frames = Parser(), list[Message]()
    deadline = time.monotonic() + timeout
    while not done(frames):
        assert time.monotonic() < deadline, f"not seen within {timeout} s: {frames}"
        frames += parser.feed(port.read(port.in_waiting or 1))
    return frames


def test_firmware_greets_with_its_unique_id_and_names_its_dead_readers(booted: Twin) -> None:
    with serial.Serial(booted.port, timeout=0.2) as port:
        frames = read_until(port, lambda got: any(isinstance(m, Hello) for m in got))
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


def test_twin_stops_within_its_outside_limit(twin_ready: None) -> None:
    """The outside time limit ends a twin whatever it is doing: no test can hang on it."""
    twin = Twin(limit=2.0).start()
    try:
        deadline = time.monotonic() + 10
        while twin._process is not None and twin._process.poll() is None:  # noqa: SLF001 - the limit's effect
            assert time.monotonic() < deadline, "the twin outlived its limit"
            time.sleep(0.1)
    finally:
        twin.stop()
