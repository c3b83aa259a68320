"""Test-only: the firmware's codec (firmware/frames.py) seen through the vectors' JSON form.

docs/protocol-vectors.json writes each message as ``hardware.protocol.as_dict``
does (``{"type": "TAG_ON", "seq": 7, "reader": 3, "uid": "04:A2:1B:3C"}``).
The firmware has no message objects, so this module turns its raw
(type, seq, payload) frames into that form and back, building board -> host
payloads with the firmware's own payload functions.
"""

import binascii

import frames

NAMES = {
    frames.HELLO: "HELLO", frames.HEARTBEAT: "HEARTBEAT", frames.TAG_ON: "TAG_ON", frames.TAG_OFF: "TAG_OFF",
    frames.SNAPSHOT: "SNAPSHOT", frames.READERS: "READERS", frames.LOG: "LOG",
    frames.HELLO_REQUEST: "HELLO_REQUEST", frames.WELCOME: "WELCOME", frames.HOST_HEARTBEAT: "HOST_HEARTBEAT",
    frames.SNAPSHOT_REQUEST: "SNAPSHOT_REQUEST", frames.LED: "LED", frames.BUZZER: "BUZZER",
    frames.STATS: "STATS", frames.STATS_REQUEST: "STATS_REQUEST",
}
CODES = {name: code for code, name in NAMES.items()}
LEVELS = ("debug", "info", "warning", "error")
MODES = ("off", "on", "blink")


def uid_text(uid):
    return ":".join("%02X" % byte for byte in uid)


def uid_bytes(text):
    return binascii.unhexlify(text.replace(":", ""))


def hexlify(data):
    return binascii.hexlify(data).decode()


def _working(count, data, start):
    return [i for i in range(count) if data[start + (i >> 3)] >> (i & 7) & 1]


def _mask(working):
    mask = 0
    for reader in working:
        mask |= 1 << reader
    return mask


def _tags(data):
    tags = []
    at = 0
    while at < len(data):
        size = data[at + 1]
        tags.append([data[at], uid_text(data[at + 2 : at + 2 + size])])
        at += 2 + size
    return tags


def _counts(data):
    counts = []
    at = 0
    while at < len(data):
        end = at + 2 + data[at + 1]
        counts.append([data[at], uid_text(data[at + 2 : end]), _u32(data, end), _u32(data, end + 4)])
        at = end + 8
    return counts


def _u32(data, at):
    return data[at] << 24 | data[at + 1] << 16 | data[at + 2] << 8 | data[at + 3]


def _hello_fields(payload):
    fields = {"protocol": [payload[0], payload[1]], "firmware": [payload[2], payload[3], payload[4]],
              "readers": payload[5], "working": _working(payload[5], payload, 6)}
    at = 6 + (payload[5] + 7) // 8
    if at < len(payload):
        fields["board_id"] = hexlify(payload[at + 1 : at + 1 + payload[at]])
    return fields


def as_dict(kind, seq, payload):
    """A frame's fields as the vectors write its message."""
    name = NAMES.get(kind)
    if name is None:
        return {"type": "0x%02X" % kind, "seq": seq, "payload": hexlify(payload)}
    fields = {"type": name, "seq": seq}
    if kind == frames.HELLO:
        fields.update(_hello_fields(payload))
    elif kind == frames.STATS:
        fields.update(part=payload[0], parts=payload[1], counts=_counts(payload[2:]))
    elif kind == frames.STATS_REQUEST:
        fields.update(restart=bool(payload[0] & frames.STATS_RESTART))
    elif kind == frames.READERS:
        fields.update(readers=payload[0], working=_working(payload[0], payload, 1))
    elif kind in (frames.TAG_ON, frames.TAG_OFF):
        fields.update(reader=payload[0], uid=uid_text(payload[1:]))
    elif kind == frames.SNAPSHOT:
        fields.update(part=payload[0], parts=payload[1], tags=_tags(payload[2:]))
    elif kind == frames.LOG:
        fields.update(level=LEVELS[payload[0]], text=str(payload[1:], "utf-8"))
    elif kind in (frames.HELLO_REQUEST, frames.WELCOME):
        fields.update(protocol=[payload[0], payload[1]])
    elif kind == frames.LED:
        fields.update(mode=MODES[payload[0]], colour=[payload[1], payload[2], payload[3]], leds=list(payload[4:]))
    elif kind == frames.BUZZER:
        fields.update(frequency=payload[0] << 8 | payload[1], duration_ms=payload[2] << 8 | payload[3])
    return fields


def payload_of(fields):
    """(type, payload) for a message in the vectors' form."""
    name = fields["type"]
    if name not in CODES:
        return int(name, 16), binascii.unhexlify(fields["payload"])
    kind = CODES[name]
    if kind == frames.HELLO:
        payload = frames.hello_payload(fields["protocol"], fields["firmware"], fields["readers"],
                                       _mask(fields["working"]), binascii.unhexlify(fields.get("board_id", "")))
        # A 1.0 board's HELLO ends at the bitmap: this firmware no longer sends one, so drop the id's length.
        return kind, payload if "board_id" in fields else payload[:-1]
    if kind == frames.STATS:
        stats = {}
        for reader, uid, seen, scans in fields["counts"]:
            stats.setdefault(reader, {})[uid.replace(":", "").lower()] = (seen, scans)
        (one,) = frames.stats_payloads(stats)  # the vectors' parts are small
        return kind, bytes((fields["part"], fields["parts"])) + one[2:]
    if kind == frames.READERS:
        return kind, frames.readers_payload(fields["readers"], _mask(fields["working"]))
    if kind in (frames.TAG_ON, frames.TAG_OFF):
        return kind, frames.tag_payload(fields["reader"], uid_bytes(fields["uid"]))
    if kind == frames.SNAPSHOT:
        entries = [(reader, uid_bytes(uid)) for reader, uid in fields["tags"]]
        (one,) = frames.snapshot_payloads(entries)  # the vectors' parts are small
        return kind, bytes((fields["part"], fields["parts"])) + one[2:]
    if kind == frames.LOG:
        return kind, frames.log_payload(LEVELS.index(fields["level"]), fields["text"])
    # Host -> board types: the firmware only reads these, so build them here.
    if kind in (frames.HELLO_REQUEST, frames.WELCOME):
        return kind, bytes(fields["protocol"])
    if kind == frames.LED:
        return kind, bytes([MODES.index(fields["mode"])] + fields["colour"] + fields["leds"])
    if kind == frames.STATS_REQUEST:
        return kind, bytes((frames.STATS_RESTART if fields["restart"] else 0,))
    if kind == frames.BUZZER:
        frequency, duration = fields["frequency"], fields["duration_ms"]
        return kind, bytes((frequency >> 8, frequency & 0xFF, duration >> 8, duration & 0xFF))
    return kind, b""


def encode(fields):
    """The frame for a message in the vectors' form, as hex."""
    kind, payload = payload_of(fields)
    return hexlify(frames.encode(kind, fields["seq"], payload))


def decode(hex_stream, chunks=None):
    """Every message the firmware's parser finds in a stream, fed in ``chunks`` (sizes) if given."""
    data = binascii.unhexlify(hex_stream)
    parser = frames.Parser()
    found = []
    at = 0
    for size in chunks or [len(data)]:
        found.extend(parser.feed(data[at : at + size]))
        at += size
    found.extend(parser.feed(data[at:]))
    return [as_dict(kind, seq, payload) for kind, seq, payload in found]
