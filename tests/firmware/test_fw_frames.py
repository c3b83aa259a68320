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
    assert VECTORS["protocol"] == "1.1"
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
    for kind in [*range(1, 9), *range(0x81, 0x88), 0x40, 0xC0]:
        cases += [(kind, "")] + [(kind, bytes(rng.randrange(256) for _ in range(n)).hex()) for n in range(13)]
        cases += [(kind, bytes(rng.choice([0, 1, 2, 4, 7, 10]) for _ in range(n)).hex()) for n in range(13)]
    cases += [(0x05, "0001030404a21b3c"), (0x05, "000103040404a21b"), (0x06, "0901ff"), (0x06, "0a0103"),
              (0x01, "01000100000b010f"), (0x01, "01000100000b0108"),
              (0x01, "01010100000b0102aabb"), (0x01, "01010100000b0103aabb"), (0x01, "01010100000b0100"),
              (0x08, "000100040102030400000001000000ff"), (0x08, "000100040102030400000001000000")]
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


def interrupted(mp: MicroPython, *chunks: bytes) -> bool:
    mp.run("parser = frames.Parser()")
    for chunk in chunks:
        mp.run(f"parser.feed({chunk!r})")
    return bool(mp.eval("parser.interrupted"))


def test_what_mpremote_and_a_person_send_stops_the_firmware(codec: MicroPython) -> None:
    assert interrupted(codec, b"\r\x03")  # mpremote's enter_raw_repl (1.20 on): CR, Ctrl-C, then CR, Ctrl-A
    assert interrupted(codec, b"\r\x03\x03")  # older pyboard.py
    assert interrupted(codec, b"\x03", b"\x03")  # Ctrl-C twice at `mpremote repl`, one key at a time
    heartbeat = protocol.encode(protocol.HostHeartbeat(seq=5))
    assert interrupted(codec, heartbeat + b"\r\x03")  # right after a frame
    assert not interrupted(codec, b"\x03")
    assert not interrupted(codec, b"\x03x\x03")
    assert not interrupted(codec, b"x\x03")


def test_a_ctrl_c_inside_a_frame_never_stops_the_firmware(codec: MicroPython) -> None:
    # LEN says where a frame ends, so whatever it holds is data: here CR, Ctrl-C pairs in the payload.
    frame = protocol.encode(protocol.Led("on", (13, 3, 3), (13, 3), seq=13))
    assert b"\r\x03" in frame and b"\x03\x03" in frame
    assert not interrupted(codec, frame)
    assert not interrupted(codec, *(frame[i : i + 1] for i in range(len(frame))))  # a byte at a time
    # A frame that fails its CRC, or one cut short by a valid frame after it: its bytes are still not read.
    damaged = frame[:-1] + bytes([frame[-1] ^ 1])
    assert not interrupted(codec, damaged + protocol.encode(protocol.HostHeartbeat(seq=14)))
    assert not interrupted(codec, frame[:-3] + protocol.encode(protocol.HostHeartbeat(seq=14)))


def test_noise_without_the_sequence_never_stops_the_firmware(codec: MicroPython) -> None:
    rng = random.Random(20)
    noise = bytes(rng.choice(b"\x00\x01\x03\xa5\x05\x0d\xffAT\n") for _ in range(4000))
    noise = noise.replace(b"\r\x03", b"\r").replace(b"\x03\x03", b"\x03")  # the stop sequence itself aside
    while b"\r\x03" in noise or b"\x03\x03" in noise:
        noise = noise.replace(b"\r\x03", b"\r").replace(b"\x03\x03", b"\x03")
    assert noise.count(b"\x03") > 100
    assert not interrupted(codec, *(noise[i : i + 37] for i in range(0, len(noise), 37)))


def test_a_half_frame_given_up_lets_a_later_stop_through(codec: MicroPython) -> None:
    frame = protocol.encode(protocol.Led("on", (1, 2, 3), (4,), seq=1))
    codec.run(f"parser = frames.Parser()\nparser.feed({frame[:5]!r} + b'\\r\\x03')")
    assert codec.eval("[parser.interrupted, parser.pending]") == [False, 7]  # still waiting for the frame
    assert codec.eval("[parser.expire(), parser.interrupted, parser.pending]") == [[], True, 0]


def test_stats_payloads_split_at_240_bytes(codec: MicroPython) -> None:
    stats = {r: {f"04{r:02x}{t:02x}3c5d6e80": (t, 100) for t in range(4)} for r in range(6)}
    got = on_mp(codec, "(lambda s: [fw_codec.hexlify(p) for p in frames.stats_payloads("
                "{int(r): {u: tuple(v) for u, v in t.items()} for r, t in s.items()})])", stats)
    parts = [protocol.decode(0x08, 0, bytes.fromhex(p)) for p in got]
    assert [(p.part, p.parts) for p in parts] == [(0, 2), (1, 2)]  # type: ignore[union-attr]
    counts = [c for p in parts for c in p.counts]  # type: ignore[union-attr]
    assert len(counts) == 24 and counts[5] == (1, bytes.fromhex("0401013c5d6e80"), 1, 100)
    assert all(len(bytes.fromhex(p)) <= 240 for p in got)
