"""Pure-Python Parquet for the oracles (Debian's Python has neither pyarrow nor fastparquet).

- write_like_pyarrow: raw files shaped the way Kaggle's are (optional columns, dictionary pages,
  Snappy, several row groups and pages, one column in data page v2), to exercise a reader.
- read_parquet: the subset of the format those files use, into a DataFrame.
- write_plain: the fixed layout mlebench-ts writes (required columns, PLAIN, uncompressed, one
  page per column chunk, row groups of 2**20 rows), so its output can be compared by md5.
"""
import json
import struct

import numpy as np
import pandas as pd

# -------------------------------------------------------------------------------------------
# Thrift compact protocol. Values to encode are (type, value) pairs; structs are lists of
# (field_id, (type, value)) in increasing id order.

T_TRUE, T_FALSE, T_BYTE, T_I16, T_I32, T_I64, T_DOUBLE, T_BINARY, T_LIST, T_SET, T_MAP, T_STRUCT = range(1, 13)
CODE = {"i32": T_I32, "i64": T_I64, "binary": T_BINARY, "list": T_LIST, "struct": T_STRUCT}


def _varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _zigzag(v):
    return _varint((v << 1) ^ (v >> 63) if v < 0 else v << 1)


def t_struct(fields):
    out = bytearray()
    last = 0
    for fid, (kind, value) in fields:
        code = (T_TRUE if value else T_FALSE) if kind == "bool" else CODE[kind]
        delta = fid - last
        if 0 < delta <= 15:
            out.append((delta << 4) | code)
        else:
            out.append(code)
            out += _zigzag(fid)
        last = fid
        if kind != "bool":
            out += _body(kind, value)
    out.append(0)
    return bytes(out)


def _body(kind, value):
    if kind in ("i32", "i64"):
        return _zigzag(value)
    if kind == "binary":
        b = value.encode() if isinstance(value, str) else value
        return _varint(len(b)) + b
    if kind == "struct":
        return t_struct(value)
    if kind == "list":
        elem, items = value
        n = len(items)
        head = bytes([(n << 4) | CODE[elem]]) if n < 15 else bytes([0xF0 | CODE[elem]]) + _varint(n)
        return head + b"".join(_body(elem, item) for item in items)
    raise ValueError(kind)


class _Reader:
    def __init__(self, buf, pos=0):
        self.buf, self.pos = buf, pos

    def byte(self):
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def varint(self):
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return result

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def struct(self):
        out, last = {}, 0
        while True:
            head = self.byte()
            if head == 0:
                return out
            delta, kind = head >> 4, head & 0x0F
            fid = last + delta if delta else self.zigzag()
            last = fid
            out[fid] = self.value(kind)

    def value(self, kind):
        if kind == T_TRUE:
            return True
        if kind == T_FALSE:
            return False
        if kind == T_BYTE:
            return self.byte()
        if kind in (T_I16, T_I32, T_I64):
            return self.zigzag()
        if kind == T_DOUBLE:
            self.pos += 8
            return struct.unpack("<d", self.buf[self.pos - 8:self.pos])[0]
        if kind == T_BINARY:
            n = self.varint()
            self.pos += n
            return bytes(self.buf[self.pos - n:self.pos])
        if kind in (T_LIST, T_SET):
            head = self.byte()
            n = head >> 4
            if n == 15:
                n = self.varint()
            elem = head & 0x0F
            return [self.byte() == 1 if elem in (T_TRUE, T_FALSE) else self.value(elem) for _ in range(n)]
        if kind == T_STRUCT:
            return self.struct()
        raise ValueError("thrift type %d" % kind)


# -------------------------------------------------------------------------------------------
# Snappy (raw block format).

