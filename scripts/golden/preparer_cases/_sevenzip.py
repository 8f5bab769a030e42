"""7z archives for the oracles, without py7zr (Debian has none): Kaggle-like raw archives
(LZMA or LZMA2 members, directory entries, times and attributes, optionally a compressed header),
a reader for them, and the stored (uncompressed) archives that the TypeScript port writes in place
of py7zr's LZMA2 ones, laid out byte for byte as 7-Zip's `7z a` lays them out with the switches
src/io/sevenzip.ts passes (one solid Copy folder, no times, no attributes, unpacked header)."""
import lzma
import struct
import zlib

SIGNATURE = b"7z\xbc\xaf\x27\x1c"

K_END, K_HEADER, K_MAIN_STREAMS, K_FILES, K_PACK, K_UNPACK, K_SUBSTREAMS = 0x00, 0x01, 0x04, 0x05, 0x06, 0x07, 0x08
K_SIZE, K_CRC, K_FOLDER, K_CODERS_UNPACK_SIZE, K_NUM_UNPACK_STREAM = 0x09, 0x0A, 0x0B, 0x0C, 0x0D
K_EMPTY_STREAM, K_EMPTY_FILE, K_NAME, K_MTIME, K_ATTRIBUTES, K_ENCODED_HEADER, K_DUMMY = 0x0E, 0x0F, 0x11, 0x14, 0x15, 0x17, 0x19

LZMA1_PROPS = {"lc": 3, "lp": 0, "pb": 2}


def number(v):
    """7z's variable-length number: leading 1 bits of the first byte count the little-endian bytes after it."""
    first, mask = 0, 0x80
    for i in range(8):
        if v < (1 << (7 * (i + 1))):
            first |= v >> (8 * i)
            break
        first |= mask
        mask >>= 1
    else:
        i = 8
    return bytes([first]) + bytes((v >> (8 * k)) & 0xFF for k in range(i))


