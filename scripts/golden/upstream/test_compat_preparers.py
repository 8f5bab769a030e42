#!/usr/bin/python3
"""The preparers' shims of compat_preparers.py on known values: CRC-32C's published check value,
protobuf messages encoded by hand from the wire-format rules, pandas behaviour from the issue that
changed it. Run with Debian's interpreter:
/usr/bin/python3 -m unittest scripts/golden/upstream/test_compat_preparers.py"""
import os
import socket
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compat_preparers  # noqa: E402
import _tfrecord  # noqa: E402  (importable once compat_preparers is)

APPLIED = compat_preparers.install()


def _field(number, payload):
    """A length-delimited protobuf field (wire type 2) with a one-byte length."""
    assert len(payload) < 128
    return bytes([number << 3 | 2, len(payload)]) + payload


def _example(features):
    """tf.train.Example{features{feature{key: Feature{bytes_list{value: ...}}}}} by hand."""
    entries = b"".join(_field(1, _field(1, k.encode()) + _field(2, _field(1, b"".join(_field(1, v) for v in values))))
                       for k, values in features)
    return _field(1, entries)


def _record(data):
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", _tfrecord.masked_crc32c(length)) + data + struct.pack("<I", _tfrecord.masked_crc32c(data))


class Crc32c(unittest.TestCase):
    def test_check_value(self):
        # CRC-32C (Castagnoli) of "123456789" is 0xE3069283; TFRecord masks it: rotate right by 15, add 0xA282EAD8.
        crc = 0xE3069283
        masked = ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF
        self.assertEqual(_tfrecord.masked_crc32c(b"123456789"), masked)


class TensorflowStandin(unittest.TestCase):
    def setUp(self):
        if "tensorflow stand-in: TFRecordDataset and tf.train.Example only" not in APPLIED:
            self.skipTest("TensorFlow is installed")
        import tensorflow

        self.tf = tensorflow

    def _dataset(self, records):
        fd, path = tempfile.mkstemp(suffix=".tfrec")
        with os.fdopen(fd, "wb") as f:
            f.write(b"".join(_record(r) for r in records))
        self.addCleanup(os.remove, path)
        return self.tf.data.TFRecordDataset(path)

    def test_ids_in_file_order(self):
        records = [_example([("image", [b"\xff\xd8"]), ("image_name", [name])]) for name in (b"ISIC_2", b"ISIC_1")]
        names = [self.tf.train.Example.FromString(r.numpy()).features.feature["image_name"].bytes_list.value[0] for r in self._dataset(records)]
        self.assertEqual(names, [b"ISIC_2", b"ISIC_1"])

    def test_map_key_seen_twice_keeps_the_last(self):
        example = self.tf.train.Example.FromString(_example([("id", [b"first"]), ("id", [b"second"])]))
        self.assertEqual(example.features.feature["id"].bytes_list.value, [b"second"])

    def test_missing_key_is_an_empty_feature(self):
        example = self.tf.train.Example.FromString(_example([("id", [b"x"])]))
        self.assertEqual(example.features.feature["other"].bytes_list.value, [])
        with self.assertRaises(IndexError):
            example.features.feature["other"].bytes_list.value[0]

    def test_corrupt_record_is_refused(self):
        data = bytearray(_record(_example([("id", [b"x"])])))
        data[-1] ^= 1
        fd, path = tempfile.mkstemp(suffix=".tfrec")
        with os.fdopen(fd, "wb") as f:
            f.write(bytes(data))
        self.addCleanup(os.remove, path)
        with self.assertRaises(IOError):
            list(self.tf.data.TFRecordDataset(path))


class PandasArgmaxObject(unittest.TestCase):
    def test_row_of_a_mixed_frame(self):
        import pandas as pd

        # GH 54109 (pandas 2.1): argmax of an object Series is the position of its largest value.
        frame = pd.DataFrame({"id": ["a_study"], "neg": [0], "typical": [0], "indeterminate": [1], "atypical": [0]})
        _, row = next(frame.iterrows())
        self.assertEqual(row.dtype, object)
        self.assertEqual(row[1:].argmax(), 2)
        self.assertEqual(row[1:].idxmax(), "indeterminate")
        self.assertEqual(row[1:].argmin(), 0)


class Offline(unittest.TestCase):
    def test_internet_connection_refused(self):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            with self.assertRaises(ConnectionError):
                s.connect(("192.0.2.1", 80))

    def test_download_served_from_the_fixture(self):
        import requests

        url, name = next(iter(compat_preparers.DOWNLOADS["freesound-audio-tagging-2019"].items()))
        raw = tempfile.mkdtemp()
        self.addCleanup(lambda: (os.remove(os.path.join(raw, name)), os.rmdir(raw)))
        with open(os.path.join(raw, name), "wb") as f:
            f.write(b"PK zip bytes" * 1000)
        compat_preparers.serve_downloads("freesound-audio-tagging-2019", raw)
        self.addCleanup(compat_preparers.serve_downloads, None, None)
        with requests.get(url, stream=True) as r:
            r.raise_for_status()
            body = b"".join(r.iter_content(chunk_size=8192))
        self.assertEqual(body, b"PK zip bytes" * 1000)

    def test_other_urls_refused(self):
        import requests

        compat_preparers.serve_downloads("freesound-audio-tagging-2019", tempfile.gettempdir())
        self.addCleanup(compat_preparers.serve_downloads, None, None)
        with self.assertRaises(ConnectionError):
            requests.get("https://example.com/data.zip")


class ParquetWithoutEngine(unittest.TestCase):
    def setUp(self):
        if not any(name.startswith("parquet without") for name in APPLIED):
            self.skipTest("a Parquet engine is installed")

    def test_round_trip(self):
        import numpy as np
        import pandas as pd

        df = pd.DataFrame({"batch_id": np.array([1, 1, 2], dtype=np.int64), "azimuth": [0.5, 1e-05, 6.25]})
        fd, path = tempfile.mkstemp(suffix=".parquet")
        os.close(fd)
        self.addCleanup(os.remove, path)
        df.to_parquet(path, index=False, engine="fastparquet")
        back = pd.read_parquet(path)
        pd.testing.assert_frame_equal(back, df)
        self.assertEqual(list(pd.read_parquet(path, columns=["azimuth"]).columns), ["azimuth"])


if __name__ == "__main__":
    unittest.main()