def snappy_compress(data):
    out = bytearray(_varint(len(data)))
    table = {}
    i = lit = 0
    n = len(data)

    def literal(a, b):
        while a < b:
            k = min(b - a, 60)
            out.append((k - 1) << 2)
            out.extend(data[a:a + k])
            a += k

    while i + 4 <= n:
        key = data[i:i + 4]
        cand = table.get(key)
        table[key] = i
        if cand is None or i - cand > 0xFFFF:
            i += 1
            continue
        length = 4
        while i + length < n and length < 64 and data[cand + length] == data[i + length]:
            length += 1
        literal(lit, i)
        offset = i - cand
        if length <= 11 and offset < 2048:
            out.append(1 | ((length - 4) << 2) | ((offset >> 8) << 5))
            out.append(offset & 0xFF)
        else:
            out.append(2 | ((length - 1) << 2))
            out += struct.pack("<H", offset)
        i += length
        lit = i
    literal(lit, n)
    return bytes(out)


def snappy_decompress(src):
    r = _Reader(src)
    n = r.varint()
    out = bytearray()
    while r.pos < len(src):
        tag = r.byte()
        kind = tag & 3
        if kind == 0:
            k = tag >> 2
            if k >= 60:
                extra = k - 59
                k = int.from_bytes(src[r.pos:r.pos + extra], "little")
                r.pos += extra
            k += 1
            out += src[r.pos:r.pos + k]
            r.pos += k
            continue
        if kind == 1:
            length, offset = 4 + ((tag >> 2) & 7), ((tag >> 5) << 8) | r.byte()
        elif kind == 2:
            length, offset = (tag >> 2) + 1, int.from_bytes(src[r.pos:r.pos + 2], "little")
            r.pos += 2
        else:
            length, offset = (tag >> 2) + 1, int.from_bytes(src[r.pos:r.pos + 4], "little")
            r.pos += 4
        for _ in range(length):
            out.append(out[-offset])
    assert len(out) == n
    return bytes(out)


# -------------------------------------------------------------------------------------------
# Values.

PHYSICAL = {"int32": 1, "int64": 2, "float32": 4, "float64": 5, "bool": 0}
FMT = {1: "<i", 2: "<q", 4: "<f", 5: "<d"}


