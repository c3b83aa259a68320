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
_DIV_IRQ = const(0x05)
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
_CRC_RESULT_H = const(0x21)
_CRC_RESULT_L = const(0x22)
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
_CALC_CRC = const(0x03)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)  # CommandReg bit: still resetting

# ComIrqReg / DivIrqReg bits.
_RX_OR_IDLE = const(0x30)
_TIMER = const(0x01)
_CRC_DONE = const(0x04)
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

_WAIT_US = const(5000)  # a command's longest wait: the 1 ms tag timer plus ample slack
_RX_SIZE = const(16)  # the longest answer read back: 5 UID/BCC bytes here
_FIFO_READ = const(0x92)  # FIFODataReg's SPI address byte, read
# health() reads VersionReg, TPrescalerReg and ErrorReg in one SPI transaction: each byte sent
# names the next register to read (datasheet 8.1.2.1, Table 6).
_HEALTH_READ = bytes((0x80 | _VERSION << 1, 0x80 | _T_PRESCALER << 1, 0x80 | _ERROR << 1, 0))


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
        self.version_read = 0  # VersionReg as health() last read it (for the log of a missing module)
        self._health_in = bytearray(len(_HEALTH_READ))
        # Preallocated so a scan allocates nothing but the UIDs it finds.
        self._reg = bytearray(2)
        self._miso = bytearray(2)
        self._out = bytearray(12)  # FIFO address byte, then a frame to send
        self._out_view = memoryview(self._out)
        self._fifo_cmd = bytearray(_RX_SIZE + 1)
        self._fifo_in = bytearray(_RX_SIZE + 1)
        self._rx = bytearray(_RX_SIZE)
        self._rx_len = 0
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
        self._cs.select()
        self._spi.write(buf)
        self._cs.deselect()

    def _read(self, reg):
        buf = self._reg
        buf[0] = reg << 1 | 0x80
        buf[1] = 0
        self._cs.select()
        self._spi.write_readinto(buf, self._miso)
        self._cs.deselect()
        return self._miso[1]

    def _write_fifo(self, count):
        """Put ``self._out[1 : 1 + count]`` in the FIFO, in one SPI transfer."""
        self._out[0] = _FIFO_DATA << 1
        self._cs.select()
        self._spi.write(self._out_view[: 1 + count])
        self._cs.deselect()

    def _read_fifo(self, count):
        """Read ``count`` FIFO bytes into ``self._rx`` in one SPI transfer."""
        cmd = self._fifo_cmd
        for i in range(count):
            cmd[i] = _FIFO_READ  # each byte sent names the next byte to read
        cmd[count] = 0
        self._cs.select()
        self._spi.write_readinto(memoryview(cmd)[: count + 1], memoryview(self._fifo_in)[: count + 1])
        self._cs.deselect()
        for i in range(count):
            self._rx[i] = self._fifo_in[i + 1]
        self._rx_len = count

    def _wait(self, reg, done, fail):
        """Poll ``reg`` until a ``done`` bit is set: its value, or 0 on ``fail`` or time-out."""
        start = time.ticks_us()
        while True:
            bits = self._read(reg)
            if bits & done:
                return bits
            if bits & fail or time.ticks_diff(time.ticks_us(), start) > _WAIT_US:
                return 0

    # ---- health -------------------------------------------------------------

    @property
    def off_at(self):
        """When this reader's field last went off (``time.ticks_us``)."""
        return self._off_at

    def version(self):
        """VersionReg: 0x91/0x92 on an MFRC522, 0x00 when no module answers."""
        return self._read(_VERSION)

    def health(self):
        """HEALTHY; NO_ANSWER (no MFRC522's version); WAS_RESET (lost what init() set); OVERHEATED."""
        got = self._health_in
        self._cs.select()
        self._spi.write_readinto(_HEALTH_READ, got)
        self._cs.deselect()
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
        w(_MODE, 0x3D)  # CRC coprocessor preset 0x6363: CRC_A
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
        self._write(_TX_CONTROL, 0x83 if on else 0x80)  # Tx1RFEn and Tx2RFEn

    def _field_on(self, reset, off_at):
        """Field on, and ``settle_us`` of it before the first command.

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
        if self._settle_us:
            time.sleep_us(self._settle_us)

    def _field_off(self):
        self._antenna(False)
        self._off_at = time.ticks_us()

    # ---- talking to tags ------------------------------------------------------

    def _transceive(self, count, last_bits=0, align=0):
        """Send ``self._out[1 : 1 + count]`` and read the answer into ``self._rx``.

        ``last_bits`` is how many bits of the last byte go out (0: all 8);
        ``align`` is the bit position where the first received bit lands.
        Returns OK, TIMEOUT (nobody answered), COLLISION or ERROR.
        """
        w = self._write
        w(_COMMAND, _IDLE)
        w(_COM_IRQ, 0x7F)  # clear every interrupt flag
        w(_FIFO_LEVEL, 0x80)  # flush the FIFO
        self._write_fifo(count)
        framing = align << 4 | last_bits
        w(_BIT_FRAMING, framing)
        w(_COMMAND, _TRANSCEIVE)
        w(_BIT_FRAMING, framing | 0x80)  # StartSend
        self._rx_len = 0
        if not self._wait(_COM_IRQ, _RX_OR_IDLE, _TIMER):
            return TIMEOUT
        error = self._read(_ERROR)
        if error & _BUFFER_OVFL:
            return ERROR
        collided = error & _COLL_ERR
        if not collided and error & _INTEGRITY:
            return ERROR
        count = self._read(_FIFO_LEVEL)
        if not 0 < count <= _RX_SIZE:
            return ERROR
        self._read_fifo(count)
        return COLLISION if collided else OK

    def _crc(self, count):
        """Append the CRC_A of ``self._out[1 : 1 + count]``, computed by the chip."""
        w = self._write
        w(_COMMAND, _IDLE)
        w(_DIV_IRQ, 0x04)  # clear CRCIRq
        w(_FIFO_LEVEL, 0x80)
        self._write_fifo(count)
        w(_COMMAND, _CALC_CRC)
        done = self._wait(_DIV_IRQ, _CRC_DONE, 0)
        w(_COMMAND, _IDLE)
        if not done:
            return False
        self._out[1 + count] = self._read(_CRC_RESULT_L)  # CRC_A goes low byte first
        self._out[2 + count] = self._read(_CRC_RESULT_H)
        return True

    def _request(self, command):
        """REQA or WUPA (a 7-bit frame): whether any tag answered.

        Several tags answer at once and their ATQAs may collide or garble;
        any answer still means someone is there.
        """
        self._out[1] = command
        return self._transceive(1, 7) != TIMEOUT

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
        status = self._transceive(2 + sent, bits, bits)
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
        out = self._out
        out[1] = sel
        out[2] = _SELECT_ALL
        for i in range(5):
            out[3 + i] = self._cl[i]
        if not self._crc(7) or self._transceive(9) != OK or self._rx_len != 3:
            return -1
        sak = self._rx[0]
        for i in range(3):
            out[1 + i] = self._rx[i]
        # The CRC_A over data and its own CRC leaves 0: the SAK came through whole.
        if not self._crc(3) or out[4] or out[5]:
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
        """HLTA: the selected tag goes to HALT (ISO 14443-3 6.4.3: silence for 1 ms is success)."""
        out = self._out
        out[1] = _HLTA
        out[2] = 0
        if self._crc(2):
            self._transceive(4)

    def confirm(self, uid):
        """Whether the tag ``uid`` is in the field: WUPA, SELECT by its UID, HLTA.

        WUPA wakes idle and halted tags alike; at each cascade level only a
        tag whose UID bytes match stays in (the others drop back to IDLE or,
        woken from HALT, to HALT: ISO 14443-3 6.3), and the chosen one ends
        halted again, so a later REQA leaves it quiet.
        """
        if not self._request(_WUPA):
            return False
        cl = self._cl
        size = len(uid)
        at = 0
        for sel in _SEL:
            if size - at > 4:  # more levels follow: the cascade tag and 3 UID bytes
                cl[0] = _CASCADE_TAG
                for i in range(3):
                    cl[1 + i] = uid[at + i]
                at += 3
            else:
                for i in range(4):
                    cl[i] = uid[at + i]
                at += 4
            cl[4] = cl[0] ^ cl[1] ^ cl[2] ^ cl[3]
            sak = self._select(sel)
            if sak < 0 or (at == size) == bool(sak & 0x04):
                return False  # silent, or a UID of another length
            if at == size:
                self._halt()
                return True
        return False

    def find(self, found, room):
        """REQA and anticollision: append each newcomer's UID to ``found``, halted; at most ``room``.

        Only idle tags answer REQA, so tags already confirmed (halted) stay
        out of the way. A round that fails leaves tags READY, and the next
        REQA only sends them back to IDLE, so one silent REQA after a
        failure is not taken as an empty field. Every REQA counts against
        the scan's budget (``room`` plus two).
        """
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
        self._field_on(reset, off_at)
        try:
            count = 0
            for uid in known:
                count += 1
                if self.confirm(uid) and uid not in found:
                    found.append(uid)
            self.find(found, self._max_cards - count)
        finally:
            self._field_off()
