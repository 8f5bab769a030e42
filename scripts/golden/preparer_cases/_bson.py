"""BSON for the oracles: pymongo's `bson` when it is installed (Debian: python3-bson), otherwise
a small pure-Python codec with the same round-trip behaviour for the types the fixtures use
(double, string, document, array, binary, bool, null, int32, int64)."""
import struct

try:
    import bson as _pymongo_bson

    HAVE_PYMONGO = hasattr(_pymongo_bson, "decode_file_iter") and hasattr(_pymongo_bson, "BSON")
except ImportError:
    HAVE_PYMONGO = False


class Int64(int):
    """An int stored as BSON int64 (pymongo's bson.int64.Int64 plays this part)."""


def int64(v):
    return _pymongo_bson.int64.Int64(v) if HAVE_PYMONGO else Int64(v)


def _cstring(s):
    return s.encode("utf-8") + b"\x00"


def _element(key, value):
    name = _cstring(key)
    if isinstance(value, bool):
        return b"\x08" + name + (b"\x01" if value else b"\x00")
    if isinstance(value, Int64):
        return b"\x12" + name + struct.pack("<q", value)
    if isinstance(value, int):
        if -(2 ** 31) <= value < 2 ** 31:
            return b"\x10" + name + struct.pack("<i", value)
        return b"\x12" + name + struct.pack("<q", value)
    if isinstance(value, float):
        return b"\x01" + name + struct.pack("<d", value)
    if isinstance(value, str):
        b = value.encode("utf-8") + b"\x00"
        return b"\x02" + name + struct.pack("<i", len(b)) + b
    if isinstance(value, (bytes, bytearray)):
        return b"\x05" + name + struct.pack("<i", len(value)) + b"\x00" + bytes(value)
    if isinstance(value, dict):
        return b"\x03" + name + _document(value, False)
    if isinstance(value, list):
        return b"\x04" + name + _document({str(i): v for i, v in enumerate(value)}, False)
    if value is None:
        return b"\x0a" + name
    raise TypeError(type(value))


def _document(doc, top_level):
    keys = list(doc)
    if top_level and "_id" in doc:
        keys = ["_id"] + [k for k in keys if k != "_id"]
    body = b"".join(_element(k, doc[k]) for k in keys)
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


def encode(doc):
    """bson.BSON.encode(doc)."""
    return bytes(_pymongo_bson.BSON.encode(doc)) if HAVE_PYMONGO else _document(doc, True)


def encode_raw(pairs):
    """A document from (key, value) pairs exactly as given: raw Kaggle-like bytes (keys may repeat or
    come in any order; a list given as ("array", [(key, value), ...]) keeps its own keys)."""
    out = b""
    for key, value in pairs:
        if isinstance(value, tuple) and value[0] == "array":
            out += b"\x04" + _cstring(key) + encode_raw(value[1])
        elif isinstance(value, tuple) and value[0] == "doc":
            out += b"\x03" + _cstring(key) + encode_raw(value[1])
        else:
            out += _element(key, value)
    return struct.pack("<i", len(out) + 5) + out + b"\x00"


def _decode_document(data, pos, is_array):
    size = struct.unpack_from("<i", data, pos)[0]
    end = pos + size - 1
    pos += 4
    out = [] if is_array else {}
    while pos < end:
        kind = data[pos]
        key_end = data.index(b"\x00", pos + 1)
        key = data[pos + 1:key_end].decode("utf-8")
        pos = key_end + 1
        if kind == 0x01:
            value = struct.unpack_from("<d", data, pos)[0]
            pos += 8
        elif kind == 0x02:
            n = struct.unpack_from("<i", data, pos)[0]
            value = data[pos + 4:pos + 4 + n - 1].decode("utf-8")
            pos += 4 + n
        elif kind in (0x03, 0x04):
            value, pos = _decode_document(data, pos, kind == 0x04)
        elif kind == 0x05:
            n = struct.unpack_from("<i", data, pos)[0]
            assert data[pos + 4] == 0, "only binary subtype 0 is used by the fixtures"
            value = bytes(data[pos + 5:pos + 5 + n])
            pos += 5 + n
        elif kind == 0x08:
            value = data[pos] == 1
            pos += 1
        elif kind == 0x0A:
            value = None
        elif kind == 0x10:
            value = struct.unpack_from("<i", data, pos)[0]
            pos += 4
        elif kind == 0x12:
            value = Int64(struct.unpack_from("<q", data, pos)[0])
            pos += 8
        else:
            raise ValueError("BSON type 0x%02x is not used by the fixtures" % kind)
        if is_array:
            out.append(value)
        else:
            out[key] = value
    return out, end + 1


def decode_file_iter(f):
    """bson.decode_file_iter(f)."""
    if HAVE_PYMONGO:
        yield from _pymongo_bson.decode_file_iter(f)
        return
    while True:
        head = f.read(4)
        if not head:
            return
        size = struct.unpack("<i", head)[0]
        data = head + f.read(size - 4)
        yield _decode_document(data, 0, False)[0]
