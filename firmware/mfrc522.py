"""MFRC522 (RC522) driver: set up, check health, track every ISO 14443A tag on one antenna.

A room can hold a dozen pieces, more than one anticollision round reliably
sorts out, so :meth:`MFRC522.scan` never relies on one (docs/sensing.md):
it first confirms each tag it already knows by its UID (WUPA, SELECT with
the full UID through every cascade level, HLTA), which leaves every known
tag halted, and then asks with REQA, which only idle tags answer, singling
out each newcomer with the bit-by-bit anticollision of ISO 14443-3,
selecting and halting it, until nobody answers or the scan's budget is spent.

Register and command numbers are from the NXP MFRC522 datasheet (section
9); the SPI address byte is ``(reg << 1) & 0x7E``, with 0x80 added to read.
Tag commands follow ISO/IEC 14443-3 (6.4, 6.5) as NXP's Reader Library
(phpalI14443p3a_Sw_ActivateCard: WUPA then SELECT with a known UID) and
miguelbalboa/rfid (PICC_WakeupA, PICC_Select, PICC_HaltA) send them.
"""

import time

from micropython import const

# Registers.
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_STATUS2 = const(0x08)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_MODE = const(0x12)
_RX_MODE = const(0x13)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_RF_CFG = const(0x26)
_GS_N = const(0x27)
_CW_GS_P = const(0x28)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Chip commands.
_IDLE = const(0x00)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)  # CommandReg bit: still resetting

# ComIrqReg bits.
_RX_OR_IDLE = const(0x30)
_TIMER = const(0x01)
# ErrorReg bits (datasheet 9.3.1.7), checked in the order of NXP's Reader Library
# (phhalHw_Rc523_ExchangeReceive): overflow, then collision, then protocol, then CRC/parity.
# A collision often garbles the parity bit too, so it must win over ParityErr.
_BUFFER_OVFL = const(0x10)
_COLL_ERR = const(0x08)
_INTEGRITY = const(0x07)  # CRCErr, ParityErr, ProtocolErr
# TempErr (9.3.1.7): "the internal temperature sensor detects overheating, in which case the
# antenna drivers are automatically switched off". Unlike the other bits, command execution
# does not clear it; TempSensClear (Status2Reg bit 7, 9.3.1.9) does, once the chip is below
# its 125 C alarm limit.
_TEMP_ERR = const(0x40)
_TEMP_SENS_CLEAR = const(0x80)

# Set up by init() and lost by any reset: alive() reads it back (power-on value 0x00).
_PRESCALER = const(0xA9)  # 13.56 MHz / (2 * 169 + 1): a 25 us timer tick

# Tag (PICC) commands, ISO 14443-3 6.4.
_REQA = const(0x26)
_WUPA = const(0x52)
_HLTA = const(0x50)
_CASCADE_TAG = const(0x88)
_SELECT_ALL = const(0x70)  # NVB of a SELECT: 7 bytes, the whole level
_SEL = (0x93, 0x95, 0x97)  # cascade levels 1-3

# What a transceive gave.
OK = const(0)
TIMEOUT = const(1)
COLLISION = const(2)
ERROR = const(3)

# What health() finds.
HEALTHY = const(0)
NO_ANSWER = const(1)  # VersionReg holds no MFRC522's version: no module on the cable (MISO pulled to 0x00)
WAS_RESET = const(2)  # answers, but lost its set-up (brown-out, glitch on RST): init() again
OVERHEATED = const(3)  # TempErr: the chip switched its antenna drivers off

# VersionReg values of chips that run this driver (datasheet 9.3.4.8: 0x91 v1.0, 0x92 v2.0),
# and those miguelbalboa/rfid names in PCD_DumpVersionToSerial (src/MFRC522.cpp): 0x90 v0.0,
# 0x88 the Fudan FM17522 clone, 0x12 a counterfeit chip. Anything else, 0x00 from the pull-down
# on an unplugged module's MISO buffer included, is no module.
_VERSIONS = (0x92, 0x91, 0x88, 0x12, 0x90)

