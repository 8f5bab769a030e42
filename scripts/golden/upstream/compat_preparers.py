"""What upstream's preparers need from the outside world and from libraries Debian's Python lacks or
has in an older release, installed before any upstream module is imported (oracle.py calls
`install()`, whose names of the shims applied go into every oracle.json).

- Network: no preparer may reach it. Sockets to Internet addresses are refused, and the one
  download a preparer makes (freesound's test labels from Zenodo) is served from the fixture's raw
  folder, which ships that very file as the stand-in for the download.
- Parquet: Debian packages neither pyarrow nor fastparquet, which pandas needs for Parquet. When
  neither is installed, pandas' Parquet reader and writer go through preparer_cases/_parquet.py
  (the reader of the fixtures' raw files; the writer of the fixed plain layout mlebench-ts writes,
  so a Parquet output's md5 checks its rows, columns and types, not fastparquet's bytes).
- TensorFlow: two preparers read image ids out of TFRecord files with tf.data.TFRecordDataset and
  tf.train.Example. Without TensorFlow a stand-in module gives exactly those two: TFRecord framing
  with its masked CRC-32C checks, and the Example message decoded from protobuf's wire format.
- pandas releases: where Debian's pandas is older than a behaviour upstream's code relies on, that
  release's behaviour, named after it, applied only to older pandas (as in compat.py)."""
import importlib.util
import io
import os
import socket
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(os.path.dirname(HERE), "preparer_cases")
if CASES not in sys.path:
    sys.path.insert(0, CASES)

from _tfrecord import read_records, wire_fields  # noqa: E402

# Per competition: the URLs its preparer downloads, and the raw file of the fixture that stands in.
DOWNLOADS = {
    "freesound-audio-tagging-2019": {
        "https://zenodo.org/records/3612637/files/FSDKaggle2019.meta.zip?download=1": "FSDKaggle2019.meta.zip",
    },
}

_serving = {"cid": None, "raw": None}


def serve_downloads(cid, raw):
    """Serve cid's downloads from raw (the fixture's own raw folder); None, None serves nothing."""
    _serving["cid"], _serving["raw"] = cid, raw


class OfflineDownloadError(ConnectionError):
    """A preparer asked for a URL no fixture stands in for."""


class _Response:
    """The part of requests.Response that a streaming download uses."""

    def __init__(self, url, body):
        self.url, self.status_code, self.content = url, 200, body
        self.ok = True

    def raise_for_status(self):
        return None

    def iter_content(self, chunk_size=1, decode_unicode=False):
        stream = io.BytesIO(self.content)
        while True:
            chunk = stream.read(chunk_size or len(self.content) or 1)
            if not chunk:
                return
            yield chunk

    @property
    def raw(self):
        return io.BytesIO(self.content)

    def close(self):
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _served(url):
    name = DOWNLOADS.get(_serving["cid"] or "", {}).get(url)
    if name is None:
        raise OfflineDownloadError(f"the oracle runs offline and no fixture file stands in for {url}")
    with open(os.path.join(_serving["raw"], name), "rb") as f:
        return _Response(url, f.read())


def offline_downloads():
    """requests' get/request (and Session's) answer only the URLs in DOWNLOADS, from the fixture."""
    import requests

    def get(url, params=None, **kwargs):
        return _served(url)

    def request(method, url, **kwargs):
        if method.upper() != "GET":
            raise OfflineDownloadError(f"the oracle runs offline: {method} {url}")
        return _served(url)

    requests.get = requests.api.get = get
    requests.request = requests.api.request = request
    requests.Session.request = lambda self, method, url, **kwargs: request(method, url, **kwargs)


