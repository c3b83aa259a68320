"""Scanning every reader: which tags each holds (debounced) and which readers answer.

A tag counts as placed the first time its reader sees it and as gone after
``misses`` scans in a row without it (docs/protocol.md, Debounce). A reader
whose version register reads 0x00 or 0xFF is failed: it is skipped, its tags
are kept (a failed reader is unknown, not empty) and it is tried again every
``retry_ms``, set up afresh when it answers.
"""

import time

PLACED = 1
GONE = 0


class Scanner:
    """The readers, the tags each one holds, and their health."""

    def __init__(self, readers, misses=3, retry_ms=2000):
        self.readers = readers  # MFRC522 drivers, reader i at index i
        self.count = len(readers)
        self._misses = misses
        self._retry_ms = retry_ms
        self._tags = [{} for _ in readers]  # per reader: uid -> scans missed in a row
        self._working = 0  # bit i set while reader i answers
        self._retry_at = [0] * self.count
        self._found = []  # reused by every scan

    @property
    def working(self):
        """Bitmask of the readers that answer."""
        return self._working

    def start(self, now):
        """Set every reader up (after the shared reset); the bitmask of those that answer."""
        self._working = 0
        for i in range(self.count):
            if self.readers[i].init():
                self._working |= 1 << i
            else:
                self._retry_at[i] = time.ticks_add(now, self._retry_ms)
        return self._working

    def scan(self, now, on_tag):
        """Scan every reader once; ``on_tag(PLACED or GONE, reader, uid)`` per change.

        Returns True when a reader stopped or started answering.
        """
        before = self._working
        for i in range(self.count):
            if self._working >> i & 1:
                self._scan_reader(i, now, on_tag)
            elif time.ticks_diff(now, self._retry_at[i]) >= 0:
                self._retry(i, now)
        return self._working != before

    def _scan_reader(self, i, now, on_tag):
        reader = self.readers[i]
        if not reader.alive():
            self._working &= ~(1 << i)
            self._retry_at[i] = time.ticks_add(now, self._retry_ms)
            return
        found = self._found
        reader.scan(found)
        tags = self._tags[i]
        for uid in found:
            if uid not in tags:
                on_tag(PLACED, i, uid)
            tags[uid] = 0
        gone = None
        for uid in tags:
            if uid not in found:
                tags[uid] += 1
                if tags[uid] >= self._misses:
                    gone = gone or []
                    gone.append(uid)
        if gone:
            for uid in gone:
                del tags[uid]
                on_tag(GONE, i, uid)
        found.clear()

    def _retry(self, i, now):
        if self.readers[i].init():
            self._working |= 1 << i
        else:
            self._retry_at[i] = time.ticks_add(now, self._retry_ms)

    def entries(self):
        """Every (reader, uid) held now, reader by reader: what a SNAPSHOT lists."""
        return [(i, uid) for i in range(self.count) for uid in self._tags[i]]