_RX_SIZE = const(16)  # the longest answer read back: 5 UID/BCC bytes here
_FIFO_READ = const(0x92)  # FIFODataReg's SPI address byte, read
# Air time at 106 kbit/s: one bit is 128/fc = 9.44 us, a frame a start bit, the data with a parity
# bit per byte, and an end bit (ISO/IEC 14443-2 8.1, 14443-3 6.1). A tag's answer starts 1172/fc
# or 1236/fc (at most 91 us) after the reader's last bit, on a fixed grid (ISO/IEC 14443-3
# 6.2.1), so when an answer must have ended is known: the driver sleeps until then instead of
# polling ComIrqReg over SPI, and takes silence then, plus a grace for the chip's own end-of-frame
# handling, as no answer (instead of waiting out the chip's 1 ms timer).
_FDT_US = const(91)
_GRACE_US = const(100)
# After a frame nobody answers (HLTA), the next command waits its air time and this much more: a
# couple of bit times for the chip to start sending after StartSend (not in the datasheet; a margin).
_TX_MARGIN_US = const(20)
# Each transceive's fixed register writes, as SPI bytes (address << 1, value): datasheet 8.1.2.2.
_W_IDLE = bytes((_COMMAND << 1, _IDLE))
_W_IRQ_CLEAR = bytes((_COM_IRQ << 1, 0x7F))  # clear every interrupt flag (Set1 = 0)
_W_FLUSH = bytes((_FIFO_LEVEL << 1, 0x80))  # FlushBuffer
_W_TRANSCEIVE = bytes((_COMMAND << 1, _TRANSCEIVE))
_W_FIELD_ON = bytes((_TX_CONTROL << 1, 0x83))  # Tx1RFEn and Tx2RFEn (TxControlReg, 9.3.2.5)
_W_FIELD_OFF = bytes((_TX_CONTROL << 1, 0x80))
# ComIrqReg, ErrorReg and FIFOLevelReg in one SPI transaction (8.1.2.1, Table 6): a poll that finds
# the command done has what the answer needs.
_STATUS_READ = bytes((0x80 | _COM_IRQ << 1, 0x80 | _ERROR << 1, 0x80 | _FIFO_LEVEL << 1, 0))
# The same, then a SAK and its CRC_A from the FIFO.
_SAK_READ = bytes((0x80 | _COM_IRQ << 1, 0x80 | _ERROR << 1, 0x80 | _FIFO_LEVEL << 1,
                   _FIFO_READ, _FIFO_READ, _FIFO_READ, 0))
# health() reads VersionReg, TPrescalerReg and ErrorReg in one SPI transaction: each byte sent
# names the next register to read (datasheet 8.1.2.1, Table 6).
_HEALTH_READ = bytes((0x80 | _VERSION << 1, 0x80 | _T_PRESCALER << 1, 0x80 | _ERROR << 1, 0))


def _crc_table():
    """CRC_A of each byte value from 0 (x^16+x^12+x^5+1 reflected: 0x8408), for :func:`crc_a`."""
    table = []
    for value in range(256):
        crc = value
        for _ in range(8):
            crc = crc >> 1 ^ 0x8408 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc_a(buf, start, end):
    """CRC_A of ``buf[start:end]`` (ISO/IEC 14443-3 Annex B: preset 0x6363, reflected x^16+x^12+x^5+1).

    Computed here, a byte a table lookup, rather than by the chip's CRC
    coprocessor, which costs a dozen SPI transactions a frame. Over data
    followed by its own CRC_A (low byte first) it gives 0.
    """
    table = _CRC_TABLE
    crc = 0x6363
    for i in range(start, end):
        crc = crc >> 8 ^ table[(buf[i] ^ crc) & 0xFF]
    return crc