def bit_field(flags):
    out = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            out[i // 8] |= 0x80 >> (i % 8)
    return bytes(out)


def start_header(next_offset, header):
    tail = struct.pack("<QQI", next_offset, len(header), zlib.crc32(header))
    return SIGNATURE + bytes([0, 4]) + struct.pack("<I", zlib.crc32(tail)) + tail


def compress(data, method, dict_size=1 << 20):
    """(coder id, coder properties, packed bytes) for a raw LZMA or LZMA2 stream."""
    if method == "lzma2":
        packed = lzma.compress(data, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "dict_size": dict_size, "preset": 6}])
        p = next(p for p in range(40) if ((2 | (p & 1)) << (p // 2 + 11)) >= dict_size)
        return b"\x21", bytes([p]), packed
    packed = lzma.compress(data, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA1, "dict_size": dict_size, **LZMA1_PROPS}])
    props = bytes([(LZMA1_PROPS["pb"] * 5 + LZMA1_PROPS["lp"]) * 9 + LZMA1_PROPS["lc"]]) + struct.pack("<I", dict_size)
    return b"\x03\x01\x01", props, packed


def folder_streams_info(pack_pos, coder_id, props, packed_len, unpack_size, folder_crc):
    out = bytes([K_PACK]) + number(pack_pos) + number(1) + bytes([K_SIZE]) + number(packed_len) + bytes([K_END])
    coder = bytes([len(coder_id) | 0x20]) + coder_id + number(len(props)) + props
    out += bytes([K_UNPACK, K_FOLDER]) + number(1) + b"\x00" + number(1) + coder
    out += bytes([K_CODERS_UNPACK_SIZE]) + number(unpack_size)
    if folder_crc is not None:
        out += bytes([K_CRC, 1]) + struct.pack("<I", folder_crc)
    return out + bytes([K_END])


def write_kaggle_7z(path, entries, method="lzma2", encode_header=False):
    """A 7z as 7-Zip writes one: entries [(name, bytes or None for a directory)], the files in one solid
    compressed folder, names, times and attributes in the header, the header itself LZMA-packed if asked."""
    files = [(n, d) for n, d in entries if d is not None]
    data = b"".join(d for _, d in files)
    coder_id, props, packed = compress(data, method)
    h = bytes([K_HEADER, K_MAIN_STREAMS]) + folder_streams_info(0, coder_id, props, len(packed), len(data), None)
    h += bytes([K_SUBSTREAMS])
    if len(files) != 1:
        h += bytes([K_NUM_UNPACK_STREAM]) + number(len(files)) + bytes([K_SIZE]) + b"".join(number(len(d)) for _, d in files[:-1])
    h += bytes([K_CRC, 1]) + b"".join(struct.pack("<I", zlib.crc32(d)) for _, d in files) + bytes([K_END, K_END])
    n = len(entries)
    empty = [d is None for _, d in entries]
    props_out = b""
    if any(empty):
        field = bit_field(empty)
        props_out += bytes([K_EMPTY_STREAM]) + number(len(field)) + field
    names = b"\x00" + b"".join((name + "\x00").encode("utf-16-le") for name, _ in entries)
    props_out += bytes([K_DUMMY]) + number(2) + b"\x00\x00"
    props_out += bytes([K_NAME]) + number(len(names)) + names
    times = b"\x01\x00" + b"".join(struct.pack("<Q", 131000000000000000 + 10000000 * i) for i in range(n))
    props_out += bytes([K_MTIME]) + number(len(times)) + times
    attrs = b"\x01\x00" + b"".join(struct.pack("<I", 0x10 if e else 0x20) for e in empty)
    props_out += bytes([K_ATTRIBUTES]) + number(len(attrs)) + attrs
    h += bytes([K_FILES]) + number(n) + props_out + bytes([K_END, K_END])
    body = packed
    if encode_header:
        hid, hprops, hpacked = compress(h, "lzma", 1 << 16)
        h = bytes([K_ENCODED_HEADER]) + folder_streams_info(len(packed), hid, hprops, len(hpacked), len(h), zlib.crc32(h)) + bytes([K_END])
        body += hpacked
    with open(path, "wb") as f:
        f.write(start_header(len(body), h) + body + h)


def _align_to_16(header_len, record_prefix):
    """The padding 7-Zip writes before a header record so that the record's data starts at a
    multiple of 16 bytes from the header's start: a kDummy record, at least 2 bytes long."""
    pos = (header_len + record_prefix) % 16
    if pos == 0:
        return b""
    skip = 16 - pos
    if skip < 2:
        skip += 16
    return bytes([K_DUMMY, skip - 2]) + bytes(skip - 2)


def write_stored_7z(path, members):
    """Non-empty members [(name, bytes)] stored uncompressed in one solid Copy folder, names only
    (no times, no attributes), in the order given."""
    assert members and all(d for _, d in members)
    data = b"".join(d for _, d in members)
    h = bytes([K_HEADER, K_MAIN_STREAMS])
    h += bytes([K_PACK]) + number(0) + number(1) + bytes([K_SIZE]) + number(len(data)) + bytes([K_END])
    h += bytes([K_UNPACK, K_FOLDER]) + number(1) + b"\x00" + number(1) + b"\x01\x00" + bytes([K_CODERS_UNPACK_SIZE]) + number(len(data)) + bytes([K_END])
    h += bytes([K_SUBSTREAMS])
    if len(members) > 1:
        h += bytes([K_NUM_UNPACK_STREAM]) + number(len(members)) + bytes([K_SIZE]) + b"".join(number(len(d)) for _, d in members[:-1])
    h += bytes([K_CRC, 1]) + b"".join(struct.pack("<I", zlib.crc32(d)) for _, d in members) + bytes([K_END, K_END])
    h += bytes([K_FILES]) + number(len(members))
    names = b"\x00" + b"".join((n + "\x00").encode("utf-16-le") for n, _ in members)
    # The record's prefix before the names: its id, its size, and the "not external" byte.
    h += _align_to_16(len(h), 2 + len(number(len(names))))
    h += bytes([K_NAME]) + number(len(names)) + names + bytes([K_END, K_END])
    with open(path, "wb") as f:
        f.write(start_header(len(data), h) + data + h)


class _Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def byte(self):
        self.pos += 1
        return self.data[self.pos - 1]

    def take(self, n):
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def number(self):
        first, mask, value = self.byte(), 0x80, 0
        for i in range(8):
            if not first & mask:
                return value | ((first & (mask - 1)) << (8 * i))
            value |= self.byte() << (8 * i)
            mask >>= 1
        return value


def _streams(r):
    """Pack position, packed sizes, per folder (coder id, props, unpack size) and substream sizes;
    only the shapes write_kaggle_7z writes (one folder, one coder)."""
    assert r.byte() == K_PACK
    pack_pos, n = r.number(), r.number()
    assert r.byte() == K_SIZE
    sizes = [r.number() for _ in range(n)]
    assert r.byte() == K_END
    assert r.byte() == K_UNPACK and r.byte() == K_FOLDER and r.number() == 1 and r.byte() == 0
    assert r.number() == 1
    flags = r.byte()
    coder_id = r.take(flags & 0x0F)
    props = r.take(r.number()) if flags & 0x20 else b""
    assert r.byte() == K_CODERS_UNPACK_SIZE
    unpack = r.number()
    kid = r.byte()
    if kid == K_CRC:
        r.take(5)
        kid = r.byte()
    assert kid == K_END
    counts = [unpack]
    kid = r.byte()
    if kid == K_SUBSTREAMS:
        kid = r.byte()
        if kid == K_NUM_UNPACK_STREAM:
            k = r.number()
            assert r.byte() == K_SIZE
            counts = [r.number() for _ in range(k - 1)]
            counts.append(unpack - sum(counts))
            kid = r.byte()
        while kid != K_END:
            assert kid == K_CRC
            r.take(1 + 4 * len(counts))
            kid = r.byte()
        kid = r.byte()
    assert kid == K_END
    return pack_pos, sizes[0], coder_id, props, unpack, counts


def _decode(blob, pack_pos, packed_len, coder_id, props, unpack):
    packed = blob[32 + pack_pos:32 + pack_pos + packed_len]
    if coder_id == b"\x00":
        return packed
    if coder_id == b"\x21":
        filters = [{"id": lzma.FILTER_LZMA2, "dict_size": (2 | (props[0] & 1)) << (props[0] // 2 + 11)}]
    else:
        d = props[0]
        filters = [{"id": lzma.FILTER_LZMA1, "lc": d % 9, "lp": d // 9 % 5, "pb": d // 45, "dict_size": struct.unpack("<I", props[1:5])[0]}]
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filters).decompress(packed, unpack)


def extract_7z(path):
    """{name: bytes or None for a directory} of an archive written by this module."""
    with open(path, "rb") as f:
        blob = f.read()
    off, size, _crc = struct.unpack("<QQI", blob[12:32])
    header = blob[32 + off:32 + off + size]
    if header[0] == K_ENCODED_HEADER:
        r = _Reader(header)
        r.pos = 1
        pack_pos, plen, cid, props, unpack, _ = _streams(r)
        header = _decode(blob, pack_pos, plen, cid, props, unpack)
    r = _Reader(header)
    assert r.byte() == K_HEADER and r.byte() == K_MAIN_STREAMS
    pack_pos, plen, cid, props, unpack, sizes = _streams(r)
    data = _decode(blob, pack_pos, plen, cid, props, unpack)
    assert r.byte() == K_FILES
    n = r.number()
    empty, names = [False] * n, []
    while True:
        kid = r.byte()
        if kid == K_END:
            break
        body = r.take(r.number())
        if kid == K_EMPTY_STREAM:
            empty = [bool(body[i // 8] & (0x80 >> (i % 8))) for i in range(n)]
        elif kid == K_NAME:
            names = body[1:].decode("utf-16-le").split("\x00")[:n]
    out, pos, k = {}, 0, 0
    for name, e in zip(names, empty):
        if e:
            out[name] = None
        else:
            out[name] = data[pos:pos + sizes[k]]
            pos += sizes[k]
            k += 1
    return out