def no_internet_sockets():
    """Connections to IPv4/IPv6 addresses fail at once (Unix sockets, used by multiprocessing, stay)."""
    connect = socket.socket.connect

    def guarded(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            raise OfflineDownloadError(f"the oracle runs offline: connection to {address} refused")
        return connect(self, address)

    socket.socket.connect = guarded
    socket.socket.connect_ex = lambda self, address: guarded(self, address) or 0


def _have(module):
    return importlib.util.find_spec(module) is not None


def parquet_without_engine():
    """pd.read_parquet and DataFrame.to_parquet through preparer_cases/_parquet.py."""
    import pandas as pd

    import _parquet

    def read_parquet(path, engine="auto", columns=None, **kwargs):
        df = _parquet.read_parquet(os.fspath(path))
        return df[list(columns)] if columns is not None else df

    def to_parquet(self, path=None, engine="auto", compression="snappy", index=None, **kwargs):
        if index:
            raise NotImplementedError("the Parquet stand-in writes no index")
        _parquet.write_plain(self.reset_index(drop=True), os.fspath(path))

    pd.read_parquet = pd.io.parquet.read_parquet = read_parquet
    pd.DataFrame.to_parquet = to_parquet


# --- TensorFlow's TFRecord reader and tf.train.Example ------------------------------------------


class _BytesList:
    def __init__(self):
        self.value = []


class _Feature:
    """A Feature: only bytes_list is decoded (the preparers read ids, which are bytes)."""

    def __init__(self, buf=b""):
        self.bytes_list = _BytesList()
        for number, wire, value in wire_fields(buf):
            if number == 1 and wire == 2:
                # A message field seen twice merges: repeated values append.
                self.bytes_list.value += [v for n, w, v in wire_fields(value) if n == 1 and w == 2]


class _FeatureMap(dict):
    def __missing__(self, key):
        # Reading a missing key of a protobuf map gives the default message.
        return _Feature()


class _Features:
    def __init__(self):
        self.feature = _FeatureMap()

    def merge(self, buf):
        for number, wire, entry in wire_fields(buf):
            if number == 1 and wire == 2:
                key, value = "", b""
                for n, w, v in wire_fields(entry):
                    if n == 1 and w == 2:
                        key = v.decode("utf-8")
                    elif n == 2 and w == 2:
                        value = v
                # A key seen again replaces the earlier entry, as in any protobuf map.
                self.feature[key] = _Feature(value)


class _Example:
    def __init__(self):
        self.features = _Features()

    @classmethod
    def FromString(cls, buf):
        example = cls()
        for number, wire, value in wire_fields(buf):
            if number == 1 and wire == 2:
                example.features.merge(value)
        return example


class _Record:
    def __init__(self, data):
        self._data = data

    def numpy(self):
        return self._data


class _TFRecordDataset:
    """The records of one TFRecord file: length, masked CRC of the length, data, masked CRC of the data."""

    def __init__(self, path):
        self._path = os.fspath(path)

    def __iter__(self):
        return (_Record(data) for data in read_records(self._path))


def tensorflow_tfrecords():
    """A `tensorflow` module holding data.TFRecordDataset and train.Example.FromString."""
    tf = types.ModuleType("tensorflow")
    tf.__version__ = "0+mlebench-oracle-standin"
    tf.data = types.SimpleNamespace(TFRecordDataset=_TFRecordDataset)
    tf.train = types.SimpleNamespace(Example=_Example)
    sys.modules["tensorflow"] = tf


# --- pandas releases ----------------------------------------------------------------------------


def _pandas_version():
    import pandas

    return tuple(int("".join(ch for ch in p if ch.isdigit()) or 0) for p in pandas.__version__.split(".")[:2])


def pandas_argmax_object():
    """pandas 2.1's argmax/argmin (so idxmax/idxmin) on object dtype, e.g. a row of a mixed frame from
    iterrows (GH 54109): the position of the largest/smallest value instead of a TypeError."""
    from pandas.core import nanops

    for name in ("nanargmax", "nanargmin"):
        guarded = getattr(nanops, name)
        # Below 2.1 the refusal is a decorator; the function under it finds the position as 2.1 does.
        setattr(nanops, name, getattr(guarded, "__wrapped__", guarded))


def install():
    """Apply the shims this machine needs; their names."""
    applied = []
    if _pandas_version() < (2, 1):
        pandas_argmax_object()
        applied.append("pandas>=2.1 argmax/argmin on object dtype")
    no_internet_sockets()
    offline_downloads()
    applied.append("offline: Internet sockets refused; downloads served from fixture raw files (" + ", ".join(sorted(DOWNLOADS)) + ")")
    if not _have("pyarrow") and not _have("fastparquet"):
        parquet_without_engine()
        applied.append("parquet without pyarrow/fastparquet: read by preparer_cases/_parquet.py, written in its fixed plain layout")
    if not _have("tensorflow"):
        tensorflow_tfrecords()
        applied.append("tensorflow stand-in: TFRecordDataset and tf.train.Example only")
    return applied