def _air_us(bits):
    """How long a frame of ``bits`` data bits takes on air at 106 kbit/s (start, parity, end bits too)."""
    return (2 + bits + bits // 8) * 944 // 100


def _nothing():
    pass


def _seal(frame):
    """A SELECT frame's CRC_A, low byte first, after its 7 bytes (``frame[0]`` is the FIFO's address)."""
    crc = crc_a(frame, 1, 8)
    frame[8] = crc & 0xFF
    frame[9] = crc >> 8


# Frames as sent over SPI: FIFODataReg's address byte, then the frame.
_HLTA_CRC = crc_a(bytes((_HLTA, 0)), 0, 2)
_HLTA_FRAME = bytes((_FIFO_DATA << 1, _HLTA, 0, _HLTA_CRC & 0xFF, _HLTA_CRC >> 8))
_REQA_FRAME = bytes((_FIFO_DATA << 1, _REQA))
_SELECT_US = _air_us(72) + _FDT_US + _air_us(24)  # a SELECT and its SAK, on air
_WUPA_FRAME = bytes((_FIFO_DATA << 1, _WUPA))


class MFRC522:
    """One reader on the shared SPI bus, behind its own chip select.

    ``settle_us``: field before the first command (ISO 14443-3 clause 5: a
    tag accepts a request within 5 ms of field, so the reader gives 5.1 ms);
    ``gain``: RxGain, bits 6-4 of RFCfgReg; ``max_cards``: tags this antenna
    tracks; ``gs_n``, ``cw_gs_p``: transmitter conductance (GsNReg, CWGsPReg);
    ``reset_us``: field off that resets every tag (NXP's Reader Library: 5 ms).
    """

    def __init__(self, spi, cs, settle_us=5100, gain=0x40, max_cards=16, gs_n=0xF8, cw_gs_p=0x3F,
                 reset_us=5100):
        self._spi = spi
        self._cs = cs
        self._settle_us = settle_us
        self._gain = gain & 0x70
        self._max_cards = max_cards
        self._gs_n = gs_n
        self._cw_gs_p = cw_gs_p & 0x3F
        self._reset_us = reset_us
        self._off_at = time.ticks_us()  # when the field last went off
        self._on_at = self._off_at  # when the field last came on
        self.version_read = 0  # VersionReg as health() last read it (for the log of a missing module)
        self._health_in = bytearray(len(_HEALTH_READ))
        # Preallocated so a scan allocates nothing but the UIDs it finds.
        self._reg = bytearray(2)
        self._miso = bytearray(2)
        self._out = bytearray(12)  # FIFO address byte, then a frame to send
        self._out[0] = _FIFO_DATA << 1
        self._out_view = memoryview(self._out)
        # SELECT frames, one per cascade level: FIFO address byte, SEL, NVB, 5 level bytes, CRC_A.
        self._frames = [bytearray((_FIFO_DATA << 1, 0, _SELECT_ALL, 0, 0, 0, 0, 0, 0, 0)) for _ in range(3)]
        self._started = 0
        self._sent_us = 0
        self._loaded = None  # the frame in the FIFO waiting for StartSend
        self._sak_in = bytearray(len(_SAK_READ))
        self._fifo_cmd = bytearray(_FIFO_READ for _ in range(_RX_SIZE + 1))
        self._fifo_in = bytearray(_RX_SIZE + 1)
        self._rx = memoryview(self._fifo_in)[1:]  # the FIFO bytes read, in place
        self._rx_len = 0
        self._framing = bytearray((_BIT_FRAMING << 1, 0))
        self._status = bytearray(len(_STATUS_READ))
        # Bound once: a register access is a select, one SPI transfer and a deselect.
        self._claim = getattr(cs, "claim", _nothing)  # before a run of transfers (chipselect.py)
        self._cs_low = cs.select
        self._cs_high = cs.deselect
        self._spi_write = spi.write
        self._spi_xfer = spi.write_readinto
        self._cl = bytearray(5)  # one cascade level: 4 UID bytes (or CT + 3) and BCC
        self._uid = bytearray(10)

    @property
    def max_cards(self):
        return self._max_cards

    # ---- registers ----------------------------------------------------------

    def _write(self, reg, value):
        buf = self._reg
        buf[0] = reg << 1
        buf[1] = value
        self._send(buf)

    def _send(self, data):
        """One SPI write transaction: a register address, then what to write to it."""
        self._cs_low()
        self._spi_write(data)
        self._cs_high()

    def _read(self, reg):
        buf = self._reg
        buf[0] = reg << 1 | 0x80
        buf[1] = 0
        self._cs_low()
        self._spi_xfer(buf, self._miso)
        self._cs_high()
        return self._miso[1]

    def _read_fifo(self, count):
        """Read ``count`` FIFO bytes into ``self._rx`` in one SPI transfer."""
        cmd = self._fifo_cmd  # each byte sent names the next byte to read: FIFODataReg, then 0 to end
        cmd[count] = 0
        self._cs_low()
        self._spi_xfer(memoryview(cmd)[: count + 1], memoryview(self._fifo_in)[: count + 1])
        self._cs_high()
        cmd[count] = _FIFO_READ
        self._rx_len = count

    # ---- health -------------------------------------------------------------

    @property
    def off_at(self):
        """When this reader's field last went off (``time.ticks_us``)."""
        return self._off_at

    def version(self):
        """VersionReg: 0x91/0x92 on an MFRC522, 0x00 when no module answers."""
        self._claim()
        return self._read(_VERSION)

    def health(self):
        """HEALTHY; NO_ANSWER (no MFRC522's version); WAS_RESET (lost what init() set); OVERHEATED."""
        self._claim()
        got = self._health_in
        self._cs_low()
        self._spi_xfer(_HEALTH_READ, got)
        self._cs_high()
        self.version_read = got[1]
        if got[1] not in _VERSIONS:
            return NO_ANSWER
        if got[2] != _PRESCALER:
            return WAS_RESET
        return OVERHEATED if got[3] & _TEMP_ERR else HEALTHY

    def alive(self):
        """Answers on SPI and still holds its set-up."""
        return self.health() == HEALTHY

    def recover(self):
        """Try a failed reader again: its health afterwards (HEALTHY when it works again).

        A missing module costs one SPI transaction. An overheated one gets its
        TempErr cleared (9.3.1.9: TempSensClear works only below the alarm
        limit, so a chip still hot stays OVERHEATED); its antenna drivers come
        on again with the next scan's field. Any other is set up afresh.
        """
        status = self.health()
        if status == NO_ANSWER:
            return status
        if status == OVERHEATED:
            self._write(_STATUS2, _TEMP_SENS_CLEAR)
            self._write(_STATUS2, 0)  # a pulse: the datasheet does not say whether the bit clears itself
            self._antenna(False)
        else:
            self.init()
        return self.health()

    def init(self):
        """Soft reset and set up for ISO 14443A; False if the chip does not answer."""
        if self.health() == NO_ANSWER:
            return False
        self._write(_COMMAND, _SOFT_RESET)
        start = time.ticks_ms()
        while self._read(_COMMAND) & _POWER_DOWN:
            if time.ticks_diff(time.ticks_ms(), start) > 50:
                return False
            time.sleep_ms(1)
        self._off_at = time.ticks_us()  # a soft reset switches the field off
        w = self._write
        w(_T_MODE, 0x80)  # TAuto: the timer starts as each transmission ends
        w(_T_PRESCALER, _PRESCALER)
        w(_T_RELOAD_H, 0)
        w(_T_RELOAD_L, 40)  # 40 ticks: 1 ms, the HLTA silence of ISO 14443-3 6.4.3, ten times an answer's delay
        w(_TX_ASK, 0x40)  # 100 % ASK modulation, as type A needs
        w(_MODE, 0x3D)  # CRC preset 0x6363 (CRC_A); the driver computes CRC_A itself (crc_a)
        w(_TX_MODE, 0)  # 106 kbit/s and no automatic CRC: ours is explicit
        w(_RX_MODE, 0)
        self._set_transmitter()
        w(_COLL, 0)  # ValuesAfterColl off: bits after a collision read 0
        self._antenna(False)
        return self.alive()

    def _set_transmitter(self):
        """Transmitter conductance and receiver gain (datasheet 9.3.3.6-9.3.3.8).

        GsNReg bits 7-4 (CWGsN) and CWGsPReg bits 5-0 set the field's
        strength while unmodulated: powering tags through a board is what
        limits range, so config.py raises them. RFCfgReg: bit 7 and bits 3-0
        are reserved, so only RxGain (bits 6-4) is changed, read-modify-write.
        """
        self._write(_GS_N, self._gs_n)
        self._write(_CW_GS_P, self._cw_gs_p)
        self._write(_RF_CFG, self._read(_RF_CFG) & 0x8F | self._gain)

    def _antenna(self, on):
        self._cs_low()
        self._spi_write(_W_FIELD_ON if on else _W_FIELD_OFF)
        self._cs_high()

    def _field_on(self, reset, off_at):
        """Field on; :meth:`_settled` then waits until it has been on ``settle_us``.

        ``reset``: first make sure the field has been off ``reset_us``, so
        every tag powers down and forgets HALT. A tag lying across two
        antennas is powered by either, so the gap counts from ``off_at``, when
        the last antenna that may power it went off (the scanner passes the
        bus's latest), if that is later than this reader's own.
        """
        if reset:
            since = self._off_at
            if off_at is not None and time.ticks_diff(off_at, since) > 0:
                since = off_at
            waited = time.ticks_diff(time.ticks_us(), since)
            if waited < self._reset_us:
                time.sleep_us(self._reset_us - waited)
        self._antenna(True)
        self._on_at = time.ticks_us()

    def _settled(self):
        left = self._settle_us - time.ticks_diff(time.ticks_us(), self._on_at)
        if left > 0:
            time.sleep_us(left)

    def _field_off(self):
        self._antenna(False)
        self._off_at = time.ticks_us()

    # ---- talking to tags ------------------------------------------------------

    def _load(self, frame):
        """Put ``frame[1:]`` in the FIFO (``frame[0]`` is FIFODataReg's SPI address), ready to go.

        Five register writes, each its own SPI transaction, written out: a
        method call per transaction costs as much as its 16 bit times at
        1 MHz. Nothing goes on air until :meth:`_start` sets StartSend
        (datasheet 10.3.1.8: Transceive transmits only once StartSend is set),
        so :meth:`finish` loads the first frame while the field settles.
        """
        low = self._cs_low
        high = self._cs_high
        write = self._spi_write
        low()
        write(_W_IDLE)
        high()
        low()
        write(_W_IRQ_CLEAR)
        high()
        low()
        write(_W_FLUSH)
        high()
        low()
        write(frame)
        high()
        low()
        write(_W_TRANSCEIVE)
        high()
        self._loaded = frame

    def _start(self, frame, last_bits=0, align=0):
        """Send ``frame[1:]`` (loaded already, or now): the command starts.

        ``last_bits`` is how many bits of the last byte go out (0: all 8);
        ``align`` is the bit position where the first received bit lands.
        :meth:`_end` then waits for the answer; the caller may work meanwhile.
        """
        if self._loaded is not frame:
            self._load(frame)
        self._loaded = None
        framing = self._framing
        framing[1] = align << 4 | last_bits | 0x80  # StartSend (BitFramingReg, 9.3.1.14)
        self._cs_low()
        self._spi_write(framing)
        self._cs_high()
        self._started = time.ticks_us()
        self._sent_us = _air_us((len(frame) - 1) * 8 - (8 - last_bits if last_bits else 0))
        self._rx_len = 0

    def _end(self, answer_bits, fetch=True):
        """Wait for an answer of ``answer_bits`` and read it into ``self._rx`` (``fetch``).

        ``answer_bits`` 0: none is awaited (HLTA): only the frame's own air
        time. REQA/WUPA do not fetch: any answer means someone is there.
        Returns OK, TIMEOUT (nobody answered), COLLISION or ERROR.
        """
        start = self._started
        if not answer_bits:
            left = self._sent_us + _TX_MARGIN_US - time.ticks_diff(time.ticks_us(), start)
            if left > 0:
                time.sleep_us(left)  # the frame is on air until then: a command now would cut it short
            return TIMEOUT
        end = self._sent_us + _FDT_US + _air_us(answer_bits)
        left = end - time.ticks_diff(time.ticks_us(), start)
        if left > 0:
            time.sleep_us(left)
        status = self._status
        while True:
            self._cs_low()
            self._spi_xfer(_STATUS_READ, status)
            self._cs_high()
            irq = status[1]
            if irq & _RX_OR_IDLE:
                break
            if irq & _TIMER or time.ticks_diff(time.ticks_us(), start) > end + _GRACE_US:
                return TIMEOUT
        if not fetch:
            return OK
        error = status[2]
        if error & _BUFFER_OVFL:
            return ERROR
        collided = error & _COLL_ERR
        if not collided and error & _INTEGRITY:
            return ERROR
        count = status[3]
        if not 0 < count <= _RX_SIZE:
            return ERROR
        self._read_fifo(count)
        return COLLISION if collided else OK

    def _transceive(self, frame, last_bits=0, align=0, answer_bits=0, fetch=True):
        """:meth:`_start` then :meth:`_end`."""
        self._start(frame, last_bits, align)
        return self._end(answer_bits, fetch)

    def _request(self, command):
        """REQA or WUPA (a 7-bit frame): whether any tag answered.

        Several tags answer at once and their ATQAs may collide or garble;
        any answer still means someone is there.
        """
        return self._transceive(_REQA_FRAME if command == _REQA else _WUPA_FRAME, 7, 0, 16, False) != TIMEOUT

    def _anticollision(self, sel, known):
        """One ANTICOLLISION round with ``known`` UID bits of this level already fixed."""
        whole = known >> 3
        bits = known & 7
        out = self._out
        out[1] = sel
        out[2] = (2 + whole) << 4 | bits  # NVB: bytes, then bits, sent so far
        sent = whole + (1 if bits else 0)
        for i in range(sent):
            out[3 + i] = self._cl[i]
        status = self._transceive(self._out_view[: 3 + sent], bits, bits, 40 - known)
        if status == OK or status == COLLISION:
            self._merge(whole, bits)
        if status == OK and whole + self._rx_len != 5:
            return ERROR
        return status

    def _merge(self, whole, bits):
        """Add the answer to the level's bytes; its first byte shares byte ``whole``."""
        cl = self._cl
        keep = (1 << bits) - 1
        for i in range(min(self._rx_len, 5 - whole)):
            if i == 0:
                cl[whole] = cl[whole] & keep | self._rx[0] & ~keep & 0xFF
            else:
                cl[whole + i] = self._rx[i]

    def _collision_bit(self, known):
        """Settle the first colliding bit as 1; the new count of known bits, or -1.

        CollPos counts from bit 0 of the first byte received (the RxAlign
        bits included), as NXP's own library reads it; 0 means 32.
        """
        coll = self._read(_COLL)
        if coll & 0x20:  # CollPosNotValid
            return -1
        bit = (known >> 3) * 8 + (coll & 0x1F or 32) - 1
        if bit < known or bit > 31:
            return -1
        # Only the known bits are ever sent, so whatever lies above this one is never read.
        self._cl[bit >> 3] |= 1 << (bit & 7)
        return bit + 1

    def _select(self, sel):
        """SELECT the tag whose level bytes are in ``self._cl``: its SAK, or -1."""
        frame = self._frames[0]
        frame[1] = sel
        for i in range(5):
            frame[3 + i] = self._cl[i]
        _seal(frame)
        return self._select_frame(frame)

    def _select_frame(self, frame):
        """Send a SELECT made by :func:`_seal`: the SAK, or -1 (silence, or a garbled answer).

        The SAK and its CRC_A (3 bytes) must have come in by the end of their
        air time (ISO/IEC 14443-3 6.2.1), so one SPI transaction reads the
        status and the FIFO at once (8.1.2.1). Not done by then (late or
        nobody there): the command is waited out and the SELECT failed.
        """
        self._start(frame)
        left = _SELECT_US - time.ticks_diff(time.ticks_us(), self._started)
        if left > 0:
            time.sleep_us(left)
        got = self._sak_in
        self._cs_low()
        self._spi_xfer(_SAK_READ, got)
        self._cs_high()
        if not got[1] & _RX_OR_IDLE:
            self._end(24, False)
            return -1
        if got[2] & (_BUFFER_OVFL | _COLL_ERR | _INTEGRITY) or got[3] != 3:
            return -1
        sak = got[4]
        # The SAK's CRC_A (one byte: one table step from the preset) came through whole.
        if _CRC_TABLE[(sak ^ 0x63) & 0xFF] ^ 0x63 != got[5] | got[6] << 8:
            return -1
        return sak

    def _select_level(self, sel):
        """Anticollision then SELECT at one cascade level: the SAK, or -1."""
        cl = self._cl
        for i in range(5):
            cl[i] = 0
        known = 0
        for _ in range(33):  # each round fixes at least one more bit
            status = self._anticollision(sel, known)
            if status == OK:
                break
            if status != COLLISION:
                return -1
            known = self._collision_bit(known)
            if known < 0:
                return -1
        else:
            return -1
        if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
            return -1  # the BCC does not match: a garbled answer
        return self._select(sel)

    def _activate(self):
        """Single out one tag and select it through every cascade level: its UID size, or 0."""
        size = 0
        uid = self._uid
        cl = self._cl
        for sel in _SEL:
            sak = self._select_level(sel)
            if sak < 0:
                return 0
            if not sak & 0x04:  # UID complete
                for i in range(4):
                    uid[size + i] = cl[i]
                return size + 4
            if cl[0] != _CASCADE_TAG:
                return 0
            for i in range(3):
                uid[size + i] = cl[1 + i]
            size += 3
        return 0

    def _halt(self):
        """HLTA: the selected tag goes to HALT.

        ISO 14443-3 6.4.3: a tag never answers HLTA; any modulation within 1 ms
        would be a "not acknowledge". The driver never acted on one (a tag that
        did not halt only answers the next REQA again, and is found once), so
        it no longer waits out that millisecond: only the frame's own air time.
        """
        self._transceive(_HLTA_FRAME)

    def confirm(self, uid):
        """Whether the tag ``uid`` is in the field: WUPA, SELECT by its UID, HLTA.

        WUPA wakes idle and halted tags alike; at each cascade level only a
        tag whose UID bytes match stays in (the others drop back to IDLE or,
        woken from HALT, to HALT: ISO 14443-3 6.3), and the chosen one ends
        halted again, so a later REQA leaves it quiet.
        """
        self._claim()
        self._start(_WUPA_FRAME, 7)
        levels = self._prepare(uid)  # while WUPA and its answer are on air
        if self._end(16, False) == TIMEOUT:
            return False
        frames = self._frames
        for level in range(levels):
            sak = self._select_frame(frames[level])
            if sak < 0 or (level == levels - 1) == bool(sak & 0x04):
                return False  # silent, or a UID of another length
        self._halt()
        return True

    def _prepare(self, uid):
        """The SELECT frames of ``uid``, a cascade level each, in ``self._frames``: how many levels."""
        size = len(uid)
        at = 0
        level = 0
        while at < size and level < 3:
            frame = self._frames[level]
            frame[1] = _SEL[level]
            if size - at > 4:  # more levels follow: the cascade tag and 3 UID bytes
                frame[3] = _CASCADE_TAG
                frame[4] = uid[at]
                frame[5] = uid[at + 1]
                frame[6] = uid[at + 2]
                at += 3
            else:
                frame[3] = uid[at]
                frame[4] = uid[at + 1]
                frame[5] = uid[at + 2]
                frame[6] = uid[at + 3]
                at += 4
            frame[7] = frame[3] ^ frame[4] ^ frame[5] ^ frame[6]
            _seal(frame)
            level += 1
        return level

    def find(self, found, room):
        """REQA and anticollision: append each newcomer's UID to ``found``, halted; at most ``room``.

        Only idle tags answer REQA, so tags already confirmed (halted) stay
        out of the way. A round that fails leaves tags READY, and the next
        REQA only sends them back to IDLE, so one silent REQA after a
        failure is not taken as an empty field. Every REQA counts against
        the scan's budget (``room`` plus two).
        """
        self._claim()
        budget = room + 2
        failed = False
        while room > 0 and budget > 0:
            budget -= 1
            if not self._request(_REQA):
                if not failed:
                    return
                failed = False
                continue
            size = self._activate()
            if not size:
                failed = True
                continue
            failed = False
            uid = bytes(self._uid[:size])
            if uid not in found:
                found.append(uid)
                room -= 1
            self._halt()

    def scan(self, found, known=(), reset=False, off_at=None):
        """Append to ``found`` the UID (bytes) of every tag on this reader.

        ``known``: UIDs believed present, each confirmed by :meth:`confirm`;
        then newcomers by :meth:`find`, up to ``max_cards`` in all.
        ``reset``: power every tag down first (see :meth:`_field_on`; with
        ``off_at``, also every tag another antenna may have kept powered), for
        when a tag may be lying there halted but unknown. The antenna is on
        only for the scan, so neighbouring readers never jam each other.
        """
        self.begin(reset, off_at)
        self.finish(found, known)

    def begin(self, reset=False, off_at=None):
        """The scan's first half: the field on. Until :meth:`finish`, the caller may do other
        work (the scanner counts the previous reader's tags): it comes out of the field's settle time.
        """
        self._claim()
        self._field_on(reset, off_at)

    def finish(self, found, known=()):
        """The scan's second half (see :meth:`scan`): once the field has settled, confirm and find; field off."""
        self._claim()
        try:
            self._load(_WUPA_FRAME if known else _REQA_FRAME)  # while the field settles
            self._settled()
            count = 0
            for uid in known:
                count += 1
                if self.confirm(uid) and uid not in found:
                    found.append(uid)
            self.find(found, self._max_cards - count)
        finally:
            self._field_off()

    def abandon(self):
        """Field off after :meth:`begin` without :meth:`finish` (the caller's work raised)."""
        self._claim()
        self._field_off()
