"""TFRecord files and the slice of protobuf a tf.train.Example needs, for machines without
TensorFlow: the preparer oracles write their raw TFRecords with it and read ids back, and the
oracle's TensorFlow stand-in (upstream/compat_preparers.py) reads records through it.

A record is framed as: length (uint64 LE), masked CRC-32C of the length, data, masked CRC-32C of
the data. An Example is Example{features(1): Features{feature(1): map entry{key(1), Feature(2)}}}
with Feature{bytes_list(1) | float_list(2) | int64_list(3)}, each list's values in field 1."""
import struct


def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def masked_crc32c(data):
    """TFRecord's checksum: CRC-32C, rotated right by 15 bits, plus 0xA282EAD8."""
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    c ^= 0xFFFFFFFF
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def write_records(records):
    """The bytes of a TFRecord file holding `records` (bytes each), in order."""
    out = bytearray()
    for data in records:
        length = struct.pack("<Q", len(data))
        out += length + struct.pack("<I", masked_crc32c(length)) + data + struct.pack("<I", masked_crc32c(data))
    return bytes(out)


def read_records(path):
    """The records of a TFRecord file; IOError naming the byte where a checksum fails."""
    with open(path, "rb") as f:
        blob = f.read()
    pos, records = 0, []
    while pos < len(blob):
        head = blob[pos:pos + 8]
        (length,) = struct.unpack("<Q", head)
        if struct.unpack_from("<I", blob, pos + 8)[0] != masked_crc32c(head):
            raise IOError(f"{path}: corrupted record length at byte {pos}")
        data = blob[pos + 12:pos + 12 + length]
        if len(data) != length or struct.unpack_from("<I", blob, pos + 12 + length)[0] != masked_crc32c(data):
            raise IOError(f"{path}: corrupted record at byte {pos}")
        records.append(data)
        pos += 16 + length
    return records


def _varint(v):
    v &= (1 << 64) - 1  # negative int64 values take ten bytes, as two's complement
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(num, payload):
    return _varint(num << 3 | 2) + _varint(len(payload)) + payload


def _feature(value):
    """A Feature message: bytes_list (1) for bytes/str, float_list (2) for floats, int64_list (3) for ints."""
    if isinstance(value, (bytes, str)):
        raw = value.encode("utf-8") if isinstance(value, str) else value
        return _field(1, _field(1, raw))
    if isinstance(value, float):
        return _field(2, _field(1, struct.pack("<f", value)))
    return _field(3, _field(1, _varint(int(value))))


def example_bytes(features):
    """A serialized Example of {name: value}, entries in the dict's order."""
    entries = b"".join(_field(1, _field(1, k.encode("utf-8")) + _field(2, _feature(v))) for k, v in features.items())
    return _field(1, entries)


def wire_fields(buf):
    """(field number, wire type, value) of each field of a protobuf message, in order: varints as
    ints, length-delimited fields as bytes, fixed-width ones as their raw bytes."""
    pos = 0

    def varint():
        nonlocal pos
        value, shift = 0, 0
        while True:
            b = buf[pos]
            pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    while pos < len(buf):
        key = varint()
        wire = key & 7
        if wire == 0:
            value = varint()
        elif wire == 1:
            value, pos = bytes(buf[pos:pos + 8]), pos + 8
        elif wire == 2:
            n = varint()
            value, pos = bytes(buf[pos:pos + n]), pos + n
        elif wire == 5:
            value, pos = bytes(buf[pos:pos + 4]), pos + 4
        else:
            raise ValueError(f"protobuf wire type {wire} is not used by tf.train.Example")
        yield key >> 3, wire, value
