"""The doctor's hardware checks: the board on USB serial, and the handhelds' I2C or SPI buses.

Everything here is bounded (a few seconds at most) and leaves the hardware as
it found it: the board link is opened briefly, and the I2C probe only selects
multiplexer channels (restoring the one that was selected) and addresses each
display without sending it data.
"""

from __future__ import annotations

import glob
import json
import os
import queue
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hardware.board_link import PICO_VID, PORT_VARIABLE, BoardLink, PortError
from hardware.hardware_config import HandheldsConfig, HandheldWiring, HardwareConfig
from hardware.link_core import LinkTiming
from hardware.link_events import BoardLog, LinkDown, LinkEvent, LinkUp

from .findings import Finding, fail, ok, warn

FLASH = "flash the firmware onto the Pico (docs/hardware.md, \"Flashing the firmware\")"
NO_BOARD_FIX = f"plug the Pico in by USB with a data cable (not a charge-only one); if it is plugged in, {FLASH}"
GRACE = 0.5  # after the handshake: LOG lines the board sends at once still arrive


def board_ports() -> list[str]:
    """Serial devices with the Pico's USB vendor ID, as ``BoardLink`` finds them."""
    from serial.tools import list_ports

    return sorted(port.device for port in list_ports.comports() if port.vid == PICO_VID)


def check_board(config: HardwareConfig, port: str | None, holder: int | None, *, wait: float,
                environ: Mapping[str, str], found: Callable[[], list[str]] = board_ports) -> Finding:
    """The board: found, openable, and answering the handshake (or, held by a running companion, its link)."""
    if holder is not None:
        return _ask_companion(config.web_port, holder)
    named = port or config.board_port or environ.get(PORT_VARIABLE) or None
    if named is None:
        candidates = found()
        if not candidates:
            return fail("board", f"no board found: no USB serial device with vendor ID 0x{PICO_VID:04X}", NO_BOARD_FIX)
        named = candidates[0]
    elif "://" not in named and not os.path.exists(named):
        return fail("board", f"{named} does not exist", f"check the device named in the config or --serial; {NO_BOARD_FIX}")
    if "://" not in named and not os.access(named, os.R_OK | os.W_OK):
        return fail("board", f"permission denied opening {named}", _permission_fix())
    return _handshake(named, wait)


def _permission_fix() -> str:
    user = _user()
    return (f"add {user} to the dialout group (sudo usermod -aG dialout {user}, then log in again), or install "
            "the udev rule: sudo cp tools/pi/99-clue-board.rules /etc/udev/rules.d/ && sudo udevadm trigger")


def _user() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


def _handshake(port: str, wait: float) -> Finding:
    """Open the link for at most ``wait`` seconds; the board's version, readers and LOG lines."""
    events: queue.Queue[LinkEvent] = queue.Queue()
    seen: list[LinkEvent] = []
    try:
        with BoardLink(port, events, timing=LinkTiming()):
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                try:
                    event = events.get(timeout=max(0.01, deadline - time.monotonic()))
                except queue.Empty:
                    break
                seen.append(event)
                if isinstance(event, LinkUp):
                    deadline = min(deadline, time.monotonic() + GRACE)
    except PortError as err:
        return fail("board", str(err), _permission_fix() if "permission" in str(err) else NO_BOARD_FIX)
    while not events.empty():  # what arrived while the link closed
        seen.append(events.get_nowait())
    logs = tuple(f"board log ({event.level}): {event.text}" for event in seen if isinstance(event, BoardLog))
    up = next((event for event in seen if isinstance(event, LinkUp)), None)
    if up is None:
        reasons = list(dict.fromkeys(event.reason for event in seen if isinstance(event, LinkDown)))
        heard = f"it sent {len(logs)} log lines (below) but no HELLO" if logs else "it sent no frame"
        said = "; ".join(reasons) or heard
        return fail("board", f"no handshake from {port} in {wait:g} s: {said}",
                    f"is it the CLUE board, running its firmware? {FLASH}; is another program using the port?",
                    *logs)
    info = up.info
    text = (f"{port}: firmware {'.'.join(map(str, info.firmware))}, protocol {'.'.join(map(str, info.protocol))}, "
            f"{info.readers} readers")
    if info.failed:
        failed = ", ".join(map(str, sorted(info.failed)))
        return warn("board", f"{text}, not answering: {failed}",
                    "check those readers' wiring and power (docs/hardware.md); the others work", *logs)
    return ok("board", f"{text}, all answering", *logs)


def _ask_companion(port: int, holder: int) -> Finding:
    """The running companion holds the board's port: its link state, from its own page."""
    url = f"http://127.0.0.1:{port}/api/table"
    try:
        with urllib.request.urlopen(url, timeout=3) as answer:
            view: dict[str, Any] = json.load(answer)
    except (OSError, ValueError) as err:
        return warn("board", f"the companion (process {holder}) holds the board, and {url} did not answer: {err}",
                    "see the host page, or: journalctl -u clue-companion -e")
    link = view.get("link")
    if link == "up":
        return ok("board", f"link up in the running companion (process {holder})")
    return fail("board", f"link {link or 'unknown'} in the running companion (process {holder})",
                "the host page and journalctl -u clue-companion -e say why; " + NO_BOARD_FIX)


# ---- the handhelds' buses ------------------------------------------------------------------------


