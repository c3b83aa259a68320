"""A register-level MFRC522 and ISO 14443A tags, for the real driver to talk to.

:class:`FakeChip` sits on the fake SPI bus (``machine.selected_devices``) behind
a chip select, speaks the MFRC522's SPI framing (an address byte
``(reg << 1) & 0x7E``, 0x80 to read; when reading, each byte sent names the
next register), and implements the registers and commands the driver uses:
Idle, CalcCRC, Transceive and SoftReset, the FIFO, the IRQ flags, the timer's
time-out, bit framing (TxLastBits, RxAlign) and bit collisions (CollReg).

:class:`Card` is a tag: the ISO 14443-3 type A state machine (IDLE, READY,
ACTIVE, HALT, and READY* for one woken from HALT), REQA, WUPA,
ANTICOLLISION and SELECT at every cascade level, HLTA. It answers only what
a real tag would, with the CRC_A checked where the standard has one.
"""

import machine

# Registers.
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
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
T_MODE = 0x2A
VERSION = 0x37

IDLE_CMD = 0x00
CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# Power-on values of the registers the driver touches (datasheet, section 9).
_DEFAULTS = {
    COMMAND: 0x20, 0x02: 0x80, COM_IRQ: 0x14, CONTROL: 0x10, 0x0B: 0x08, COLL: 0xA0, MODE: 0x3F,
    TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D, CRC_RESULT_H: 0xFF,
    CRC_RESULT_L: 0xFF, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, VERSION: 0x92,
}
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)  # ModeReg CRCPreset


