"""Regenerate docs/protocol-vectors.json from hardware.protocol.

Run after a deliberate protocol change only; the firmware tests check the
same file, so a change here must be matched in firmware/frames.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.protocol import (  # noqa: E402
    PROTOCOL, Buzzer, Heartbeat, Hello, HelloRequest, HostHeartbeat, Led, Log, Message, Readers, Snapshot,
    SnapshotRequest, Stats, StatsRequest, TagOff, TagOn, Unknown, Welcome, as_dict, crc16, encode,
)

UID4 = bytes.fromhex("04A21B3C")
UID7 = bytes.fromhex("04A21B3C5D6E80")
UID10 = bytes.fromhex("0411223344556677889A")
PICO_ID = bytes.fromhex("E66138104B2A252D")  # machine.unique_id() on an RP2040: 8 bytes

FRAMES: list[tuple[str, Message]] = [
    ("HELLO: protocol 1.1, firmware 1.2.3, 20 readers, reader 7 and 19 failed, board id",
     Hello((1, 1), (1, 2, 3), 20, frozenset(range(20)) - {7, 19}, seq=0, board_id=PICO_ID)),
    ("HELLO: 1 reader, working, board id", Hello((1, 1), (1, 1, 0), 1, frozenset({0}), seq=1, board_id=PICO_ID)),
    ("HELLO: a protocol 1.0 board (no board id; accepted)", Hello((1, 0), (1, 0, 0), 1, frozenset({0}), seq=1)),
    ("HELLO: a board speaking protocol 2.0 (the host refuses it)",
     Hello((2, 0), (2, 0, 0), 8, frozenset(range(8)), seq=0)),
    ("HEARTBEAT from the board", Heartbeat(seq=42)),
    ("TAG_ON: reader 3 sees a 4-byte UID", TagOn(3, UID4, seq=7)),
    ("TAG_ON: reader 17 sees a 7-byte UID (NTAG21x)", TagOn(17, UID7, seq=255)),
    ("TAG_ON: a 10-byte UID", TagOn(0, UID10, seq=0)),
    ("TAG_OFF: reader 3 lost the 4-byte UID", TagOff(3, UID4, seq=8)),
    ("SNAPSHOT: empty board, one part", Snapshot(0, 1, (), seq=9)),
    ("SNAPSHOT: three tags, one part", Snapshot(0, 1, ((3, UID4), (5, UID7), (5, UID10)), seq=10)),
    ("SNAPSHOT: part 2 of 3", Snapshot(1, 3, ((12, UID7),), seq=11)),
    ("READERS: reader 7 stopped answering", Readers(20, frozenset(range(20)) - {7}, seq=12)),
    ("LOG: info text", Log("info", "scan 18 ms", seq=13)),
    ("LOG: error text with a non-ASCII character", Log("error", "reader 7: no answer (0x00) \u2013 check CS", seq=14)),
    ("HELLO_REQUEST from the host, protocol 1.0", HelloRequest((1, 0), seq=0)),
    ("WELCOME: the host accepts protocol 1.0", Welcome((1, 0), seq=1)),
    ("HOST_HEARTBEAT", HostHeartbeat(seq=2)),
    ("SNAPSHOT_REQUEST", SnapshotRequest(seq=3)),
    ("LED: blink LEDs 4, 9 and 11 green", Led("blink", (0, 255, 0), (4, 9, 11), seq=4)),
    ("LED: every LED off", Led("off", (0, 0, 0), (), seq=5)),
    ("BUZZER: 880 Hz for 200 ms", Buzzer(880, 200, seq=6)),
    ("BUZZER: silence", Buzzer(0, 0, seq=7)),
    ("STATS: reader 0 saw a tag in 18 of 20 scans, reader 2 a 7-byte UID in 5 of 20",
     Stats(0, 1, ((0, UID4, 18, 20), (2, UID7, 5, 20)), seq=15)),
    ("STATS: no counts, one part", Stats(0, 1, (), seq=16)),
    ("STATS_REQUEST: send the counts and start counting afresh", StatsRequest(True, seq=8)),
    ("STATS_REQUEST: send the counts", StatsRequest(False, seq=9)),
    ("an unknown type 0x40 (a newer minor version): kept as raw bytes", Unknown(0x40, b"\x01\x02", seq=3)),
]


def main() -> None:
    frames = [{"name": name, "hex": encode(msg).hex(), "message": as_dict(msg)} for name, msg in FRAMES]
    by_name = {name: encode(msg) for name, msg in FRAMES}
    tag_on = by_name["TAG_ON: reader 3 sees a 4-byte UID"]
    tag_off = by_name["TAG_OFF: reader 3 lost the 4-byte UID"]
    heartbeat = by_name["HEARTBEAT from the board"]
    bad_crc = tag_on[:-1] + bytes([tag_on[-1] ^ 0x01])
    # A valid CRC over a payload its type forbids (a 5-byte UID).
    body = bytes([6, 0x03, 0x09, 3]) + b"\x01\x02\x03\x04\x05"
    malformed = bytes([0xA5]) + body + crc16(body).to_bytes(2, "big")
    streams = [
        ("garbage before a frame", b"\x00\x13\x37hello" + tag_on, [tag_on]),
        ("a false start inside garbage spans the next frames; both are still found",
         b"\xa5\x10\x03" + tag_on + tag_off, [tag_on, tag_off]),
        ("a false start with a long length is given up as soon as a valid frame follows",
         b"\xa5\xf0\x03" + tag_on, [tag_on]),
        ("a length over 240 is a false start", b"\xa5\xf5" + tag_on, [tag_on]),
        ("a frame with a corrupted CRC is dropped, the next is kept", bad_crc + tag_off, [tag_off]),
        ("a well-formed frame with a bad payload is dropped", malformed + heartbeat, [heartbeat]),
        ("back-to-back frames", tag_on + heartbeat + tag_off, [tag_on, heartbeat, tag_off]),
        ("a truncated frame then a whole one", tag_on[:6] + tag_off, [tag_off]),
    ]
    from hardware.protocol import Parser
    out_streams = []
    for name, data, expected in streams:
        decoded = Parser().feed(data)
        assert [encode(m) for m in decoded] == expected, name
        out_streams.append({"name": name, "hex": data.hex(), "messages": [as_dict(m) for m in decoded]})
    doc = {
        "protocol": f"{PROTOCOL[0]}.{PROTOCOL[1]}",
        "crc": {"name": "CRC-16/CCITT-FALSE", "poly": "0x1021", "init": "0xFFFF", "check": "0x29B1",
                "over": "LEN TYPE SEQ PAYLOAD"},
        "frames": frames,
        "streams": out_streams,
    }
    path = Path(__file__).resolve().parents[1] / "docs" / "protocol-vectors.json"
    path.write_text(_dump(doc), encoding="utf-8")


def _dump(doc: dict[str, object]) -> str:
    """Indented at the top, one line per vector, so a diff shows which changed."""
    lines = ["{"]
    items = list(doc.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, list):
            inner = ",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value)
            lines.append(f" {json.dumps(key)}: [\n{inner}\n ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    return "\n".join(lines) + "\n}\n"


if __name__ == "__main__":
    main()
