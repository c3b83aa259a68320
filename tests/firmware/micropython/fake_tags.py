"""ISO 14443A tags for the fake MFRC522, and the virtual clock they share with the driver.

:class:`Card` is a tag: the ISO 14443-3 type A state machine (IDLE, READY,
ACTIVE, HALT, and READY*/ACTIVE* for one woken from HALT), REQA, WUPA,
ANTICOLLISION and SELECT at every cascade level, HLTA. It answers only what
a real tag would, with the CRC_A checked where the standard has one, and
only once it has had ``boot_us`` of field (ISO 14443-3 clause 5: a PICC
accepts a request within 5 ms of unmodulated field).

A tag may lie over several antennas (straddling two of a room): it is powered
while any of their fields is on, and only ``RESET_US`` without any field
powers it down (back to IDLE, HALT forgotten); a shorter gap leaves it as it
was.
"""

BOOT_US = 5000  # field a tag needs before it answers (ISO 14443-3 clause 5)
RESET_US = 5000  # no field this long powers a tag down (NXP Reader Library's default field-off time)


def crc_a(data, preset=0x6363):
    """ISO 14443-3 CRC_A (reflected 0x8408); sent low byte first."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return crc & 0xFFFF


class VirtualClock:
    """``time`` for the driver (ticks_us, ticks_ms, sleep_us, ...), moved by the fake world."""

    def __init__(self):
        self.now = 0  # microseconds

    def advance(self, us):
        self.now += us

    def ticks_us(self):
        return self.now

    def ticks_ms(self):
        return self.now // 1000

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, b):
        return a + b

    def sleep_us(self, us):
        self.now += max(0, us)

    def sleep_ms(self, ms):
        self.now += max(0, ms) * 1000


# ---- tags ----------------------------------------------------------------------

IDLE = 0
READY = 1
ACTIVE = 2
HALT = 3
REQA = 0x26
WUPA = 0x52
SEL = (0x93, 0x95, 0x97)
STATE_NAMES = ("IDLE", "READY", "ACTIVE", "HALT")


class Card:
    """One ISO 14443A tag with a 4-, 7- or 10-byte UID (MIFARE Classic, NTAG21x, ...)."""

    def __init__(self, uid, boot_us=BOOT_US):
        uid = bytes(uid)
        if len(uid) not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes")
        self.uid = uid
        # Each cascade level: 4 bytes (CT 0x88 + 3 UID bytes while more follow) and BCC.
        chunks = {4: (uid,), 7: (b"\x88" + uid[:3], uid[3:]), 10: (b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:])}
        self.levels = [chunk + bytes((chunk[0] ^ chunk[1] ^ chunk[2] ^ chunk[3],)) for chunk in chunks[len(uid)]]
        self.saks = {4: (0x08,), 7: (0x04, 0x00), 10: (0x04, 0x04, 0x20)}[len(uid)]
        self.atqa = {4: 0x0004, 7: 0x0044, 10: 0x0084}[len(uid)]
        self.boot_us = boot_us
        self.powered_at = None  # when it booted; None while unpowered
        self.antennas = 0  # readers it lies over
        self._fields = 0  # of those, how many have their field on now
        self._dark_since = None  # when the last of those fields went off
        self.state = IDLE
        self.level = 0
        self.from_halt = False  # READY*/ACTIVE* (woken from HALT): errors send it back to HALT
        self.selected = 0  # how often it was selected (for tests)

    def power(self, now):
        """Field after a real power-down (or for the first time): the tag boots IDLE."""
        self.powered_at = now
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def field_on(self, now):
        """One more field reaches the tag: the first after ``RESET_US`` without any boots it afresh."""
        if self._fields == 0 and (self.powered_at is None or self._dark_since is None
                                  or now - self._dark_since >= RESET_US):
            self.power(now)
        self._fields += 1

    def field_off(self, now):
        self._fields -= 1
        if self._fields == 0:
            self._dark_since = now

    @property
    def fielded(self):
        """Some field reaches it now."""
        return self._fields > 0

    def unpower(self):
        self.powered_at = None
        self._fields = 0
        self._dark_since = None
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def ready_at(self, now):
        return self.powered_at is not None and now - self.powered_at >= self.boot_us

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
        """Any unexpected frame: back to IDLE, or to HALT from READY*/ACTIVE*."""
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