def check_buses(config: HardwareConfig, holder: int | None, *, dev: Path = Path("/dev"),
                open_bus: Callable[[int], Any] | None = None) -> list[Finding]:
    """I2C and SPI enabled, and (I2C, when no companion is drawing on it) the handhelds seen."""
    handhelds = config.handhelds
    wanted = bool(handhelds.seats)
    i2c = dev / f"i2c-{handhelds.i2c_port}"
    spi = sorted(glob.glob(str(dev / "spidev*")))
    findings = [
        _bus("I2C", i2c.exists(), str(i2c), "do_i2c", wanted and handhelds.bus == "i2c"),
        _bus("SPI", bool(spi), ", ".join(spi), "do_spi", wanted and handhelds.bus == "spi"),
    ]
    if not wanted:
        findings.append(ok("handhelds", "none configured: every seat plays on a phone"))
    elif handhelds.bus == "spi":
        findings.append(_spi_handhelds(config, dev))
    elif i2c.exists():
        findings.append(_i2c_handhelds(config, holder, open_bus))
    return findings


def _bus(name: str, present: bool, where: str, command: str, needed: bool) -> Finding:
    if present:
        return ok(name, f"enabled ({where})")
    fix = f"sudo raspi-config nonint {command} 0, then reboot"
    if needed:
        return fail(name, "not enabled, and the config's handhelds use it", fix)
    return warn(name, "not enabled (the config's handhelds do not use it)", fix)


def _spi_handhelds(config: HardwareConfig, dev: Path) -> Finding:
    missing = [f"seat {w.seat} (spidev{w.spi_port}.{w.spi_device})" for w in config.handhelds.seats
               if not (dev / f"spidev{w.spi_port}.{w.spi_device}").exists()]
    if missing:
        return fail("handhelds", f"no SPI device for {', '.join(missing)}",
                    "enable SPI (sudo raspi-config nonint do_spi 0); CE1 and more need a dtoverlay (docs/hardware.md)")
    return ok("handhelds", f"{len(config.handhelds.seats)} SPI units configured (an SPI display cannot be probed: "
                           "watch its screen at start-up)")


def _i2c_handhelds(config: HardwareConfig, holder: int | None, open_bus: Callable[[int], Any] | None) -> Finding:
    handhelds = config.handhelds
    if holder is not None:
        return ok("handhelds", f"not probed: the running companion (process {holder}) draws on the bus")
    try:
        if open_bus is None:
            import smbus2

            open_bus = smbus2.SMBus
        bus = open_bus(handhelds.i2c_port)
    except PermissionError:
        user = _user()
        return fail("handhelds", f"permission denied opening /dev/i2c-{handhelds.i2c_port}",
                    f"add {user} to the i2c group: sudo usermod -aG i2c {user}, then log in again")
    except OSError as err:
        return fail("handhelds", f"cannot open /dev/i2c-{handhelds.i2c_port}: {err.strerror or err}")
    try:
        return _probe(bus, config)
    finally:
        bus.close()


def _probe(bus: Any, config: HardwareConfig) -> Finding:
    """Which configured displays (and button expanders) answer, each through its multiplexer channel.

    Every multiplexer's channels are read first and put back afterwards; only one channel
    of all of them is on at a time, as the companion itself drives them (hardware/mux.py).
    """
    handhelds = config.handhelds
    saved: dict[int, int] = {}
    for mux in handhelds.muxes():
        try:
            saved[mux] = bus.read_byte(mux)
        except OSError:
            _restore(bus, saved)
            return fail("handhelds", f"no TCA9548A multiplexer answers at 0x{mux:02X} on /dev/i2c-{handhelds.i2c_port}",
                        "check its wiring (SDA GPIO 2, SCL GPIO 3, 3V3, GND) and that A0-A2 match "
                        "[handhelds] mux_address (or the seat's mux_address)")
    seen: list[str] = []
    missing: list[str] = []
    try:
        for wiring in handhelds.seats:
            where, absent = _probe_unit(bus, handhelds, wiring, saved)
            (missing if absent else seen).append(f"{where}: no {absent}" if absent else where)
    finally:
        _restore(bus, saved)
    text = f"display 0x{handhelds.display_address:02X} answers for {', '.join(seen) or 'no seat'}"
    if missing:
        return warn("handhelds", f"{text}; not for {', '.join(missing)}",
                    "check those units' wiring to the multiplexer; they play on phones until then "
                    "(some displays answer at 0x3D: [handhelds] display_address)")
    return ok("handhelds", text)


def _probe_unit(bus: Any, handhelds: HandheldsConfig, wiring: HandheldWiring, saved: dict[int, int]) -> tuple[str, str]:
    """One unit: where it is, and what did not answer there ("" when all did)."""
    mux = handhelds.mux_for(wiring)
    where = f"seat {wiring.seat}" + (f" (0x{mux:02X} channel {wiring.channel})" if mux is not None and
                                     len(saved) > 1 else f" (channel {wiring.channel})" if mux is not None else "")
    try:
        if mux is not None and wiring.channel is not None:
            for other in saved:  # one channel on across every multiplexer
                if other != mux:
                    bus.write_byte(other, 0)
            bus.write_byte(mux, 1 << wiring.channel)
        bus.write_quick(handhelds.display_address)  # the address alone, no data: what i2cdetect does
    except OSError:
        return where, f"display 0x{handhelds.display_address:02X}"
    if wiring.button_source == "expander":
        try:
            bus.write_quick(wiring.expander_address)
        except OSError:
            return where, f"button expander 0x{wiring.expander_address:02X}"
    return where, ""


def _restore(bus: Any, saved: dict[int, int]) -> None:
    """Every multiplexer off, then each back to the channels it had (never two on at once meanwhile)."""
    for mux in saved:
        bus.write_byte(mux, 0)
    for mux, channels in saved.items():
        bus.write_byte(mux, channels)
