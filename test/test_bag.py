"""Episode bags: MCAP CRCs written on close and checked on read, a damaged bag its own error."""

from __future__ import annotations

import random
import struct
import zlib

import pytest

from reacthuman.ros import contract, mcap_crc
from reacthuman.ros.bag import BagError, EpisodeBag, read_episode


def _string(text: str) -> bytes:
    from rosbags.typesys import Stores, get_typestore

    store = get_typestore(Stores.ROS2_KILTED)
    return store.serialize_cdr(store.types["std_msgs/msg/String"](data=text), "std_msgs/msg/String")


@pytest.fixture
def bag(tmp_path):
    """A finished bag whose messages are not an episode (read_episode's own check names it)."""
    episode = EpisodeBag(tmp_path / "bags" / "oracle" / "scene-000000")
    for i in range(50):
        episode.write(contract.SCENE, _string(f"not a scene message {i} " * 20), 1000 + i)
    folder = episode.close(finished=True)
    assert folder is not None
    return folder


def _mcap(folder):
    (storage,) = folder.glob("*.mcap")
    return storage


def test_a_closed_bag_carries_every_crc_mcap_defines_and_rosbags_reads_it(bag):
    from rosbags.rosbag2 import Reader

    data = _mcap(bag).read_bytes()
    records = mcap_crc._records(data)
    chunks = [body for op, _s, body in records if op == mcap_crc.CHUNK]
    assert chunks
    for body in chunks:
        _at, crc, content = mcap_crc._chunk_fields(data, body)
        assert crc == zlib.crc32(content) != 0
    (data_end,) = [(s, b) for op, s, b in records if op == mcap_crc.DATA_END]
    assert struct.unpack_from("<I", data, data_end[1])[0] == zlib.crc32(data[: data_end[0]])
    assert mcap_crc.problems(_mcap(bag)) == []
    with Reader(bag) as reader:  # rosbags checks the chunk CRC it reads
        assert sum(1 for _ in reader.messages()) == 50
    with pytest.raises(BagError, match="holds an invalid message"):
        read_episode(bag)  # whole, so it gets as far as the messages


def test_flipped_bytes_anywhere_in_a_bag_are_named_as_damage(bag):
    storage = _mcap(bag)
    whole = storage.read_bytes()
    rng = random.Random(7)
    for trial in range(20):
        data = bytearray(whole)
        for _ in range(200 if trial % 2 else 1):
            at = rng.randrange(len(mcap_crc.MAGIC), len(data) - len(mcap_crc.MAGIC))
            data[at] ^= 1 << rng.randrange(8)
        storage.write_bytes(bytes(data))
        with pytest.raises(BagError, match="damaged|cannot be read") as caught:
            read_episode(bag)
        assert str(storage.parent) in str(caught.value)
        assert "rerun `reacthuman bench`" in str(caught.value)


def test_a_truncated_or_foreign_file_is_named_not_a_traceback(bag):
    storage = _mcap(bag)
    whole = storage.read_bytes()
    storage.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(BagError, match="truncated"):
        read_episode(bag)
    storage.write_bytes(b"\xff\xfe not an mcap file at all" * 10)
    with pytest.raises(BagError, match="not an MCAP file"):
        read_episode(bag)


def test_a_bag_without_crcs_has_nothing_to_check(bag):
    # Bags from other tools (or written before CRCs were sealed) store 0: "not available".
    storage = _mcap(bag)
    data = bytearray(storage.read_bytes())
    for op, start, body in mcap_crc._records(data):
        if op == mcap_crc.CHUNK:
            struct.pack_into("<I", data, mcap_crc._chunk_fields(data, body)[0], 0)
        elif op == mcap_crc.DATA_END:
            struct.pack_into("<I", data, body, 0)
        elif op == mcap_crc.FOOTER:
            struct.pack_into("<I", data, mcap_crc._footer_span(data, start)[2], 0)
    storage.write_bytes(bytes(data))
    assert mcap_crc.problems(storage) == []


def test_a_bag_whose_metadata_is_not_text_is_named(bag):
    (bag / "metadata.yaml").write_bytes(b"\xff\xfe rosbag2_bagfile_information: {")
    with pytest.raises(BagError, match="cannot be read") as caught:
        read_episode(bag)
    assert str(bag) in str(caught.value)
