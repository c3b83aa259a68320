"""The board under the game: the Pico, its readers on two buffered SPI buses, LEDs, power.

Per reader (docs/circuit.md explains each choice):

- a 74LVC1G125 between the module's MISO and the shared MISO line, enabled by
  that reader's own chip select, because clone RC522 modules drive MISO while
  deselected (miguelbalboa/rfid #290);
- 33 ohm series resistors on SCK, MOSI and CS at the hub end of its cable
  (source termination against ringing on the ribbon run);
- a 10 kohm pull-up on its chip select (direct wiring) so no reader is selected
  and no buffer drives MISO while the Pico boots: RP2040 pads come out of reset
  with their pull-down on (RP2040 datasheet, PADS_BANK0 GPIO reset value);
- a 10 kohm pull-down on the module's MISO at the buffer's input, so an
  unplugged module reads 0x00 (the firmware's "no module") instead of a
  floating CMOS input's noise.

Rooms, centre and door readers share SPI0; the seat pads at the table edge, the
long runs, have SPI1 to themselves. Each bus's SCK and MOSI leave the Pico
through a 74LVC244A, one output per group of at most 8 readers, so no 4 mA
Pico pad drives a star of 29 cables. More readers than direct chip-select
GPIOs switch to 74HC154 decoders. One AMS1117-3.3 feeds at most 16 readers.
"""

from __future__ import annotations

from hardware.circuits import parts
from hardware.circuits import pinout as pins
from hardware.circuits.pinout import BoardSpec
from hardware.circuits.skidl_session import SkidlObject, new_circuit, skidl

SERIES_OHMS = "33"
PULLUP_OHMS = "10k"
# docs/circuit.md, "The board": leakage of a few uA drops well under 0.1 V across
# it, and a module driving MISO high sources only 0.33 mA into it.
MISO_PULLDOWN_OHMS = "10k"
# At most 4 mA from the GPIO into the piezo's capacitance (the pad's default
# drive; RP2040 datasheet, GPIO electrical characteristics).
BUZZER_SERIES_OHMS = "1k"
# One regulator's share: 15 idle readers and one transmitting, at most about
# 0.4 A and 0.7 W in the AMS1117 (docs/hardware.md, "Power").
READERS_PER_REGULATOR = 16
# Readers per fan-out output (one 74LVC244A output drives SCK, another MOSI).
READERS_PER_FANOUT = 8
FANOUT_OUTPUTS = 4  # per signal per 74LVC244A: section 1 SCK, section 2 MOSI


def build_board(spec: BoardSpec) -> SkidlObject:
    """The board's circuit for ``spec``, ready for ERC and a netlist."""
    circuit = new_circuit()
    with circuit:
        rails = _power(regulators(spec.readers))
        rails["NC"] = circuit.NC
        pico = parts.make(parts.PICO, "pico")
        _pico_power(pico, rails)
        on_spi1 = [reader for reader in range(spec.readers) if spec.on_spi1(reader)]
        on_spi0 = [reader for reader in range(spec.readers) if not spec.on_spi1(reader)]
        lines = _bus(pico, 0, (pins.SPI0_SCK, pins.SPI0_MOSI, pins.SPI0_MISO), on_spi0, rails)
        # Without seat pads SPI1 stays unwired (its pins join the unused ones).
        if on_spi1:
            lines.update(_bus(pico, 1, (pins.SPI1_SCK, pins.SPI1_MOSI, pins.SPI1_MISO), on_spi1, rails))
        selects = _chip_selects(spec, pico, rails)
        reset = _gpio_net(pico, pins.READER_RST, "READER_RST")
        for reader in range(spec.readers):
            _reader(reader, lines[reader], selects[reader], reset, rails)
        _leds(spec.readers, pico, rails)
        _buzzer(pico, rails)
        _unused_pico_pins(pico, rails["NC"])
    return circuit