def crc_a(data, preset=0x6363):
    """ISO 14443-3 CRC_A (reflected 0x8408); sent low byte first."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return crc & 0xFFFF


def _lowest_bit(value):
    at = 0
    while not value >> at & 1:
        at += 1
    return at


# ---- tags ----------------------------------------------------------------------

IDLE = 0
READY = 1
ACTIVE = 2
HALT = 3
REQA = 0x26
WUPA = 0x52
SEL = (0x93, 0x95, 0x97)


class Card:
    """One ISO 14443A tag with a 4-, 7- or 10-byte UID (MIFARE Classic, NTAG21x, ...)."""

    def __init__(self, uid):
        uid = bytes(uid)
        if len(uid) not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes")
        self.uid = uid
        # Each cascade level: 4 bytes (CT 0x88 + 3 UID bytes while more follow) and BCC.
        chunks = {4: (uid,), 7: (b"\x88" + uid[:3], uid[3:]), 10: (b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:])}
        self.levels = [chunk + bytes((chunk[0] ^ chunk[1] ^ chunk[2] ^ chunk[3],)) for chunk in chunks[len(uid)]]
        self.saks = {4: (0x08,), 7: (0x04, 0x00), 10: (0x04, 0x04, 0x20)}[len(uid)]
        self.atqa = {4: 0x0004, 7: 0x0044, 10: 0x0084}[len(uid)]
        self.state = IDLE
        self.level = 0
        self.from_halt = False  # READY* (woken from HALT by WUPA): errors send it back to HALT
        self.selected = 0  # how often it was selected (for tests)

    def power(self, on):
        """Field on: the tag boots IDLE. Field off: it forgets everything."""
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def receive(self, data, bits):
        """A frame of ``bits`` bits from the reader: the answer (value, bits) or None."""
        if bits == 7:
            return self._request(data[0] & 0x7F)
        if self.state == READY:
            return self._ready(data, bits)
        if self.state == ACTIVE:
            self._active(data, bits)
        return None

    def _back(self):
        """Any unexpected frame: back to IDLE, or to HALT from READY*."""
        self.state = HALT if self.from_halt else IDLE
        self.level = 0

    def _request(self, command):
        if (command == REQA and self.state == IDLE) or (command == WUPA and self.state in (IDLE, HALT)):
            self.from_halt = self.state == HALT
            self.state = READY
            self.level = 0
            return self.atqa, 16
        if self.state in (READY, ACTIVE):
            self._back()
        return None

    def _ready(self, data, bits):
        if len(data) < 2 or data[0] != SEL[self.level]:
            self._back()
            return None
        nvb = data[1]
        if nvb == 0x70:
            return self._select(data, bits)
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if nvb & 0x0F > 7 or not 0 <= known < 40 or bits != 16 + known:
            self._back()
            return None
        mask = (1 << known) - 1
        mine = int.from_bytes(self.levels[self.level], "little")
        if int.from_bytes(data[2:], "little") & mask != mine & mask:
            return None  # another tag's prefix: stay READY and quiet
        return mine >> known, 40 - known

    def _select(self, data, bits):
        if bits != 72 or crc_a(data[:7]) != data[7] | data[8] << 8:
            return None  # a garbled frame is not answered
        if bytes(data[2:7]) != self.levels[self.level]:
            self._back()
            return None
        sak = self.saks[self.level]
        if sak & 0x04:
            self.level += 1  # UID not complete: on to the next cascade level
        else:
            self.state = ACTIVE
            self.selected += 1
        return sak | crc_a(bytes((sak,))) << 8, 24

    def _active(self, data, bits):
        if bits == 32 and data[0] == 0x50 and data[1] == 0 and crc_a(data[:2]) == data[2] | data[3] << 8:
            self.state = HALT
            self.from_halt = False
        else:
            self._back()


# ---- the reader chip ----------------------------------------------------------------


class FakeChip:
    """One MFRC522 on the fake SPI bus, selected by a CS pin (or a decoder line)."""

    def __init__(self, cs=None, rst=None):
        self.selected = False
        self.failed = False  # a dead reader: MISO reads ``fail_value``, writes are lost
        self.fail_value = 0x00
        self.cards = []
        self.transfers = 0  # SPI transactions seen (for tests)
        self.transceives = 0
        self._regs = bytearray(64)
        self._fifo = bytearray()
        self._first = True
        self._addr = 0
        self._reading = False
        self._in_reset = False
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
            self._bus.append(self)
        else:
            self._bus.remove(self)

    def _rst_changed(self, level):
        self._in_reset = level == 0  # hard power-down while RST is low
        if not self._in_reset:
            self.power_on()

    def power_on(self):
        """Registers to their power-on values, FIFO empty, field off."""
        self._field(False)
        regs = self._regs
        for i in range(64):
            regs[i] = 0
        for reg, value in _DEFAULTS.items():
            regs[reg] = value
        self._fifo = bytearray()

    def fail(self, value=0x00):
        self.failed = True
        self.fail_value = value

    def heal(self):
        """Answering again, as after a reconnect: from power-on state, so it needs setting up."""
        self.failed = False
        self.power_on()

    def register(self, reg):
        return self._regs[reg]

    @property
    def field_on(self):
        return self._regs[TX_CONTROL] & 0x03 != 0

    def _field(self, on):
        for card in self.cards:
            card.power(on)

    def add(self, card):
        card.power(self.field_on)
        self.cards.append(card)

    def remove(self, card):
        self.cards.remove(card)

    # ---- SPI --------------------------------------------------------------------

    def transfer(self, out, into):
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
        if reg == FIFO_DATA:
            if not self._fifo:
                return 0
            value = self._fifo[0]
            self._fifo[0:1] = b""
            return value
        if reg == FIFO_LEVEL:
            return len(self._fifo)
        return self._regs[reg]

    def _write(self, reg, value):
        regs = self._regs
        if reg == FIFO_DATA:
            if len(self._fifo) < 64:
                self._fifo.append(value)
            else:
                regs[ERROR] |= 0x10  # BufferOvfl
        elif reg == COMMAND:
            self._command(value)
        elif reg == COM_IRQ or reg == DIV_IRQ:
            # Bit 7 (Set1/Set2) says whether the marked bits are set or cleared.
            regs[reg] = regs[reg] | (value & 0x7F) if value & 0x80 else regs[reg] & ~value & 0x7F
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self._fifo = bytearray()
                regs[ERROR] &= ~0x10
        elif reg == BIT_FRAMING:
            regs[reg] = value
            if value & 0x80 and regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive()
        elif reg == TX_CONTROL:
            was = self.field_on
            regs[reg] = value
            if was != self.field_on:
                self._field(self.field_on)
        elif reg != VERSION:
            regs[reg] = value

    def _command(self, value):
        command = value & 0x0F
        if command == SOFT_RESET:
            self.power_on()  # done at once: PowerDown reads 0 straight away
            return
        self._regs[COMMAND] = value & 0x3F
        if command == CALC_CRC:
            crc = crc_a(self._fifo, _CRC_PRESETS[self._regs[MODE] & 0x03])
            self._fifo = bytearray()
            self._regs[CRC_RESULT_L] = crc & 0xFF
            self._regs[CRC_RESULT_H] = crc >> 8
            self._regs[DIV_IRQ] |= 0x04  # CRCIRq

    # ---- the air interface -----------------------------------------------------------

    def _transceive(self):
        regs = self._regs
        self.transceives += 1
        data = bytes(self._fifo)
        self._fifo = bytearray()
        framing = regs[BIT_FRAMING]
        last = framing & 0x07
        bits = len(data) * 8 - (8 - last if last else 0)
        answers = []
        # Tags only hear a reader whose field is on with 100 % ASK (TxASKReg).
        if self.field_on and regs[TX_ASK] & 0x40:
            for card in self.cards:
                answer = card.receive(data, bits)
                if answer is not None:
                    answers.append(answer)
        regs[COM_IRQ] |= 0x40  # TxIRq
        regs[ERROR] = 0
        if answers:
            self._receive(answers, framing >> 4 & 0x07)
        elif regs[T_MODE] & 0x80:  # TAuto: the timer ran out with nothing heard
            regs[COM_IRQ] |= 0x01

    def _receive(self, answers, align):
        """What the receiver makes of every tag answering at once: a wired-OR with collisions."""
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
            position = align + first + 1  # counted from bit 0 of the first FIFO byte
            coll = regs[COLL] & 0x80 | (position & 0x1F if position <= 32 else 0x20)
            regs[ERROR] |= 0x08  # CollErr
            if not regs[COLL] & 0x80:  # ValuesAfterColl off: the rest reads 0
                value &= (1 << first) - 1
        regs[COLL] = coll
        total = align + bits
        self._fifo = bytearray((value << align).to_bytes((total + 7) // 8, "little"))
        regs[CONTROL] = regs[CONTROL] & 0xF8 | total & 0x07  # RxLastBits
        regs[COM_IRQ] |= 0x20  # RxIRq


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
