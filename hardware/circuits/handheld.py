"""A handheld: an OLED module and four buttons on one TCA9548A channel's cable.

The buttons go through an MCP23008 I/O expander at 0x20 (A2-A0 low; MCP23008
datasheet, "Hardware address decoder") on the same channel as the OLED (0x3C),
so a unit needs four wires however many buttons it has. The buttons pull the
expander's GP0-GP3 to ground; its internal 100 kohm pull-ups (GPPU register),
which the host turns on for all eight pins, hold them high otherwise, so no
resistors. The channel's SDA/SCL pull-ups sit
here, one pair per channel: the TCA9548A passes the bus through switches and
each downstream channel needs its own pull-ups (TCA9548A datasheet,
"Application information").
"""

from __future__ import annotations

from hardware.circuits import parts
from hardware.circuits.skidl_session import SkidlObject, new_circuit, skidl

BUTTONS = ("up", "down", "ok", "back")
I2C_PULLUP_OHMS = "4.7k"


def build_handheld() -> SkidlObject:
    """One handheld unit's circuit."""
    circuit = new_circuit()
    with circuit:
        net = skidl().Net
        gnd, vcc, sda, scl = net("GND"), net("+3V3"), net("SDA"), net("SCL")
        cable = parts.make(parts.CHANNEL_PLUG, "handheld.cable")
        for name, wire in (("GND", gnd), ("3V3", vcc), ("SDA", sda), ("SCL", scl)):
            cable.n[name] += wire
        oled = parts.make(parts.OLED_MODULE, "handheld.oled")
        for name, wire in (("GND", gnd), ("VCC", vcc), ("SDA", sda), ("SCL", scl)):
            oled.n[name] += wire
        for line, wire in (("sda", sda), ("scl", scl)):
            pullup = parts.make(parts.RESISTOR_0603, f"handheld.{line}_pullup", I2C_PULLUP_OHMS)
            pullup[1] += wire
            pullup[2] += vcc
        _expander(gnd, vcc, sda, scl, circuit.NC)
    return circuit


def _expander(gnd: SkidlObject, vcc: SkidlObject, sda: SkidlObject, scl: SkidlObject,
              nc: SkidlObject) -> None:
    expander = parts.make(parts.MCP23008, "handheld.expander")
    expander.n["SDA"] += sda
    expander.n["SCL"] += scl
    expander.n["VDD"] += vcc
    expander.n["VSS"] += gnd
    expander.n["~RESET"] += vcc  # held high: the expander always runs
    for address_pin in ("A0", "A1", "A2"):
        expander.n[address_pin] += gnd  # 0x20
    expander.n["INT"] += nc  # buttons are polled: no spare wire on the channel cable
    expander.n["NC"] += nc
    cap = parts.make(parts.CAP_0603, "handheld.expander_decoupling", "100n")
    cap[1] += vcc
    cap[2] += gnd
    for bit, name in enumerate(BUTTONS):
        line = skidl().Net(f"BTN_{name.upper()}")
        line += expander.n[f"GP{bit}"]
        button = parts.make(parts.BUTTON, f"handheld.button_{name}")
        button[1] += line
        button[2] += gnd
    for bit in range(len(BUTTONS), 8):
        # Unwired: the host turns on all eight pull-ups (GPPU = 0xFF), so none floats;
        # tied to ground, a pin set as an output by mistake would short.
        expander.n[f"GP{bit}"] += nc