def regulators(readers: int) -> int:
    """AMS1117s the board needs: one per 16 readers.

    >>> regulators(16), regulators(17), regulators(29)
    (1, 2, 2)
    """
    return -(-readers // READERS_PER_REGULATOR)


def reader_rail(reader: int) -> str:
    """The 3.3 V net that feeds ``reader``: readers 0-15 on +3V3 (with the logic), 16-31 on +3V3_B.

    >>> reader_rail(15), reader_rail(16)
    ('+3V3', '+3V3_B')
    """
    group = reader // READERS_PER_REGULATOR
    return "+3V3" if group == 0 else f"+3V3_{chr(ord('A') + group)}"


def _net(name: str) -> SkidlObject:
    return skidl().Net(name)


def _gpio_net(pico: SkidlObject, gpio: int, name: str) -> SkidlObject:
    net = _net(name)
    net += pico.n[f"GP{gpio}"]
    return net


def _decouple(tag: str, a: SkidlObject, b: SkidlObject, value: str = "100n") -> None:
    kind = parts.CAP_0603 if value == "100n" else parts.CAP_0805
    cap = parts.make(kind, tag, value)
    cap[1] += a
    cap[2] += b


def _resistor(tag: str, value: str, a: SkidlObject, b: SkidlObject) -> None:
    resistor = parts.make(parts.RESISTOR_0603, tag, value)
    resistor[1] += a
    resistor[2] += b


def _power(count: int) -> dict[str, SkidlObject]:
    """5 V in; ``count`` AMS1117-3.3s make the readers' 3.3 V rails (10 uF in, 22 uF tantalum out each).

    +3V3 (the first regulator's) also feeds the decoders, buffers and fan-out.
    """
    rails = {"GND": _net("GND"), "+5V": _net("+5V")}
    supply = parts.make(parts.SUPPLY_5V, "supply")
    supply["+5V"] += rails["+5V"]
    supply["GND"] += rails["GND"]
    for index in range(count):
        name = reader_rail(index * READERS_PER_REGULATOR)
        rails[name] = _net(name)
        regulator = parts.make(parts.AMS1117_33, f"regulator{index}")
        regulator["VIN"] += rails["+5V"]
        regulator["VOUT"] += rails[name]
        regulator["GND"] += rails["GND"]
        _decouple(f"regulator{index}.in", rails["+5V"], rails["GND"], "10u")
        out = parts.make(parts.CAP_TANTALUM, f"regulator{index}.out", "22u")
        out["+"] += rails[name]
        out["-"] += rails["GND"]
    return rails


def _pico_power(pico: SkidlObject, rails: dict[str, SkidlObject]) -> None:
    """Grounds joined; the Pico runs from its USB, so VBUS, VSYS and 3V3(OUT) stay free."""
    for pin in pico.n["GND"]:
        pin += rails["GND"]
    for name in ("VBUS", "VSYS", "3V3_OUT", "3V3_EN", "ADC_VREF", "RUN"):
        pico.n[name] += rails["NC"]


def _bus(pico: SkidlObject, number: int, gpios: tuple[int, int, int], readers: list[int],
         rails: dict[str, SkidlObject]) -> dict[int, dict[str, SkidlObject]]:
    """SPI ``number``'s lines for each of ``readers``: its group's SCK and MOSI, the shared MISO."""
    sck, mosi, miso = (_gpio_net(pico, gpio, f"SPI{number}_{name}")
                       for gpio, name in zip(gpios, ("SCK", "MOSI", "MISO")))
    groups = _fanout(number, sck, mosi, -(-len(readers) // READERS_PER_FANOUT), rails)
    return {reader: {"SCK": groups[n // READERS_PER_FANOUT][0], "MOSI": groups[n // READERS_PER_FANOUT][1],
                     "MISO": miso}
            for n, reader in enumerate(readers)}


def _fanout(number: int, sck: SkidlObject, mosi: SkidlObject, groups: int,
            rails: dict[str, SkidlObject]) -> list[tuple[SkidlObject, SkidlObject]]:
    """74LVC244As on one bus: output j of section 1 is group j's SCK, of section 2 its MOSI.

    The Pico's pads then drive a few buffer inputs instead of every cable
    (docs/circuit.md, "Pad drive"); both signals pass the same part, so their
    delays match.
    """
    lines = []
    for chip in range(-(-groups // FANOUT_OUTPUTS)):
        buffer = parts.make(parts.LVC244A, f"spi{number}.fanout{chip}")
        buffer.n["VCC"] += rails["+3V3"]
        buffer.n["GND"] += rails["GND"]
        buffer.n["~1OE"] += rails["GND"]  # always driving: the readers' own selects pick who listens
        buffer.n["~2OE"] += rails["GND"]
        _decouple(f"spi{number}.fanout{chip}_decoupling", rails["+3V3"], rails["GND"])
        for out in range(1, FANOUT_OUTPUTS + 1):
            group = chip * FANOUT_OUTPUTS + out - 1
            if group >= groups:
                for section in (1, 2):
                    buffer.n[f"{section}A{out}"] += rails["GND"]  # unused inputs tied, never floating
                    buffer.n[f"{section}Y{out}"] += rails["NC"]
                continue
            buffer.n[f"1A{out}"] += sck
            buffer.n[f"2A{out}"] += mosi
            group_sck, group_mosi = _net(f"SPI{number}_SCK_G{group}"), _net(f"SPI{number}_MOSI_G{group}")
            group_sck += buffer.n[f"1Y{out}"]
            group_mosi += buffer.n[f"2Y{out}"]
            lines.append((group_sck, group_mosi))
    return lines


def _chip_selects(spec: BoardSpec, pico: SkidlObject, rails: dict[str, SkidlObject]) -> list[SkidlObject]:
    """One active-low select net per reader: a GPIO each, else decoder outputs."""
    selects: list[SkidlObject] = []
    if not spec.decoders:
        for reader in range(spec.readers):
            net = _gpio_net(pico, pins.DIRECT_CS[reader], f"CS{reader}")
            _resistor(f"reader{reader}.cs_pullup", PULLUP_OHMS, net, rails["+3V3"])
            selects.append(net)
        return selects
    address = [_gpio_net(pico, gpio, f"CS_A{bit}") for bit, gpio in enumerate(pins.DECODER_ADDRESS)]
    for index in range(spec.decoders):
        selects += _decoder(index, spec.readers - len(selects), pico, address, rails)
    return selects


def _decoder(index: int, wanted: int, pico: SkidlObject, address: list[SkidlObject],
             rails: dict[str, SkidlObject]) -> list[SkidlObject]:
    """A 74HC154 at 3.3 V; its enable pulled up so it stays off while the Pico boots."""
    decoder = parts.make(parts.HC154, f"decoder{index}")
    for bit, net in enumerate(address):
        decoder.n[f"A{bit}"] += net
    enable = _gpio_net(pico, pins.DECODER_ENABLES[index], f"CS_E{index}")
    decoder.n["~E1"] += enable
    decoder.n["~E2"] += rails["GND"]
    _resistor(f"decoder{index}.enable_pullup", PULLUP_OHMS, enable, rails["+3V3"])
    decoder.n["VCC"] += rails["+3V3"]
    decoder.n["GND"] += rails["GND"]
    _decouple(f"decoder{index}.decoupling", rails["+3V3"], rails["GND"])
    outputs = []
    for line in range(pins.OUTPUTS_PER_DECODER):
        if line >= wanted:
            decoder.n[f"Y{line}"] += rails["NC"]
            continue
        net = _net(f"CS{index * pins.OUTPUTS_PER_DECODER + line}")
        net += decoder.n[f"Y{line}"]
        outputs.append(net)
    return outputs


def _reader(reader: int, bus: dict[str, SkidlObject], select: SkidlObject,
            reset: SkidlObject, rails: dict[str, SkidlObject]) -> None:
    """One reader module: series resistors out, a 3-state buffer back, its MISO pulled down."""
    power = rails[reader_rail(reader)]
    module = parts.make(parts.RC522_MODULE, f"reader{reader}")
    for signal, source in (("SCK", bus["SCK"]), ("MOSI", bus["MOSI"]), ("SDA", select)):
        cable = _net(f"R{reader}_{signal}")
        cable += module.n[signal]
        _resistor(f"reader{reader}.{signal.lower()}_series", SERIES_OHMS, source, cable)
    module.n["RST"] += reset
    module.n["IRQ"] += rails["NC"]
    module.n["3V3"] += power
    module.n["GND"] += rails["GND"]
    buffer = parts.make(parts.LVC1G125, f"reader{reader}.miso_buffer")
    miso = _net(f"R{reader}_MISO")
    miso += module.n["MISO"], buffer.n["A"]
    # Unplugged, the buffer's input would float: pulled down, the reader reads 0x00.
    _resistor(f"reader{reader}.miso_pulldown", MISO_PULLDOWN_OHMS, miso, rails["GND"])
    buffer.n["~OE"] += select  # selected (low): the buffer drives; otherwise high impedance
    buffer.n["Y"] += bus["MISO"]
    buffer.n["VCC"] += power
    buffer.n["GND"] += rails["GND"]
    _decouple(f"reader{reader}.buffer_decoupling", power, rails["GND"])


def _leds(count: int, pico: SkidlObject, rails: dict[str, SkidlObject]) -> None:
    """The WS2812B chain, LED i by reader i, its data lifted to 5 V by a 74AHCT125."""
    shifter = parts.make(parts.AHCT125, "led.level_shifter")
    shifter.n["VCC"] += rails["+5V"]
    shifter.n["GND"] += rails["GND"]
    _decouple("led.level_shifter_decoupling", rails["+5V"], rails["GND"])
    shifter.n["1A"] += _gpio_net(pico, pins.LED_DATA, "LED_DATA_3V3")
    shifter.n["~1OE"] += rails["GND"]
    for unused in ("~2OE", "2A", "~3OE", "3A", "~4OE", "4A"):
        shifter.n[unused] += rails["GND"]  # unused inputs tied, never floating
    for unused in ("2Y", "3Y", "4Y"):
        shifter.n[unused] += rails["NC"]
    data = _net("LED_DATA_5V")
    data += shifter.n["1Y"]
    bulk = parts.make(parts.CAP_BULK, "led.bulk", "1000u")
    bulk["+"] += rails["+5V"]
    bulk["-"] += rails["GND"]
    previous = data
    for index in range(count):
        led = parts.make(parts.WS2812B, f"led{index}")
        if index == 0:
            first = _net("LED0_DIN")
            first += led.n["DIN"]
            _resistor("led.data_series", "330", data, first)
        else:
            led.n["DIN"] += previous
        led.n["VDD"] += rails["+5V"]
        led.n["VSS"] += rails["GND"]
        _decouple(f"led{index}.decoupling", rails["+5V"], rails["GND"])
        if index == count - 1:
            led.n["DOUT"] += rails["NC"]  # the chain ends here
        else:
            previous = _net(f"LED{index}_DOUT")
            previous += led.n["DOUT"]


def _buzzer(pico: SkidlObject, rails: dict[str, SkidlObject]) -> None:
    """The piezo sounder straight from its GPIO's PWM, through 1 kohm (docs/hardware.md, "Buzzer")."""
    buzzer = parts.make(parts.BUZZER, "buzzer")
    drive = _net("BUZZER_R")
    drive += buzzer[1]
    _resistor("buzzer.series", BUZZER_SERIES_OHMS, _gpio_net(pico, pins.BUZZER, "BUZZER"), drive)
    buzzer[2] += rails["GND"]


def _unused_pico_pins(pico: SkidlObject, nc: SkidlObject) -> None:
    for pin in pico.pins:
        if pin.name.startswith("GP") and not pin.is_connected():
            pin += nc