def _plain(values, physical):
    if physical == 0:
        out = bytearray((len(values) + 7) // 8)
        for i, v in enumerate(values):
            out[i >> 3] |= int(bool(v)) << (i & 7)
        return bytes(out)
    fmt = FMT[physical]
    return b"".join(struct.pack(fmt, v.item() if hasattr(v, "item") else v) for v in values)


def _bitpacked(values, width):
    """The hybrid encoding as bit-packed groups of eight only (the last group zero-padded)."""
    groups = (len(values) + 7) // 8
    padded = list(values) + [0] * (groups * 8 - len(values))
    acc = bits = 0
    out = bytearray(_varint((groups << 1) | 1))
    for v in padded:
        acc |= int(v) << bits
        bits += width
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    if bits:
        out.append(acc & 0xFF)
    return bytes(out)


def _all_defined(n):
    """Definition levels of n present values: one RLE run of 1s."""
    return _varint(n << 1) + b"\x01"


def _hybrid(data, pos, width, count):
    out = []
    r = _Reader(data, pos)
    nbytes = (width + 7) // 8
    while len(out) < count:
        header = r.varint()
        if header & 1:
            groups = header >> 1
            chunk = data[r.pos:r.pos + groups * width]
            r.pos += groups * width
            acc = int.from_bytes(chunk, "little")
            for i in range(groups * 8):
                out.append((acc >> (i * width)) & ((1 << width) - 1))
        else:
            v = int.from_bytes(data[r.pos:r.pos + nbytes], "little")
            r.pos += nbytes
            out += [v] * (header >> 1)
    return out[:count]


# -------------------------------------------------------------------------------------------
# Writing like pyarrow.

def _page(kind, header_fields, body, codec):
    comp = snappy_compress(body) if codec == 1 else body
    header = t_struct([(1, ("i32", kind)), (2, ("i32", len(body))), (3, ("i32", len(comp)))] + header_fields)
    return header + comp


def write_like_pyarrow(df, path, row_group_rows, page_rows, dictionary=(), v2=()):
    """Optional columns, Snappy pages; `dictionary` columns dictionary-encoded, `v2` columns in data page v2."""
    names = list(df.columns)
    physical = {c: PHYSICAL[str(df[c].dtype)] for c in names}
    out = bytearray(b"PAR1")
    groups = []
    for start in range(0, len(df), row_group_rows):
        part = df.iloc[start:start + row_group_rows]
        chunks = []
        for c in names:
            values = part[c].tolist()
            offset = len(out)
            dict_offset = None
            encoding = 0
            if c in dictionary:
                uniq = list(dict.fromkeys(values))
                index = {v: k for k, v in enumerate(uniq)}
                dict_offset = offset
                out += _page(2, [(7, ("struct", [(1, ("i32", len(uniq))), (2, ("i32", 0))]))], _plain(uniq, physical[c]), 1)
                width = max(1, (len(uniq) - 1).bit_length())
                encoding = 8
            data_offset = len(out)
            for p in range(0, len(values), page_rows):
                vals = values[p:p + page_rows]
                defs = _all_defined(len(vals))
                payload = bytes([width]) + _bitpacked([index[v] for v in vals], width) if encoding == 8 else _plain(vals, physical[c])
                if c in v2:
                    comp = snappy_compress(payload)
                    header = t_struct([
                        (1, ("i32", 3)), (2, ("i32", len(defs) + len(payload))), (3, ("i32", len(defs) + len(comp))),
                        (8, ("struct", [(1, ("i32", len(vals))), (2, ("i32", 0)), (3, ("i32", len(vals))), (4, ("i32", encoding)),
                                        (5, ("i32", len(defs))), (6, ("i32", 0))])),
                    ])
                    out += header + defs + comp
                else:
                    body = struct.pack("<I", len(defs)) + defs + payload
                    out += _page(0, [(5, ("struct", [(1, ("i32", len(vals))), (2, ("i32", encoding)), (3, ("i32", 3)), (4, ("i32", 3))]))], body, 1)
            meta = [(1, ("i32", physical[c])), (2, ("list", ("i32", [0, 3] + ([encoding] if encoding else [])))),
                    (3, ("list", ("binary", [c]))), (4, ("i32", 1)), (5, ("i64", len(values))),
                    (6, ("i64", len(out) - offset)), (7, ("i64", len(out) - offset)), (9, ("i64", data_offset))]
            if dict_offset is not None:
                meta.append((11, ("i64", dict_offset)))
            chunks.append(("struct", [(2, ("i64", offset)), (3, ("struct", meta))]))
        groups.append(("struct", [(1, ("list", ("struct", [v for _, v in chunks]))), (2, ("i64", 0)), (3, ("i64", len(part)))]))
    schema = [[(4, ("binary", "schema")), (5, ("i32", len(names)))]]
    schema += [[(1, ("i32", physical[c])), (3, ("i32", 1)), (4, ("binary", c))] for c in names]
    pandas_meta = json.dumps({"index_columns": [{"kind": "range", "name": None, "start": 0, "stop": len(df), "step": 1}],
                              "columns": [{"name": c} for c in names]})
    footer = t_struct([
        (1, ("i32", 2)), (2, ("list", ("struct", schema))), (3, ("i64", len(df))),
        (4, ("list", ("struct", [v for _, v in groups]))),
        (5, ("list", ("struct", [[(1, ("binary", "pandas")), (2, ("binary", pandas_meta))]]))),
        (6, ("binary", "parquet-cpp-arrow version 10.0.1")),
    ])
    out += footer + struct.pack("<I", len(footer)) + b"PAR1"
    with open(path, "wb") as f:
        f.write(out)


# -------------------------------------------------------------------------------------------
# Reading.

DTYPE = {1: np.int32, 2: np.int64, 4: np.float32, 5: np.float64, 0: np.bool_}


def _decode_plain(data, pos, physical, n):
    if physical == 0:
        return [(data[pos + (i >> 3)] >> (i & 7)) & 1 for i in range(n)]
    fmt = FMT[physical]
    size = struct.calcsize(fmt)
    return [struct.unpack_from(fmt, data, pos + size * i)[0] for i in range(n)]


def _decompress(codec, data):
    return snappy_decompress(data) if codec == 1 else data


def read_parquet(path):
    with open(path, "rb") as f:
        buf = f.read()
    footer_len = struct.unpack("<I", buf[-8:-4])[0]
    meta = _Reader(buf, len(buf) - 8 - footer_len).struct()
    leaves = meta[2][1:]
    columns = {leaf[4].decode(): [] for leaf in leaves}
    for group in meta.get(4, []):
        for leaf, chunk in zip(leaves, group[1]):
            cm = chunk[3]
            name, physical, optional = leaf[4].decode(), leaf[1], leaf.get(3, 0) == 1
            pos = cm.get(11) or cm[9]
            end = pos + cm[7]
            dictionary = None
            while pos < end:
                r = _Reader(buf, pos)
                h = r.struct()
                body = buf[r.pos:r.pos + h[3]]
                pos = r.pos + h[3]
                if h[1] == 2:
                    dictionary = _decode_plain(_decompress(cm[4], body), 0, physical, h[7][1])
                    continue
                if h[1] == 0:
                    d = h[5]
                    data = _decompress(cm[4], body)
                    n, encoding, p = d[1], d[2], 0
                    if optional:
                        k = struct.unpack_from("<I", data, 0)[0]
                        defs = _hybrid(data, 4, 1, n)
                        p = 4 + k
                else:
                    d = h[8]
                    n, encoding = d[1], d[4]
                    defs = _hybrid(body, 0, 1, n) if optional else None
                    rest = body[d[5] + d[6]:]
                    data, p = (_decompress(cm[4], rest) if d.get(7, True) else rest), 0
                    if not optional:
                        defs = None
                present = sum(defs) if optional else n
                if encoding == 0:
                    vals = _decode_plain(data, p, physical, present)
                else:
                    vals = [dictionary[k] for k in _hybrid(data, p + 1, data[p], present)]
                assert not optional or present == n, "nulls are not used by these fixtures"
                columns[name] += vals
    return pd.DataFrame({name: np.array(vals, dtype=DTYPE[leaf[1]]) for (name, vals), leaf in zip(columns.items(), leaves)})


# -------------------------------------------------------------------------------------------
# Writing mlebench-ts' layout.

ROW_GROUP_ROWS = 1 << 20


def write_plain(df, path):
    names = list(df.columns)
    physical = {c: PHYSICAL[str(df[c].dtype)] for c in names}
    out = bytearray(b"PAR1")
    groups = []
    for start in range(0, len(df), ROW_GROUP_ROWS):
        part = df.iloc[start:start + ROW_GROUP_ROWS]
        chunks = []
        total = 0
        for c in names:
            values = _plain(part[c].tolist(), physical[c])
            header = t_struct([(1, ("i32", 0)), (2, ("i32", len(values))), (3, ("i32", len(values))),
                               (5, ("struct", [(1, ("i32", len(part))), (2, ("i32", 0)), (3, ("i32", 3)), (4, ("i32", 3))]))])
            offset = len(out)
            out += header + values
            size = len(header) + len(values)
            total += size
            chunks.append([(2, ("i64", offset)), (3, ("struct", [
                (1, ("i32", physical[c])), (2, ("list", ("i32", [0]))), (3, ("list", ("binary", [c]))), (4, ("i32", 0)),
                (5, ("i64", len(part))), (6, ("i64", size)), (7, ("i64", size)), (9, ("i64", offset))]))])
        groups.append([(1, ("list", ("struct", chunks))), (2, ("i64", total)), (3, ("i64", len(part)))])
    schema = [[(4, ("binary", "schema")), (5, ("i32", len(names)))]]
    schema += [[(1, ("i32", physical[c])), (3, ("i32", 0)), (4, ("binary", c))] for c in names]
    footer = t_struct([(1, ("i32", 1)), (2, ("list", ("struct", schema))), (3, ("i64", len(df))),
                       (4, ("list", ("struct", groups))), (6, ("binary", "mlebench-ts"))])
    out += footer + struct.pack("<I", len(footer)) + b"PAR1"
    with open(path, "wb") as f:
        f.write(out)
