"""The firmware's codec (firmware/frames.py) on MicroPython, against the spec's vectors and the host codec."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hardware import protocol
from mpy_runner import MicroPython, MicroPythonError

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "docs" / "protocol-vectors.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def codec() -> Iterator[MicroPython]:
    with MicroPython() as mp:
        mp.run("import fw_codec, frames")
        yield mp


def on_mp(mp: MicroPython, call: str, *args: Any) -> Any:
    """``call(*args)`` on MicroPython, the arguments passed as JSON."""
    return mp.eval(f"{call}(*json.loads({json.dumps(json.dumps(args))}))", "import json")


def test_the_vectors_are_there() -> None:
    assert VECTORS["protocol"] == "1.0"
    assert len(VECTORS["frames"]) >= 20 and len(VECTORS["streams"]) >= 5


def test_every_vector_frame_encodes_to_its_hex(codec: MicroPython) -> None:
    messages = [frame["message"] for frame in VECTORS["frames"]]
    got = on_mp(codec, "(lambda ms: [fw_codec.encode(m) for m in ms])", messages)
    for frame, hex_frame in zip(VECTORS["frames"], got, strict=True):
        assert hex_frame == frame["hex"], frame["name"]


def test_every_vector_frame_decodes_to_its_message(codec: MicroPython) -> None:
    got = on_mp(codec, "(lambda hs: [fw_codec.decode(h) for h in hs])", [f["hex"] for f in VECTORS["frames"]])
    for frame, messages in zip(VECTORS["frames"], got, strict=True):
        assert messages == [frame["message"]], frame["name"]


@pytest.mark.parametrize("stream", VECTORS["streams"], ids=[s["name"] for s in VECTORS["streams"]])
def test_every_vector_stream_decodes_to_its_messages(codec: MicroPython, stream: dict[str, Any]) -> None:
    assert on_mp(codec, "fw_codec.decode", stream["hex"]) == stream["messages"]
    one_byte_at_a_time = [1] * (len(stream["hex"]) // 2)
    assert on_mp(codec, "fw_codec.decode", stream["hex"], one_byte_at_a_time) == stream["messages"]


def test_the_crc_check_value(codec: MicroPython) -> None:
    assert codec.eval("frames.crc16(b'123456789')") == 0x29B1
    assert codec.eval("frames.crc16(b'xx123456789y', 2, 11)") == 0x29B1


def random_frame(rng: random.Random) -> bytes:
    """A host- or board-side frame, well formed or (sometimes) with a payload that does not fit."""
    kind = rng.choice([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x40])
    payload = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 2, 4, 5, 8, 11, 20])))
    body = bytes([len(payload), kind, rng.randrange(256)]) + payload
    return b"\xa5" + body + protocol.crc16(body).to_bytes(2, "big")


def random_stream(rng: random.Random) -> bytes:
    stream = b""
    for _ in range(rng.randrange(1, 8)):
        frame = random_frame(rng)
        roll = rng.random()
        if roll < 0.15:
            frame = frame[: rng.randrange(1, len(frame))]  # cut short
        elif roll < 0.3:
            at = rng.randrange(len(frame))
            frame = frame[:at] + bytes([frame[at] ^ 0x10]) + frame[at + 1 :]  # one bit flipped
        garbage = bytes(rng.choice([0xA5, 0x00, 0xF0, 0x05, rng.randrange(256)]) for _ in range(rng.randrange(4)))
        stream += garbage + frame
    return stream


def chunked(rng: random.Random, size: int) -> list[int]:
    chunks = []
    while size > 0:
        chunks.append(min(size, rng.randrange(1, 12)))
        size -= chunks[-1]
    return chunks


def host_decode(stream: bytes, chunks: list[int]) -> list[dict[str, Any]]:
    parser = protocol.Parser()
    found: list[protocol.Message] = []
    at = 0
    for size in chunks:
        found += parser.feed(stream[at : at + size])
        at += size
    return [protocol.as_dict(message) for message in found]


def test_the_parser_finds_what_the_host_parser_finds_in_random_streams(codec: MicroPython) -> None:
    rng = random.Random(1027)
    cases = []
    for _ in range(150):
        stream = random_stream(rng)
        cases.append((stream.hex(), chunked(rng, len(stream))))
    got = on_mp(codec, "(lambda cases: [fw_codec.decode(h, c) for h, c in cases])", cases)
    expected = [host_decode(bytes.fromhex(h), c) for h, c in cases]
    assert sum(len(e) for e in expected) > 100  # the streams do hold frames
    assert got == expected


def host_accepts(kind: int, payload: bytes) -> bool:
    try:
        protocol.decode(kind, 0, payload)
    except protocol.Malformed:
        return False
    return True


def test_payload_checks_agree_with_the_host_decoder(codec: MicroPython) -> None:
    rng = random.Random(7)
    cases = []
    for kind in [*range(1, 8), *range(0x81, 0x87), 0x40, 0xC0]:
        cases += [(kind, "")] + [(kind, bytes(rng.randrange(256) for _ in range(n)).hex()) for n in range(13)]
        cases += [(kind, bytes(rng.choice([0, 1, 2, 4, 7, 10]) for _ in range(n)).hex()) for n in range(13)]
    cases += [(0x05, "0001030404a21b3c"), (0x05, "000103040404a21b"), (0x06, "0901ff"), (0x06, "0a0103"),
              (0x01, "01000100000b010f"), (0x01, "01000100000b0108")]
    got = on_mp(codec, "(lambda cases: [frames.fits(k, fw_codec.uid_bytes(p)) for k, p in cases])", cases)
    expected = [host_accepts(kind, bytes.fromhex(payload)) for kind, payload in cases]
    assert got == expected
    assert 20 < sum(expected) < len(expected) - 20


def test_a_snapshot_splits_into_parts_of_at_most_240_bytes(codec: MicroPython) -> None:
    tags = [[i % 16, f"04:{i:02X}:1B:3C:5D:6E:80"] for i in range(60)] + [[3, "04:A2:1B:3C"]]
    parts = on_mp(codec, "(lambda tags: [fw_codec.hexlify(p) for p in frames.snapshot_payloads("
                  "[(r, fw_codec.uid_bytes(u)) for r, u in tags])])", tags)
    payloads = [bytes.fromhex(p) for p in parts]
    assert [p[:2] for p in payloads] == [bytes([i, len(payloads)]) for i in range(len(payloads))]
    assert all(len(p) <= 240 for p in payloads) and len(payloads) == 3
    decoded = [protocol.decode(0x05, 0, p) for p in payloads]
    assert [[r, protocol.format_uid(u)] for d in decoded for r, u in d.tags] == tags  # type: ignore[union-attr]


def test_26_seven_byte_tags_fit_one_part_and_27_do_not(codec: MicroPython) -> None:
    count = "len(frames.snapshot_payloads([(1, b'1234567')] * {}))"
    assert codec.eval(count.format(26)) == 1
    assert codec.eval(count.format(27)) == 2
    assert codec.eval("[fw_codec.hexlify(p) for p in frames.snapshot_payloads([])]") == ["0001"]


def test_a_long_log_text_is_cut_to_one_frame_on_a_character_boundary(codec: MicroPython) -> None:
    payload = bytes.fromhex(codec.eval("fw_codec.hexlify(frames.log_payload(2, 'x' + '\u2013' * 100))"))
    assert len(payload) <= 240 and payload[0] == 2
    assert payload[1:].decode("utf-8") == "x" + "\u2013" * 79


def test_a_payload_over_240_bytes_is_refused(codec: MicroPython) -> None:
    assert codec.eval("len(frames.encode(5, 0, bytes(240)))") == 246
    with pytest.raises(MicroPythonError, match="ValueError"):
        codec.eval("frames.encode(5, 0, bytes(241))")


def interrupted(mp: MicroPython, data: bytes) -> bool:
    mp.run(f"parser = frames.Parser()\nparser.feed({data!r})")
    return bool(mp.eval("parser.interrupted"))


def test_ctrl_c_twice_outside_frames_asks_to_stop(codec: MicroPython) -> None:
    assert interrupted(codec, b"\r\x03\x03")  # what mpremote sends
    assert not interrupted(codec, b"\r\x03")
    assert not interrupted(codec, b"\x03x\x03")
    # Inside a good frame two 0x03 bytes are only data.
    frame = protocol.encode(protocol.Led("on", (3, 3, 3), (3,), seq=3))
    assert b"\x03\x03" in frame and not interrupted(codec, frame)
