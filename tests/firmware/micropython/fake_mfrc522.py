"""A register-level MFRC522 and a field of ISO 14443A tags, for the real driver to talk to.

:class:`FakeChip` sits on the fake SPI bus (``machine.selected_devices``) behind
a chip select, speaks the MFRC522's SPI framing (an address byte
``(reg << 1) & 0x7E``, 0x80 to read; when reading, each byte sent names the
next register), and implements the registers and commands the driver uses:
Idle, CalcCRC, Transceive and SoftReset, the FIFO, the IRQ flags, the timer's
time-out, bit framing (TxLastBits, RxAlign), bit collisions (CollReg, CollErr)
and parity bits that collide (ParityErr), as the datasheet describes them.

:class:`Card` (fake_tags.py, re-exported here) is a tag: the ISO 14443-3
type A state machine, answering only once it has had ``boot_us`` of field.

Time is a :class:`VirtualClock` shared with the driver (``mfrc522.time`` is
replaced by it): SPI bytes, frames on air, the chip's timer and the
driver's sleeps all move it, so a test can measure a scan's duration and
check the antenna's timing on the register log. The field itself: a tag
out of every field for ``RESET_US`` or more powers down (back to IDLE); a
shorter gap leaves it as it was, HALT included (fake_tags.Card: a tag over two
antennas is powered by either).

Faults: :meth:`FakeChip.fail` (no module on the cable: MISO reads a fixed
byte), a brown-out (:meth:`FakeChip.power_on`), and overheating
(:meth:`FakeChip.overheat`: TempErr, antenna drivers off, datasheet 9.3.1.7,
latched until TempSensClear is written below the alarm limit, 9.3.1.9).
"""

import binascii

import machine
from fake_tags import (
    ACTIVE, BOOT_US, HALT, IDLE, READY, REQA, RESET_US, SEL, STATE_NAMES, WUPA, Card, VirtualClock, crc_a,
)

__all__ = ("ACTIVE", "BOOT_US", "HALT", "IDLE", "READY", "REQA", "RESET_US", "SEL", "STATE_NAMES", "WUPA", "Card",
           "FakeChip", "FakeDecoder", "VirtualClock", "crc_a")

# Registers.
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
RF_CFG = 0x26
GS_N = 0x27
CW_GS_P = 0x28
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

IDLE_CMD = 0x00
CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# ErrorReg bits (datasheet 9.3.1.7).
TEMP_ERR = 0x40
BUFFER_OVFL = 0x10
COLL_ERR = 0x08
PARITY_ERR = 0x02

# Power-on values of the registers the driver touches (datasheet, section 9).
_DEFAULTS = {
    COMMAND: 0x20, 0x02: 0x80, COM_IRQ: 0x14, CONTROL: 0x10, 0x0B: 0x08, COLL: 0xA0, MODE: 0x3F,
    TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D, CRC_RESULT_H: 0xFF,
    CRC_RESULT_L: 0xFF, 0x24: 0x26, RF_CFG: 0x48, GS_N: 0x88, CW_GS_P: 0x20, 0x29: 0x20, VERSION: 0x92,
}
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)  # ModeReg CRCPreset

# Air timing at 106 kbit/s (ISO 14443-2/-3): one bit is 128 carrier cycles.
ETU_NS = 9440  # 128 / 13.56 MHz
FDT_US = 91  # PICC answer delay, 1236/fc (ISO 14443-3 6.2.1.2, last PCD bit 1)


def _lowest_bit(value):
    at = 0
    while not value >> at & 1:
        at += 1
    return at


def _odd_parity(byte):
    ones = 0
    while byte:
        ones += byte & 1
        byte >>= 1
    return 1 - (ones & 1)


# ---- the reader chip ----------------------------------------------------------------


