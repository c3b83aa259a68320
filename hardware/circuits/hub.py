"""The handhelds' hub at the Pi: two TCA9548A multiplexers, one cable per seat.

The first multiplexer answers at 0x70 (A2-A0 low), the second at 0x71 (A0
high): TCA9548A datasheet, "Device address". Their RESET inputs must be held
high to run (same datasheet, pin functions). The Pi's SDA/SCL (GPIO 2 and 3)
have pull-ups on the Pi itself (Raspberry Pi documentation, "GPIO and the
40-pin header"), so the upstream side has none here; each channel's pull-ups
are on its handheld.
"""

from __future__ import annotations

from hardware.circuits import parts
from hardware.circuits.skidl_session import SkidlObject, new_circuit, skidl

CHANNELS_PER_MUX = 8
MUX_ADDRESSES = (0x70, 0x71)


def build_hub(handhelds: int) -> SkidlObject:
    """The hub for ``handhelds`` units (1 to 16), seat n on channel n-1 counting across both muxes."""
    most = CHANNELS_PER_MUX * len(MUX_ADDRESSES)
    if not 1 <= handhelds <= most:
        raise ValueError(f"handhelds must be 1 to {most}, got {handhelds}")
    circuit = new_circuit()
    with circuit:
        net = skidl().Net
        gnd, vcc, sda, scl = net("GND"), net("+3V3"), net("SDA"), net("SCL")
        pi = parts.make(parts.PI_HEADER, "hub.pi")
        for name, wire in (("GND", gnd), ("3V3", vcc), ("GPIO2_SDA", sda), ("GPIO3_SCL", scl)):
            pi.n[name] += wire
        muxes = -(-handhelds // CHANNELS_PER_MUX)
        for index in range(muxes):
            first_seat = index * CHANNELS_PER_MUX
            seats = min(CHANNELS_PER_MUX, handhelds - first_seat)
            _mux(index, seats, first_seat, (gnd, vcc, sda, scl), circuit.NC)
    return circuit


def _mux(index: int, seats: int, first_seat: int, bus: tuple[SkidlObject, ...],
         nc: SkidlObject) -> None:
    gnd, vcc, sda, scl = bus
    mux = parts.make(parts.TCA9548A, f"hub.mux{index}")
    mux.n["SDA"] += sda
    mux.n["SCL"] += scl
    mux.n["VCC"] += vcc
    mux.n["GND"] += gnd
    address = MUX_ADDRESSES[index] - 0x70
    for bit in range(3):
        mux.n[f"A{bit}"] += vcc if address >> bit & 1 else gnd
    pullup = parts.make(parts.RESISTOR_0603, f"hub.mux{index}.reset_pullup", "10k")
    reset = skidl().Net(f"MUX{index}_RESET")
    reset += mux.n["~RESET"], pullup[1]
    pullup[2] += vcc
    cap = parts.make(parts.CAP_0603, f"hub.mux{index}.decoupling", "100n")
    cap[1] += vcc
    cap[2] += gnd
    for channel in range(CHANNELS_PER_MUX):
        if channel >= seats:
            mux.n[f"SD{channel}"] += nc
            mux.n[f"SC{channel}"] += nc
            continue
        seat = first_seat + channel + 1
        socket = parts.make(parts.CHANNEL_SOCKET, f"hub.seat{seat}")
        socket.n["GND"] += gnd
        socket.n["3V3"] += vcc
        for line, pin in (("SDA", f"SD{channel}"), ("SCL", f"SC{channel}")):
            wire = skidl().Net(f"SEAT{seat}_{line}")
            wire += mux.n[pin], socket.n[line]
