"""Bytes → text: UTF-8 (with or without BOM), GB18030, Big5; binary files are refused.

The order matters: UTF-8 is strict and almost never decodes text written in another encoding,
so it goes first. GB18030 decodes nearly any byte string, Big5 many: between the two the one
that gives more common Han characters (and fewer private-use / replacement characters) wins.
Big5 writes 十, 卅, ／ and ＼ at two code points each: both decode to the one character, so such a
text encodes back to the other code (``tests/test_invariants.py`` says which).
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Optional

#: control characters that do not occur in text files (tab, LF, VT, FF, CR and ESC are allowed)
_BINARY_CONTROLS = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")

#: characters frequent in any Chinese text, traditional or simplified: a decoding that yields
#: many of them is the right one
_COMMON = set(
    "之也者而以其於于為为曰不人主賓宾拜再升降爵階阶西東东北南面上下一二三中大子公士禮礼是有此云"
    "的了在和我他你们們這这那个個"
)


class DecodeError(ValueError):
    """A file that cannot be read as text; the message names the file and says why."""


def _where(data: bytes, pos: int) -> str:
    """Where byte ``pos`` is, as an editor shows it: its line (from 1) and its byte in the line (from 1)."""
    line = data.count(b"\n", 0, pos) + 1
    line_start = data.rfind(b"\n", 0, pos) + 1
    return f"line {line}, byte {pos - line_start + 1}"


def utf8_line(raw: bytes, first: bool = False) -> tuple[Optional[str], Optional[str]]:
    """One line of a JSONL file: ``(text, None)``, or ``(None, why)`` if it is not UTF-8 — the one
    message of every JSONL reader (``yili process``, ``export``, the annotation commands), which
    decode line by line so that a line cut inside a character spoils itself only. ``first``: the
    file's first line, which may open with a byte-order mark."""
    try:
        return raw.decode("utf-8-sig" if first else "utf-8"), None
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 (byte {exc.start + 1} of the line, 0x{raw[exc.start]:02X}: {exc.reason})"


def json_fault(exc: json.JSONDecodeError) -> str:
    """json's message with its column, for a line that is not JSON: "Expecting value at column 1",
    "Unterminated string starting at column 10" (json's own message ends in "at" there)."""
    return f"{exc.msg.removesuffix(' at')} at column {exc.colno}"


def _first_binary(data: bytes) -> int:
    """The offset of the first NUL or stray control byte."""
    found = _BINARY_CONTROLS.search(data)
    return found.start() if found else 0


def _looks_binary(data: bytes) -> bool:
    sample = data[:65536]
    if b"\x00" in sample:
        return True
    controls = len(_BINARY_CONTROLS.findall(sample))
    return controls > max(2, len(sample) // 1000)


def _score(text: str) -> float:
    if not text:
        return 0.0
    common = sum(1 for ch in text if ch in _COMMON)
    bad = sum(1 for ch in text if ch == "\ufffd" or 0xE000 <= ord(ch) <= 0xF8FF)
    return (common - 5 * bad) / len(text)


def decode_bytes(data: bytes, source: str = "<bytes>") -> tuple[str, str]:
    """``(text, encoding)``; raises :class:`DecodeError` for binary or undecodable data."""
    if not data:
        return "", "utf-8"
    if data.startswith(codecs.BOM_UTF8):
        try:
            return data[len(codecs.BOM_UTF8):].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            raise DecodeError(f"{source}: {_where(data, exc.start + 3)}: starts with a UTF-8 byte-order mark "
                              f"but is not UTF-8 there (0x{data[exc.start + 3]:02x}: {exc.reason})") from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise DecodeError(f"{source}: starts with a UTF-16 byte-order mark but does not decode as UTF-16") from None
        if "\x00" in text:  # no text holds U+0000: binary data that happens to open as a byte-order mark does
            raise DecodeError(f"{source}: binary data (a NUL character, the first at character {text.index(chr(0)) + 1} "
                              "after a UTF-16 byte-order mark), not a text file")
        return text, "utf-16"
    if _looks_binary(data):
        pos = _first_binary(data)
        raise DecodeError(f"{source}: binary data (NUL bytes or control characters, the first at {_where(data, pos)}: "
                          f"0x{data[pos]:02x}), not a text file")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        not_utf8 = exc
    candidates: list[tuple[float, str, str]] = []
    for encoding in ("gb18030", "big5"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        candidates.append((_score(text), encoding, text))
    if not candidates:
        pos = not_utf8.start
        raise DecodeError(f"{source}: not valid UTF-8, GB18030 or Big5 text (UTF-8 fails at {_where(data, pos)}: "
                          f"0x{data[pos]:02x}, {not_utf8.reason})")
    candidates.sort(key=lambda c: c[0], reverse=True)
    score, encoding, text = candidates[0]
    if score <= 0 and any(ch == "\ufffd" for ch in text):
        raise DecodeError(f"{source}: undecodable: no encoding (UTF-8, GB18030, Big5) gives readable text")
    return text, encoding