class FakeChip:
    """One MFRC522 on the fake SPI bus, selected by a CS pin (or a decoder line).

    ``spi_hz`` sets how long each SPI byte takes on the clock; ``call_us`` adds
    a fixed cost per SPI transaction (the interpreter's, on a real Pico: 0
    unless a test asks). With ``logging`` on, every register access is kept in
    ``log`` as (time_us, "r" or "w", register, value). ``version``: what
    VersionReg holds (0x92 an MFRC522 v2.0, 0x91 v1.0; 0x88 an FM17522 clone).
    """

    def __init__(self, cs=None, rst=None, clock=None, spi_hz=1_000_000, call_us=0, version=0x92):
        self.clock = clock or VirtualClock()
        self.byte_us = 8_000_000 / spi_hz
        self.call_us = call_us
        self.selected = False
        self.failed = False  # a dead reader: MISO reads ``fail_value``, writes are lost
        self.fail_value = 0x00
        self.version = version
        self.hot = False  # above the temperature alarm limit (TempErr then set)
        self.cards = []
        self.transfers = 0  # SPI transactions seen (for tests)
        self.transceives = 0
        self.collisions = 0  # answers that set CollErr, and ParityErr with it (for tests)
        self.parity_errors = 0
        self.logging = False
        self.log = []
        self._spent = 0.0  # SPI time not yet moved onto the clock (fractions of a microsecond)
        self._regs = bytearray(64)
        self._fifo = bytearray()
        self._first = True
        self._addr = 0
        self._reading = False
        self._in_reset = False
        self._radiating = False  # the antenna drivers are on
        self._done_at = None  # when the running Transceive finishes, and the ComIrqReg bits it sets then
        self._done_bits = 0
        self._bus = machine.selected_devices()
        self.power_on()
        if cs is not None:
            machine.listen(cs, self._cs_changed)
        if rst is not None:
            machine.listen(rst, self._rst_changed)

    # ---- wiring ---------------------------------------------------------------

    def _cs_changed(self, level):
        self.set_selected(not level)

    def set_selected(self, selected):
        if selected == self.selected:
            return
        self.selected = selected
        if selected:
            self._first = True  # a new transaction starts with an address byte
            self.transfers += 1
            self._tick(self.call_us)
            self._bus.append(self)
        else:
            self._bus.remove(self)

    def _rst_changed(self, level):
        self._in_reset = level == 0  # hard power-down while RST is low
        if not self._in_reset:
            self.power_on()
        self._update_field()

    def power_on(self):
        """Registers to their power-on values, FIFO empty, field off (also what a brown-out does)."""
        regs = self._regs
        for i in range(64):
            regs[i] = 0
        for reg, value in _DEFAULTS.items():
            regs[reg] = value
        regs[VERSION] = self.version
        if self.hot:
            regs[ERROR] = TEMP_ERR  # the sensor still finds it too hot
        self._fifo = bytearray()
        self._done_at = None
        self._update_field()

    def overheat(self):
        """Above the alarm limit: TempErr set, antenna drivers off (datasheet 9.3.1.7)."""
        self.hot = True
        self._regs[ERROR] |= TEMP_ERR
        self._update_field()

    def cool(self):
        """Below the limit again; TempErr stays set until the driver writes TempSensClear (9.3.1.9)."""
        self.hot = False

    def fail(self, value=0x00):
        """No module on the cable any more (unplugged): MISO reads ``value``, the field is gone."""
        self.failed = True
        self.fail_value = value
        self._update_field()

    def heal(self):
        """Answering again, as after a reconnect: from power-on state, so it needs setting up."""
        self.failed = False
        self.power_on()

    def register(self, reg):
        return self._regs[reg]

    @property
    def field_on(self):
        return self._radiating

    def field_on_now(self):
        return self._radiating

    def _update_field(self):
        """The antenna radiates while Tx1RFEn/Tx2RFEn are set, out of reset and without TempErr."""
        on = (self._regs[TX_CONTROL] & 0x03 != 0 and not self._regs[ERROR] & TEMP_ERR and not self._in_reset
              and not self.failed)
        if on == self._radiating:
            return
        self._radiating = on
        now = self.clock.now
        for card in self.cards:
            if on:
                card.field_on(now)
            else:
                card.field_off(now)

    def add(self, card):
        """Lay ``card`` over this antenna (it may lie over others too: see fake_tags.Card)."""
        card.antennas += 1
        if self._radiating:
            card.field_on(self.clock.now)
        self.cards.append(card)

    def remove(self, card):
        self.cards.remove(card)
        if self._radiating:
            card.field_off(self.clock.now)
        card.antennas -= 1
        if not card.antennas:
            card.unpower()

    def states(self):
        """Each tag's state name, by UID in hex (for tests)."""
        return {binascii.hexlify(card.uid).decode(): STATE_NAMES[card.state] for card in self.cards}

    # ---- SPI --------------------------------------------------------------------

    def _tick(self, us):
        self._spent += us
        whole = int(self._spent)
        if whole:
            self.clock.now += whole
            self._spent -= whole

    def transfer(self, out, into):
        self._tick(len(out) * self.byte_us)
        if self.failed or self._in_reset:
            for i in range(len(out)):
                if into is not None:
                    into[i] = self.fail_value
            return
        start = 0
        if self._first:  # the address byte
            self._first = False
            self._addr = out[0] >> 1 & 0x3F
            self._reading = out[0] & 0x80
            if into is not None:
                into[0] = 0
            start = 1
        for i in range(start, len(out)):
            if self._reading:
                into[i] = self._read(self._addr)
                self._addr = out[i] >> 1 & 0x3F  # each byte sent names the next register to read
            else:
                self._write(self._addr, out[i])
                if into is not None:
                    into[i] = 0

    def _read(self, reg):
        if reg == COM_IRQ and self._done_at is not None:
            # The driver polls until the chip is done; rather than answer every poll, the
            # first one waits for it (the clock ends where many polls would have left it).
            self.clock.now = max(self.clock.now, self._done_at)
            self._regs[COM_IRQ] |= self._done_bits
            self._done_at = None
        if reg == FIFO_DATA:
            value = self._fifo[0] if self._fifo else 0
            self._fifo[0:1] = b""
        elif reg == FIFO_LEVEL:
            value = len(self._fifo)
        else:
            value = self._regs[reg]
        if self.logging:
            self.log.append((self.clock.now, "r", reg, value))
        return value

    def _write(self, reg, value):
        if self.logging:
            self.log.append((self.clock.now, "w", reg, value))
        regs = self._regs
        if reg == FIFO_DATA:
            if len(self._fifo) < 64:
                self._fifo.append(value)
            else:
                regs[ERROR] |= BUFFER_OVFL
        elif reg == COMMAND:
            self._command(value)
        elif reg == COM_IRQ or reg == DIV_IRQ:
            # Bit 7 (Set1/Set2) says whether the marked bits are set or cleared.
            regs[reg] = regs[reg] | (value & 0x7F) if value & 0x80 else regs[reg] & ~value & 0x7F
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self._fifo = bytearray()
                regs[ERROR] &= ~BUFFER_OVFL
        elif reg == BIT_FRAMING:
            regs[reg] = value
            if value & 0x80 and regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive()
        elif reg == TX_CONTROL:
            regs[reg] = value
            self._update_field()
        elif reg == STATUS2:
            regs[reg] = value & 0xC8  # bits 2-0 (ModemState) are the chip's
            if value & 0x80 and not self.hot:  # TempSensClear, below the alarm limit
                regs[ERROR] &= ~TEMP_ERR
                self._update_field()
        elif reg == ERROR:
            pass  # read-only
        elif reg != VERSION:
            regs[reg] = value

    def _command(self, value):
        command = value & 0x0F
        if command == SOFT_RESET:
            self.power_on()  # done at once: PowerDown reads 0 straight away
            return
        self._regs[COMMAND] = value & 0x3F
        if command == IDLE_CMD:
            self._done_at = None  # Idle stops a running command
        elif command == CALC_CRC:
            crc = crc_a(self._fifo, _CRC_PRESETS[self._regs[MODE] & 0x03])
            self._fifo = bytearray()
            self._regs[CRC_RESULT_L] = crc & 0xFF
            self._regs[CRC_RESULT_H] = crc >> 8
            self._regs[DIV_IRQ] |= 0x04  # CRCIRq

    # ---- the air interface -----------------------------------------------------------

    def _timeout_us(self):
        """The timer's period (datasheet 8.5): (TReload + 1) * (2 * TPrescaler + 1) / 13.56 MHz."""
        regs = self._regs
        prescaler = (regs[T_MODE] & 0x0F) << 8 | regs[T_PRESCALER]
        reload = regs[T_RELOAD_H] << 8 | regs[T_RELOAD_L]
        return (reload + 1) * (2 * prescaler + 1) * 1000 // 13560

    def _transceive(self):
        regs = self._regs
        self.transceives += 1
        data = bytes(self._fifo)
        self._fifo = bytearray()
        framing = regs[BIT_FRAMING]
        last = framing & 0x07
        bits = len(data) * 8 - (8 - last if last else 0)
        now = self.clock.now
        answers = []
        # Tags only hear a reader whose field is on with 100 % ASK (TxASKReg), and once booted.
        if self.field_on_now() and regs[TX_ASK] & 0x40:
            for card in self.cards:
                if card.ready_at(now):
                    answer = card.receive(data, bits)
                    if answer is not None:
                        answers.append(answer)
        regs[ERROR] &= TEMP_ERR  # a command clears every error bit but TempErr (9.3.1.7)
        sent_us = (2 + bits + bits // 8) * ETU_NS // 1000  # start, data, parity, end
        if answers:
            heard = self._receive(answers, framing >> 4 & 0x07)
            self._finish(now + sent_us + FDT_US + (2 + heard + heard // 8) * ETU_NS // 1000, 0x60)  # TxIRq RxIRq
        elif regs[T_MODE] & 0x80:  # TAuto: the timer runs out with nothing heard
            self._finish(now + sent_us + self._timeout_us(), 0x41)  # TxIRq TimerIRq
        else:
            self._finish(now + sent_us, 0x40)  # nothing heard and no timer: the driver's own wait ends it

    def _finish(self, at, bits):
        self._done_at = at
        self._done_bits = bits

    def _receive(self, answers, align):
        """What the receiver makes of every tag answering at once: a wired-OR with collisions.

        The first differing data bit sets CollErr and CollPos (counted from
        bit 0 of the first FIFO byte, RxAlign included, 0 meaning 32;
        CollPosNotValid beyond that), and with ValuesAfterColl off the bits
        after it read 0 (datasheet 9.3.1.15). A complete byte whose parity
        bits differ between the tags (their parity bits collide) sets
        ParityErr as well. Returns how many bits were heard.
        """
        regs = self._regs
        bits = min(answer[1] for answer in answers)
        mask = (1 << bits) - 1
        ored = 0
        anded = mask
        for value, _ in answers:
            ored |= value & mask
            anded &= value & mask
        value = ored
        coll = regs[COLL] & 0x80 | 0x20  # CollPosNotValid unless a collision is found
        if ored != anded:
            first = _lowest_bit(ored ^ anded)
            position = align + first + 1
            coll = regs[COLL] & 0x80 | (position & 0x1F if position <= 32 else 0x20)
            regs[ERROR] |= COLL_ERR
            self.collisions += 1
            if self._parity_collides(answers, align, bits):
                regs[ERROR] |= PARITY_ERR
                self.parity_errors += 1
            if not regs[COLL] & 0x80:  # ValuesAfterColl off: the rest reads 0
                value &= (1 << first) - 1
        regs[COLL] = coll
        total = align + bits
        self._fifo = bytearray((value << align).to_bytes((total + 7) // 8, "little"))
        regs[CONTROL] = regs[CONTROL] & 0xF8 | total & 0x07  # RxLastBits
        return bits

    @staticmethod
    def _parity_collides(answers, align, bits):
        """Whether any byte the tags sent whole carries parity bits that differ between them.

        The byte split with the reader's last bits is left out: its parity
        covers bits the tags did not all send.
        """
        skip = 8 - align if align else 0
        for start in range(skip, bits - 7, 8):
            parities = {_odd_parity(value >> start & 0xFF) for value, _ in answers}
            if len(parities) > 1:
                return True
        return False


class FakeDecoder:
    """A 74HC154: with E1 low, output Y<A3..A0> goes low and selects its chip."""

    def __init__(self, address, enable):
        self._address = [machine.line(pin) for pin in address]
        self._enable = machine.line(enable)
        self._chips = {}
        for pin in tuple(address) + (enable,):
            machine.listen(pin, self._changed)

    def attach(self, output, chip):
        self._chips[output] = chip
        self._changed(None)

    def _changed(self, _level):
        active = -1
        if self._enable.value == 0:
            active = sum(line.value << bit for bit, line in enumerate(self._address))
        for output, chip in self._chips.items():
            chip.set_selected(output == active)
