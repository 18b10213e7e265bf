"""The shared link codec: framing, integrity, resynchronisation (CPython side)."""

import zlib

from hypothesis import assume, given
from hypothesis import strategies as st
from towerfw import codec

messages = st.dictionaries(
    st.text(min_size=1, max_size=8),
    st.one_of(
        st.integers(-(2**40), 2**40),
        st.text(max_size=20),
        st.booleans(),
        st.none(),
        st.lists(st.integers(0, 255), max_size=4),
    ),
    max_size=6,
)


def frame_of(msg: dict[str, object]) -> bytes:
    """The message's frame; hypothesis discards messages too long for one frame."""
    try:
        return codec.encode(msg)
    except ValueError:
        assume(False)
        raise


def test_frame_is_json_star_crc_newline() -> None:
    frame = codec.encode({"t": "ping", "id": 3})
    body, _, tail = frame.rstrip(b"\n").rpartition(b"*")
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1
    assert tail == b"%08x" % zlib.crc32(body)
    assert codec.decode_line(frame[:-1]) == {"t": "ping", "id": 3}


def test_star_inside_strings_is_fine() -> None:
    msg = {"t": "err", "why": "a*b*c"}
    assert codec.FrameDecoder().feed(codec.encode(msg)) == [msg]


def test_soft_crc_matches_zlib() -> None:
    for data in (b"", b"a", b"hello world", bytes(range(256))):
        assert codec._crc32_soft(data) == zlib.crc32(data)


def test_crlf_is_tolerated_and_blank_lines_ignored() -> None:
    dec = codec.FrameDecoder()
    frame = codec.encode({"t": "hb"}).replace(b"\n", b"\r\n")
    assert dec.feed(b"\n\r\n" + frame) == [{"t": "hb"}]
    assert dec.bad_frames == 0


def test_garbage_and_probes_are_counted_not_raised() -> None:
    dec = codec.FrameDecoder()
    good = codec.encode({"t": "ok", "id": 1})
    out = dec.feed(b"AT\r\nATZ\r\n\x03\x03>>> \n[1,2]*00000000\n" + good)
    assert out == [{"t": "ok", "id": 1}]
    assert dec.bad_frames == 4


def test_non_object_json_and_bad_crc_rejected() -> None:
    body = b"[1,2,3]"
    assert codec.decode_line(body + b"*%08x" % zlib.crc32(body)) is None
    frame = bytearray(codec.encode({"t": "hb", "up_ms": 5}))
    frame[3] ^= 0x01
    assert codec.decode_line(bytes(frame[:-1])) is None


def test_too_long_line_is_discarded_then_decoder_recovers() -> None:
    dec = codec.FrameDecoder()
    good = codec.encode({"t": "hb"})
    for chunk in (b"x" * 300, b"y" * 300, b"z" * 10 + b"\n", good):
        out = dec.feed(chunk)
    assert out == [{"t": "hb"}]
    assert dec.bad_frames == 1


def test_encode_refuses_frames_over_the_limit() -> None:
    try:
        codec.encode({"t": "x", "pad": "a" * codec.MAX_LINE})
    except ValueError:
        return
    raise AssertionError("an oversize frame was encoded")


def test_max_length_frame_is_accepted() -> None:
    base = codec.encode({"t": "x", "p": ""})
    msg = {"t": "x", "p": "a" * (codec.MAX_LINE - len(base))}
    frame = codec.encode(msg)
    assert len(frame) == codec.MAX_LINE
    assert codec.FrameDecoder().feed(frame) == [msg]


@given(st.binary(max_size=2000), st.integers(1, 64))
def test_random_bytes_never_raise(data: bytes, chunk: int) -> None:
    dec = codec.FrameDecoder()
    for i in range(0, len(data), chunk):
        for obj in dec.feed(data[i : i + chunk]):
            assert isinstance(obj, dict)


@given(messages)
def test_truncated_frames_are_rejected_at_every_offset(msg: dict[str, object]) -> None:
    frame = frame_of(msg)
    for cut in range(len(frame) - 1):
        dec = codec.FrameDecoder()
        assert dec.feed(frame[:cut] + b"\n") == []
        assert dec.bad_frames == (1 if frame[:cut] not in (b"",) else 0)


@given(st.binary(max_size=600), messages, st.integers(1, 50))
def test_valid_frames_round_trip_after_garbage(
    garbage: bytes, msg: dict[str, object], chunk: int
) -> None:
    dec = codec.FrameDecoder()
    stream = garbage + b"\n" + frame_of(msg) + frame_of(msg)
    got: list[dict[str, object]] = []
    for i in range(0, len(stream), chunk):
        got.extend(dec.feed(stream[i : i + chunk]))
    assert got[-2:] == [msg, msg]
