"""Scanning every reader: which tags each holds (debounced) and which readers answer.

A tag counts as placed the first time its reader sees it and as gone after
``misses`` scans in a row without it (docs/protocol.md, Debounce). Each scan
hands the reader the tags it holds, so it confirms them by UID and searches
only for newcomers (docs/sensing.md). A reader with no module behind it
(no MFRC522's version in VersionReg) or an overheated one (TempErr) is failed:
it is skipped, its tags are kept (a failed reader is unknown, not empty) and
it is tried again every ``retry_ms`` (:meth:`mfrc522.MFRC522.recover`). A
reader that answers but lost its set-up (a brown-out) is reported failed the
same way and set up again on the next pass. :meth:`Scanner.why` says which.
"""

import time

from mfrc522 import HEALTHY, NO_ANSWER, WAS_RESET

PLACED = 1
GONE = 0
_STATS_MAX = 32  # tags whose read rate one reader keeps, at most


class Scanner:
    """The readers, the tags each one holds, their health and read statistics."""

    def __init__(self, readers, misses=3, retry_ms=2000):
        self.readers = readers  # MFRC522 drivers, reader i at index i
        self.count = len(readers)
        self._misses = misses
        self._retry_ms = retry_ms
        self._tags = [{} for _ in readers]  # per reader: uid -> scans missed in a row
        self._working = 0  # bit i set while reader i answers
        self._reset = 0  # bit i: reader i may hold a halted tag it no longer knows
        self._why = bytearray(self.count)  # per reader: the health that last failed it (mfrc522 codes)
        self._off_at = None  # when the last antenna went off: a tag across two antennas stays powered
        self._retry_at = [0] * self.count
        self._found = ([], [])  # reused: one reader's finds, and the previous reader's, still to be counted
        self._scans = [0] * self.count  # scans of each reader since reset_stats()
        self._seen = [{} for _ in readers]  # per reader: uid -> scans that found it

    @property
    def working(self):
        """Bitmask of the readers that answer."""
        return self._working

    def why(self, i):
        """Why reader ``i`` last failed: an mfrc522 health code (NO_ANSWER, WAS_RESET, OVERHEATED)."""
        return self._why[i]

    def start(self, now):
        """Set every reader up (after the shared reset); the bitmask of those that answer."""
        self._working = 0
        for i in range(self.count):
            reader = self.readers[i]
            if reader.init():
                self._working |= 1 << i
            else:
                self._failed(i, reader.health(), time.ticks_add(now, self._retry_ms))
        return self._working

    def _failed(self, i, health, retry_at):
        self._working &= ~(1 << i)
        self._why[i] = NO_ANSWER if health == HEALTHY else health  # HEALTHY: init() failed all the same
        self._retry_at[i] = retry_at

    def scan(self, now, on_tag):
        """Scan every reader once; ``on_tag(PLACED or GONE, reader, uid)`` per change.

        Each reader's finds are counted (and its events sent) while the next
        reader's field settles (:meth:`mfrc522.MFRC522.begin`), time the
        standard makes every scan wait anyway.
        Returns True when a reader stopped or started answering.
        """
        before = self._working
        pending = -1  # the reader scanned last, its finds not yet counted
        slot = 0  # which of self._found it used
        for i in range(self.count):
            if self._working >> i & 1:
                if self._scan_reader(i, now, on_tag, pending, slot):
                    pending = i
                    slot ^= 1
                continue
            if time.ticks_diff(now, self._retry_at[i]) >= 0:
                self._retry(i, now)
        if pending >= 0:
            self._tally(pending, self._found[slot ^ 1], on_tag)
        return self._working != before

    def _scan_reader(self, i, now, on_tag, pending, slot):
        """Scan reader ``i`` into ``self._found[slot]``, counting ``pending``'s finds meanwhile; False if it failed."""
        reader = self.readers[i]
        health = reader.health()
        if health != HEALTHY:
            # A reader that reset itself answers: set it up on the next pass.
            self._failed(i, health, now if health == WAS_RESET else time.ticks_add(now, self._retry_ms))
            return False
        found = self._found[slot]
        tags = self._tags[i]
        reader.begin(self._reset >> i & 1, self._off_at)
        if pending >= 0:
            try:
                self._tally(pending, self._found[slot ^ 1], on_tag)
            except Exception:
                reader.abandon()
                raise
        reader.finish(found, tags)
        self._off_at = reader.off_at
        self._reset &= ~(1 << i)
        return True

    def _tally(self, i, found, on_tag):
        """Reader ``i`` found ``found``: the debounce rule, its events, and its statistics."""
        tags = self._tags[i]
        self._count(i, found)
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
            # It may still lie there, halted and now unknown: power the tags down next scan.
            self._reset |= 1 << i
            for uid in gone:
                del tags[uid]
                on_tag(GONE, i, uid)
        found.clear()

    def _retry(self, i, now):
        health = self.readers[i].recover()
        if health == HEALTHY:
            self._working |= 1 << i
        else:
            self._failed(i, health, time.ticks_add(now, self._retry_ms))

    def entries(self):
        """Every (reader, uid) held now, reader by reader: what a SNAPSHOT lists."""
        return [(i, uid) for i in range(self.count) for uid in self._tags[i]]

    # ---- read statistics (the bench survey) ---------------------------------------

    def _count(self, i, found):
        self._scans[i] += 1
        seen = self._seen[i]
        for uid in found:
            if uid in seen:
                seen[uid] += 1
            elif len(seen) < _STATS_MAX:
                seen[uid] = 1

    def stats(self):
        """``{reader: {uid_hex: (seen_scans, total_scans)}}`` since :meth:`reset_stats`.

        ``total_scans`` counts the scans of that reader while it worked;
        ``seen_scans`` those in which the tag answered (before any debounce).
        Readers with no tag seen are left out; at most 32 tags per reader.
        """
        import binascii  # only the survey needs it

        result = {}
        for i in range(self.count):
            if self._seen[i]:
                total = self._scans[i]
                result[i] = {binascii.hexlify(uid).decode(): (n, total) for uid, n in self._seen[i].items()}
        return result

    def reset_stats(self):
        """Start counting afresh, every reader."""
        for i in range(self.count):
            self._scans[i] = 0
            self._seen[i] = {}
