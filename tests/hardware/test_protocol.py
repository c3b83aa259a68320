"""The wire codec (hardware/protocol.py) against docs/protocol.md and its test vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.protocol import (
    MAX_PAYLOAD, TYPE_CODES, Buzzer, Heartbeat, Hello, HelloRequest, HostHeartbeat, Led, Log, Message, Parser,
    Readers, Snapshot, SnapshotRequest, TagOff, TagOn, Unknown, Welcome, as_dict, crc16, encode, from_dict,
)

VECTORS = json.loads((Path(__file__).parents[2] / "docs" / "protocol-vectors.json").read_text())
FRAMES = VECTORS["frames"]
STREAMS = VECTORS["streams"]
# Every vector as (name, bytes, the messages they decode to).
EVERY_VECTOR = [(f["name"], f["hex"], [f["message"]]) for f in FRAMES] + [
    (s["name"], s["hex"], s["messages"]) for s in STREAMS
]

MUSTARD = bytes.fromhex("04a21b3c")


def fuzz(examples: int) -> Any:
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def decode_in_chunks(data: bytes, cuts: list[int]) -> list[Message]:
    """Feed ``data`` to one parser, cut at the given positions."""
    parser = Parser()
    messages: list[Message] = []
    at = 0
    for cut in sorted(cuts) + [len(data)]:
        messages += parser.feed(data[at:cut])
        at = cut
    return messages


# ---- the test vectors ------------------------------------------------------------------


def test_the_crc_check_value_is_0x29b1():
    assert crc16(b"123456789") == 0x29B1
    assert VECTORS["crc"]["check"] == "0x29B1"


@pytest.mark.parametrize("vector", FRAMES, ids=[f["name"] for f in FRAMES])
def test_each_vector_frame_encodes_to_its_bytes(vector):
    assert encode(from_dict(vector["message"])).hex() == vector["hex"]


@pytest.mark.parametrize("vector", FRAMES, ids=[f["name"] for f in FRAMES])
def test_each_vector_frame_decodes_to_its_message(vector):
    assert Parser().feed(bytes.fromhex(vector["hex"])) == [from_dict(vector["message"])]


@pytest.mark.parametrize("vector", FRAMES, ids=[f["name"] for f in FRAMES])
def test_each_vector_message_survives_the_json_round_trip(vector):
    message = from_dict(vector["message"])
    assert as_dict(message) == vector["message"]
    assert from_dict(as_dict(message)) == message


@pytest.mark.parametrize("stream", STREAMS, ids=[s["name"] for s in STREAMS])
def test_each_vector_stream_decodes_to_its_messages(stream):
    decoded = Parser().feed(bytes.fromhex(stream["hex"]))
    assert [as_dict(m) for m in decoded] == stream["messages"]


@pytest.mark.parametrize(("name", "hex_", "messages"), EVERY_VECTOR, ids=[v[0] for v in EVERY_VECTOR])
def test_each_vector_decodes_the_same_fed_one_byte_at_a_time(name, hex_, messages):
    data = bytes.fromhex(hex_)
    assert decode_in_chunks(data, list(range(1, len(data)))) == [from_dict(m) for m in messages]


@pytest.mark.parametrize(("name", "hex_", "messages"), EVERY_VECTOR, ids=[v[0] for v in EVERY_VECTOR])
def test_each_vector_decodes_the_same_split_at_any_position(name, hex_, messages):
    data = bytes.fromhex(hex_)
    for cut in range(len(data) + 1):
        assert decode_in_chunks(data, [cut]) == [from_dict(m) for m in messages], f"split at {cut}"


def test_the_parser_holds_back_only_an_unfinished_frame():
    frame = encode(TagOn(3, MUSTARD, seq=7))
    parser = Parser()
    assert parser.feed(b"noise" + frame[:4]) == []
    assert parser.pending == 4
    assert parser.feed(frame[4:]) == [TagOn(3, MUSTARD, seq=7)]
    assert parser.pending == 0


# ---- what encode refuses -------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        TagOn(3, bytes(5)),
        TagOff(3, bytes(11)),
        TagOn(256, MUSTARD),
        TagOn(-1, MUSTARD),
        Log("info", "x" * MAX_PAYLOAD),
        Unknown(0x40, bytes(MAX_PAYLOAD + 1)),
        Snapshot(0, 1, tuple((r, bytes(10)) for r in range(20))),
        Hello((1, 0), (1, 0, 0), 4, frozenset({4})),
        Readers(8, frozenset({-1})),
        Hello((1, 0), (1, 0, 0), 256, frozenset()),
        Snapshot(1, 1, ()),
        Snapshot(3, 2, ()),
        Snapshot(0, 0, ()),
        Snapshot(0, 1, ((300, MUSTARD),)),
        Led("on", (256, 0, 0)),
        Led("sparkle"),
        Log("verbose", "hi"),
    ],
    ids=[
        "UID of 5 bytes", "UID of 11 bytes", "reader 256", "reader -1", "payload of 241 bytes",
        "unknown payload of 241 bytes", "snapshot part over 240 bytes", "working reader 4 of 4",
        "working reader -1", "256 readers", "snapshot part 1 of 1", "snapshot part 3 of 2",
        "snapshot of 0 parts", "snapshot reader 300", "LED colour 256", "LED mode unknown", "LOG level unknown",
    ],
)
def test_encode_refuses_what_cannot_go_on_the_wire(message):
    with pytest.raises(ValueError):
        encode(message)


def test_the_largest_payload_still_fits():
    frame = encode(Log("info", "x" * (MAX_PAYLOAD - 1)))
    assert frame[1] == MAX_PAYLOAD
    assert Parser().feed(frame) == [Log("info", "x" * (MAX_PAYLOAD - 1))]


@pytest.mark.parametrize("buzzer", [Buzzer(70_000, 200), Buzzer(880, -1)], ids=["70 kHz", "-1 ms"])
def test_encode_refuses_a_buzzer_value_outside_16_bits_with_value_error(buzzer):
    with pytest.raises(ValueError):
        encode(buzzer)


# ---- messages to fuzz with -------------------------------------------------------------

seqs = st.integers(0, 255)
bytes_ = st.integers(0, 255)
uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
readers_and_working = st.integers(0, 255).flatmap(
    lambda n: st.tuples(st.just(n), st.frozensets(st.integers(0, n - 1), max_size=n) if n else st.just(frozenset()))
)
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
versions = st.tuples(bytes_, bytes_)
unknown_codes = st.integers(0, 255).filter(lambda code: code not in TYPE_CODES.values())


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    parts = draw(st.integers(1, 255))
    tags = draw(st.lists(st.tuples(bytes_, uids), max_size=8))
    return Snapshot(draw(st.integers(0, parts - 1)), parts, tuple(tags), draw(seqs))


messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(lambda v, f, rw, s: Hello(v, f, rw[0], rw[1], s), versions, st.tuples(bytes_, bytes_, bytes_),
              readers_and_working, seqs),
    st.builds(Heartbeat, seqs),
    st.builds(TagOn, bytes_, uids, seqs),
    st.builds(TagOff, bytes_, uids, seqs),
    snapshots(),
    st.builds(lambda rw, s: Readers(rw[0], rw[1], s), readers_and_working, seqs),
    st.builds(Log, st.sampled_from(["debug", "info", "warning", "error"]), texts, seqs),
    st.builds(HelloRequest, versions, seqs),
    st.builds(Welcome, versions, seqs),
    st.builds(HostHeartbeat, seqs),
    st.builds(SnapshotRequest, seqs),
    st.builds(Led, st.sampled_from(["off", "on", "blink"]), st.tuples(bytes_, bytes_, bytes_),
              st.lists(bytes_, max_size=10).map(tuple), seqs),
    st.builds(Buzzer, st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), seqs),
    st.builds(Unknown, unknown_codes, st.binary(max_size=30), seqs),
)
streams = st.lists(messages, min_size=1, max_size=6)
# Garbage rich in start bytes and in lengths that are short, long, and over the limit.
garbage = st.lists(st.one_of(st.just(0xA5), st.sampled_from([0, 1, 5, 239, 240, 241, 255]), bytes_), max_size=40).map(bytes)


def cuts_in(data_size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, data_size), max_size=8)


@fuzz(300)
@given(messages)
def test_any_message_decodes_to_itself(message):
    assert Parser().feed(encode(message)) == [message]


# ---- fuzzing the parser ------------------------------------------------------------------


@fuzz(300)
@given(st.binary(max_size=300), st.data())
def test_random_bytes_never_make_the_parser_raise(data, draw):
    decode_in_chunks(data, draw.draw(cuts_in(len(data))))


@st.composite
def mutated_streams(draw: st.DrawFn) -> bytes:
    """Valid frames back to back, then bytes flipped, inserted and deleted."""
    data = bytearray(b"".join(encode(m) for m in draw(streams)))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["flip", "insert", "delete"]) if data else st.just("insert"))
        at = draw(st.integers(0, len(data) - (kind != "insert")))
        if kind == "flip":
            data[at] ^= draw(st.integers(1, 255))
        elif kind == "insert":
            data[at:at] = bytes([draw(st.one_of(st.just(0xA5), bytes_))])
        else:
            del data[at]
    return bytes(data)


@fuzz(400)
@given(mutated_streams(), st.data())
def test_a_mutated_stream_yields_only_frames_that_are_in_it(data, draw):
    for message in decode_in_chunks(data, draw.draw(cuts_in(len(data)))):
        assert encode(message) in data, f"{message} was never sent"


@fuzz(400)
@given(garbage, streams, st.data())
def test_garbage_never_hides_the_valid_frames_after_it(junk, sent, draw):
    data = junk + b"".join(encode(m) for m in sent)
    decoded = decode_in_chunks(data, draw.draw(cuts_in(len(data))))
    assert decoded[len(decoded) - len(sent):] == sent
    for made_up in decoded[: len(decoded) - len(sent)]:
        assert encode(made_up) in data, f"{made_up} was never sent"


@fuzz(300)
@given(st.lists(st.one_of(garbage, messages.map(encode)), max_size=8).map(b"".join), st.data())
def test_any_split_of_a_stream_decodes_the_same(data, draw):
    assert decode_in_chunks(data, draw.draw(cuts_in(len(data)))) == Parser().feed(data)


def test_a_payload_holding_a_whole_frame_is_the_documented_exception():
    """docs/protocol.md, "Receiving": an unfinished frame is given up once a complete valid
    frame follows, even one inside its own payload. Whole, the TAG_ON decodes; trickling in,
    the heartbeat inside it wins, and its sequence number then prompts a snapshot."""
    heartbeat = encode(Heartbeat(seq=42))
    tag = TagOn(1, b"\x01" + heartbeat + b"\x02\x03\x04", seq=9)  # a 10-byte UID
    data = encode(tag)
    assert Parser().feed(data) == [tag]
    assert decode_in_chunks(data, list(range(1, len(data)))) == [Heartbeat(seq=42)]
