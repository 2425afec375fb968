"""The CRC-32 fields of an MCAP file: written after ``rosbags`` closes a bag, checked on replay.

``rosbags`` writes every CRC of an MCAP file as 0 ("not available", MCAP spec), so a bag
damaged after it was written (a flipped byte on disk, a truncated copy) reads back as if it
were whole, or fails deep in a decoder. :func:`seal` fills in the three checksums the format
defines, where any MCAP reader (``ros2 bag``, Foxglove, the ``mcap`` package) can check them:

* each chunk's ``uncompressed_crc``: its records (``rosbags`` checks this one itself);
* the Data End record's ``data_section_crc``: every byte from the file's start to that record;
* the Footer's ``summary_crc``: the summary section and the footer's fields before the CRC.

:func:`problems` checks all three and says which part of the file is damaged. A bag whose
fields are 0 (written by another tool, or before this module) has nothing to check.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

MAGIC = b"\x89MCAP0\r\n"
CHUNK, DATA_END, FOOTER = 0x06, 0x0F, 0x02
RECORD_HEAD = 9  # opcode (1 byte) + content length (8)
FOOTER_RECORD = RECORD_HEAD + 8 + 8 + 4  # summary_start, summary_offset_start, summary_crc


class McapFormatError(ValueError):
    """The file is not laid out as an MCAP file (what is damaged is named)."""


def _records(data: bytes) -> list[tuple[int, int, int]]:
    """(opcode, record start, content start) of every record up to and including the footer."""
    if len(data) < 2 * len(MAGIC) + FOOTER_RECORD or not data.startswith(MAGIC):
        raise McapFormatError("not an MCAP file (no MCAP magic at its start)")
    if not data.endswith(MAGIC):
        raise McapFormatError("the file is truncated (no MCAP magic at its end)")
    out: list[tuple[int, int, int]] = []
    pos = len(MAGIC)
    end = len(data) - len(MAGIC)
    while pos < end:
        if pos + RECORD_HEAD > end:
            raise McapFormatError(f"a record at byte {pos} runs past the end of the file")
        opcode = data[pos]
        (length,) = struct.unpack_from("<Q", data, pos + 1)
        if pos + RECORD_HEAD + length > end:
            raise McapFormatError(f"a record at byte {pos} runs past the end of the file")
        out.append((opcode, pos, pos + RECORD_HEAD))
        pos += RECORD_HEAD + length
        if opcode == FOOTER:
            break
    if not out or out[-1][0] != FOOTER or pos != end:
        raise McapFormatError("the file has no footer where MCAP puts it")
    return out


def _chunk_fields(data: bytes, body: int) -> tuple[int, int, memoryview]:
    """(offset of uncompressed_crc, stored CRC, records) of an uncompressed chunk's content,
    the records a view of ``data`` (not a copy); empty for a compressed chunk (not written by
    this project)."""
    crc_at = body + 24  # message_start_time, message_end_time, uncompressed_size
    (crc,) = struct.unpack_from("<I", data, crc_at)
    (name_length,) = struct.unpack_from("<I", data, crc_at + 4)
    compression = data[crc_at + 8 : crc_at + 8 + name_length]
    records_at = crc_at + 8 + name_length
    (size,) = struct.unpack_from("<Q", data, records_at)
    view = memoryview(data)
    if compression:
        return crc_at, crc, view[:0]
    return crc_at, crc, view[records_at + 8 : records_at + 8 + size]


def _footer_span(data: bytes, footer: int) -> tuple[int, int, int]:
    """(start of what the summary CRC covers, its end, where the CRC is stored)."""
    (summary_start,) = struct.unpack_from("<Q", data, footer + RECORD_HEAD)
    crc_at = footer + RECORD_HEAD + 16
    return (summary_start or footer), crc_at, crc_at


def seal(path: Path) -> None:
    """Write the chunk, data-section and summary CRCs into an MCAP file, in place: only their
    four bytes each are written back (a bag is megabytes of camera frames; rewriting all of it
    took a tenth of the node graph's CPU at paper scale, BENCHMARKS "Node graph"). The file is read
    once and every CRC runs over views of it (slicing copied its 10 MB three times over)."""
    data = path.read_bytes()
    view = memoryview(data)
    records = _records(data)
    patches: dict[int, bytes] = {}  # where, the CRC's four bytes
    for opcode, _start, body in records:
        if opcode == CHUNK:
            crc_at, _crc, content = _chunk_fields(data, body)
            if content:
                patches[crc_at] = struct.pack("<I", zlib.crc32(content))
    for opcode, start, body in records:
        if opcode == DATA_END:  # over the bytes before it, the chunks' new CRCs included
            crc, at = 0, 0
            for patched in sorted(p for p in patches if p < start):
                crc = zlib.crc32(patches[patched], zlib.crc32(view[at:patched], crc))
                at = patched + 4
            patches[body] = struct.pack("<I", zlib.crc32(view[at:start], crc))
    footer = records[-1][1]
    begin, end, crc_at = _footer_span(data, footer)
    patches[crc_at] = struct.pack("<I", zlib.crc32(view[begin:end]))
    with path.open("r+b") as file:
        for at, crc_bytes in sorted(patches.items()):
            file.seek(at)
            file.write(crc_bytes)


def problems(path: Path) -> list[str]:
    """What is damaged in an MCAP file, by its CRCs (empty: whole, or nothing to check)."""
    data = path.read_bytes()
    try:
        records = _records(data)
    except McapFormatError as exc:
        return [str(exc)]
    found: list[str] = []
    for opcode, start, body in records:
        if opcode == CHUNK:
            _crc_at, crc, content = _chunk_fields(data, body)
            if crc and content and zlib.crc32(content) != crc:
                found.append(f"the chunk at byte {start} fails its CRC (its messages changed)")
        elif opcode == DATA_END:
            (crc,) = struct.unpack_from("<I", data, body)
            if crc and zlib.crc32(memoryview(data)[:start]) != crc:
                found.append("the data section fails its CRC")
    begin, end, crc_at = _footer_span(data, records[-1][1])
    (crc,) = struct.unpack_from("<I", data, crc_at)
    if crc and zlib.crc32(memoryview(data)[begin:end]) != crc:
        found.append("the summary section fails its CRC (its index of the messages changed)")
    return found
