"""Test-only: one crowded antenna, tags coming and going at random, checked against the field's truth.

:class:`Room` is the real driver and the real scanner on one fake reader
(fw_bench.Bench). :meth:`Room.churn` lays down and lifts tags at random
(seeded), scans after every change, and records every report that the
field's ground truth and the debounce rule (docs/protocol.md: placed on the
first scan that sees it, gone after ``misses`` scans without it) do not
explain. It all runs on the MicroPython side: thousands of scans, no round
trips.
"""

import binascii

import fw_bench
from scanner import GONE, PLACED, Scanner


class Rng:
    """xorshift32: the same numbers on every MicroPython build (its random module is optional)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF or 1

    def next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        return self.next() % n


def _hex(uid):
    return binascii.hexlify(uid).decode()


class Room:
    """One reader, its scanner, and what lies on its antenna."""

    def __init__(self, seed=1, misses=3):
        self.bench = fw_bench.Bench(1)
        self.chip = self.bench.chips[0]
        self.clock = self.bench.clock
        self.scanner = Scanner(self.bench.drivers, misses, 2000)
        self.scanner.start(0)
        self.misses = misses
        self.rng = Rng(seed)
        self.present = {}  # uid hex -> scans since it was laid down
        self.lifted = {}  # uid hex -> scans since it was lifted, until reported gone
        self.reported = set()  # what the scanner says lies there
        self.wrong = []  # every report the truth does not explain
        self.scans = 0
        self.most_seen = 0  # the most tags that lay on the antenna at once
        self.used = set()

    # ---- the physical world ------------------------------------------------------

    def new_uid(self):
        """A fresh UID: 4 bytes (MIFARE Classic) or 7 (NTAG213, 0x04 first), some sharing a first level."""
        rng = self.rng
        while True:
            kind = rng.below(3)
            if kind == 0:
                uid = bytes(rng.below(256) for _ in range(4))
                if uid[0] == 0x88:
                    continue  # the cascade tag is never a UID's first byte (ISO 14443-3 6.5.4)
            elif kind == 1:
                uid = bytes([0x04] + [rng.below(256) for _ in range(6)])
            else:  # same manufacturer and first bytes: they collide only at cascade level 2
                uid = bytes([0x04, 0x11, 0x22] + [rng.below(256) for _ in range(4)])
            text = _hex(uid)
            if text not in self.used:
                self.used.add(text)
                return text

    def lay(self, text):
        self.bench.place(text)
        self.present[text] = 0
        self.most_seen = max(self.most_seen, len(self.present))
        self.lifted.pop(text, None)

    def lift(self, text):
        self.bench.remove(text)
        del self.present[text]
        self.lifted[text] = 0

    # ---- scanning --------------------------------------------------------------------

    def scan(self):
        self.scans += 1
        self.scanner.scan(self.scans * 10, self._report)
        for text in self.present:
            self.present[text] += 1
            if text not in self.reported:
                self.wrong.append(("not reported after a scan", text, self.scans))
        for text in list(self.lifted):
            self.lifted[text] += 1
            if self.lifted[text] > self.misses:
                self.lifted.pop(text)
                if text in self.reported:
                    self.wrong.append(("still reported", text, self.scans))

    def _report(self, change, reader, uid):
        text = _hex(uid)
        if change == PLACED:
            if text not in self.present or text in self.reported:
                self.wrong.append(("placed", text, self.scans))
            self.reported.add(text)
        elif change == GONE:
            lifted = self.lifted.get(text)
            if lifted is None or lifted + 1 != self.misses:
                self.wrong.append(("gone", text, self.scans, lifted))
            self.reported.discard(text)

    def churn(self, events=100, most=12):
        """``events`` random arrivals and departures, one to three between scans; the wrong reports.

        The room fills up to ``most`` tags first and then stays between
        ``most - 3`` and ``most``.
        """
        rng = self.rng
        done = 0
        while done < events:
            for _ in range(1 + rng.below(3)):
                count = len(self.present)
                if count >= most or (count > most - 3 and rng.below(2)):
                    names = sorted(self.present)
                    self.lift(names[rng.below(len(names))])
                else:
                    self.lay(self.new_uid())
                done += 1
            if rng.below(2):
                self.clock.advance(20_000)  # the other readers' turn: long enough to power the tags down
            for _ in range(self.misses):
                self.scan()
        return self.wrong
