import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { decodeHybrid, ParquetReader, ParquetWriter, type ParquetValues } from "../../src/io/parquet.js";
import { snappyDecompress } from "../../src/io/snappy.js";
import { ThriftReader, ThriftWriter, type ThriftOut } from "../../src/io/thrift-compact.js";
import { tempDir } from "../helpers/data-dir.js";

const i32 = (v: number): ThriftOut => ({ t: "i32", v });
const i64 = (v: number): ThriftOut => ({ t: "i64", v });
const str = (v: string): ThriftOut => ({ t: "binary", v });
const st = (v: [number, ThriftOut][]): ThriftOut => ({ t: "struct", v });

/** Snappy with literals only: valid input for any decoder. */
function snappyLiterals(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let n = data.length;
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  for (let i = 0; i < data.length; i += 60) {
    const piece = data.subarray(i, i + 60);
    out.push((piece.length - 1) << 2, ...piece);
  }
  return Uint8Array.from(out);
}

function le32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
}

interface PageSpec {
  type: number;
  body: Uint8Array;
  header: [number, ThriftOut];
  /** uncompressed_page_size when it is not the body's length (a v2 page's values are stored compressed). */
  raw?: number;
}

/**
 * A one-row-group file with an optional double column ("score", gaps, gzip, two v1 pages with
 * bit-packed definition levels) and a dictionary-encoded text column ("name", Snappy, v2 page).
 */
function handBuiltFile(): Buffer {
  const parts: Buffer[] = [Buffer.from("PAR1")];
  let offset = 4;
  const chunks: ThriftOut[] = [];
  const emit = (pages: PageSpec[], codec: number, compress: (b: Uint8Array) => Uint8Array, physical: number, name: string, rows: number, dictFirst: boolean) => {
    const start = offset;
    let dataOffset = start;
    pages.forEach((p, k) => {
      if (k === 1 && dictFirst) dataOffset = offset;
      const comp = p.type === 3 ? p.body : compress(p.body);
      const header = new ThriftWriter().struct([[1, i32(p.type)], [2, i32(p.raw ?? p.body.length)], [3, i32(comp.length)], p.header]).bytes();
      parts.push(Buffer.from(header), Buffer.from(comp));
      offset += header.length + comp.length;
    });
    const meta: [number, ThriftOut][] = [
      [1, i32(physical)],
      [2, { t: "list", elem: "i32", v: [i32(0)] }],
      [3, { t: "list", elem: "binary", v: [str(name)] }],
      [4, i32(codec)],
      [5, i64(rows)],
      [6, i64(offset - start)],
      [7, i64(offset - start)],
      [9, i64(dataOffset)],
    ];
    if (dictFirst) meta.push([11, i64(start)]);
    chunks.push(st([[2, i64(start)], [3, st(meta)]]));
  };
  // score: rows 1.5, null, 2.5 | null, -0.25 ; definition levels 1,0,1 and 0,1 bit-packed.
  const doubles = (...v: number[]) => Buffer.concat(v.map((x) => { const b = Buffer.alloc(8); b.writeDoubleLE(x); return b; }));
  const defs = (bits: number) => Buffer.from([0x03, bits]);
  const v1 = (n: number) => [5, st([[1, i32(n)], [2, i32(0)], [3, i32(3)], [4, i32(3)]])] as [number, ThriftOut];
  emit(
    [
      { type: 0, body: Buffer.concat([le32(2), defs(0b101), doubles(1.5, 2.5)]), header: v1(3) },
      { type: 0, body: Buffer.concat([le32(2), defs(0b10), doubles(-0.25)]), header: v1(2) },
    ],
    2,
    (b) => zlib.gzipSync(b),
    5,
    "score",
    5,
    false,
  );
  // name: dictionary ["b", "a,é"], indices 1,0,0,1,1 as one RLE run then a bit-packed group.
  const dict = Buffer.concat([le32(1), Buffer.from("b"), le32(4), Buffer.from("a,é")]);
  const indices = Buffer.from([1, 0x02, 1, 0x03, 0b1100]);
  const values = snappyLiterals(indices);
  emit(
    [
      { type: 2, body: dict, header: [7, st([[1, i32(2)], [2, i32(0)]])] },
      {
        type: 3,
        body: Buffer.concat([Buffer.from([0x0a, 1]), values]),
        raw: 2 + indices.length,
        header: [8, st([[1, i32(5)], [2, i32(0)], [3, i32(5)], [4, i32(8)], [5, i32(2)], [6, i32(0)]])],
      },
    ],
    1,
    snappyLiterals,
    6,
    "name",
    5,
    true,
  );
  const schema: ThriftOut[] = [
    st([[4, str("schema")], [5, i32(2)]]),
    st([[1, i32(5)], [3, i32(1)], [4, str("score")]]),
    st([[1, i32(6)], [3, i32(1)], [4, str("name")], [6, i32(0)]]),
  ];
  const footer = new ThriftWriter()
    .struct([
      [1, i32(1)],
      [2, { t: "list", elem: "struct", v: schema }],
      [3, i64(5)],
      [4, { t: "list", elem: "struct", v: [st([[1, { t: "list", elem: "struct", v: chunks }], [2, i64(0)], [3, i64(5)]])] }],
    ])
    .bytes();
  parts.push(Buffer.from(footer), le32(footer.length), Buffer.from("PAR1"));
  return Buffer.concat(parts);
}

describe("snappy", () => {
  it("expands literals and overlapping copies", () => {
    // "abc" then a 9-byte copy from 3 back (a run that overlaps its own output).
    const block = Uint8Array.from([12, 0x08, 97, 98, 99, 0x15, 3]);
    expect(Buffer.from(snappyDecompress(block)).toString()).toBe("abcabcabcabc");
  });

  it("rejects a copy reaching before the start", () => {
    expect(() => snappyDecompress(Uint8Array.from([8, 0x15, 3]))).toThrow(/outside/);
  });
});

describe("thrift compact", () => {
  it("round-trips structs, lists, negative and 64-bit ints, and long field gaps", () => {
    const bytes = new ThriftWriter()
      .struct([
        [1, i32(-3)],
        [2, { t: "bool", v: true }],
        [40, { t: "i64", v: -(2n ** 40n) }],
        [41, { t: "list", elem: "binary", v: Array.from({ length: 20 }, (_, k) => str(`s${k}`)) }],
        [42, st([[1, str("in")]])],
      ])
      .bytes();
    const s = new ThriftReader(bytes).struct();
    expect(s.get(1)).toBe(-3);
    expect(s.get(2)).toBe(true);
    expect(s.get(40)).toBe(-(2n ** 40n));
    expect((s.get(41) as Uint8Array[]).map((b) => Buffer.from(b).toString())[19]).toBe("s19");
    expect(Buffer.from((s.get(42) as Map<number, Uint8Array>).get(1)!).toString()).toBe("in");
  });
});

describe("parquet", () => {
  it("reads optional columns, dictionaries, gzip, Snappy and data page v2", () => {
    const file = path.join(tempDir(), "hand.parquet");
    fs.writeFileSync(file, handBuiltFile());
    const r = ParquetReader.open(file);
    expect(r.fields).toEqual([
      { name: "score", type: "double", optional: true },
      { name: "name", type: "string", optional: true },
    ]);
    const g = r.readRowGroup(0);
    const score = g.get("score")!;
    expect(Array.from(score.values as Float64Array)).toEqual([1.5, 0, 2.5, 0, -0.25]);
    expect(Array.from(score.nulls!)).toEqual([0, 1, 0, 1, 0]);
    const name = g.get("name")!;
    expect(name.values).toEqual(["a,é", "b", "b", "a,é", "a,é"]);
    expect(name.nulls).toBeNull();
    r.close();
  });

  it("writes what it reads back, across row groups, for every supported type", () => {
    const file = path.join(tempDir(), "w.parquet");
    const fields = [
      { name: "i64", type: "int64", optional: false },
      { name: "i32", type: "int32", optional: false },
      { name: "f64", type: "double", optional: false },
      { name: "f32", type: "float", optional: false },
      { name: "ok", type: "boolean", optional: false },
      { name: "s", type: "string", optional: false },
    ] as const;
    const w = new ParquetWriter(file, fields.map((f) => ({ ...f })), 4);
    const batch = (k: number): ParquetValues[] => [
      { type: "int64", values: BigInt64Array.from([BigInt(k) * 2n ** 40n, -1n, 9007199254740993n]), nulls: null },
      { type: "int32", values: Int32Array.from([k, -k, 2 ** 31 - 1]), nulls: null },
      { type: "double", values: Float64Array.from([k / 3, NaN, -0]), nulls: null },
      { type: "float", values: Float32Array.from([0.5, k, -2]), nulls: null },
      { type: "boolean", values: Uint8Array.from([1, 0, k % 2]), nulls: null },
      { type: "string", values: [`r${k}`, "", "é\n,\""], nulls: null },
    ];
    w.append(batch(1));
    w.append(batch(2));
    w.append(batch(3));
    w.close();
    const r = ParquetReader.open(file);
    expect(r.numRows).toBe(9);
    expect(r.rowGroupCount).toBe(3);
    expect([0, 1, 2].map((g) => r.rowGroupRows(g))).toEqual([4, 4, 1]);
    const all = [0, 1, 2].map((g) => r.readRowGroup(g));
    const column = (n: string) => all.flatMap((g) => Array.from(g.get(n)!.values as ArrayLike<unknown>));
    expect(column("i64")).toEqual([2n ** 40n, -1n, 9007199254740993n, 2n ** 41n, -1n, 9007199254740993n, 3n * 2n ** 40n, -1n, 9007199254740993n]);
    expect(column("i32")).toEqual([1, -1, 2 ** 31 - 1, 2, -2, 2 ** 31 - 1, 3, -3, 2 ** 31 - 1]);
    expect(column("f64")).toEqual([1 / 3, NaN, -0, 2 / 3, NaN, -0, 1, NaN, -0]);
    expect(column("f32")).toEqual([0.5, 1, -2, 0.5, 2, -2, 0.5, 3, -2]);
    expect(column("ok")).toEqual([1, 0, 1, 1, 0, 0, 1, 0, 1]);
    expect(column("s")[2]).toBe("é\n,\"");
    r.close();
  });

  it("decodes the RLE / bit-packed hybrid", () => {
    // RLE run of three 5s (width 3), then one bit-packed group: 0..7.
    const data = Uint8Array.from([0x06, 5, 0x03, 0b10001000, 0b11000110, 0b11111010]);
    expect(Array.from(decodeHybrid(data, 3, 11))).toEqual([5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("names the file when it is not Parquet", () => {
    const file = path.join(tempDir(), "bad.parquet");
    fs.writeFileSync(file, "not a parquet file at all");
    expect(() => ParquetReader.open(file)).toThrow(UserError);
    expect(() => ParquetReader.open(file)).toThrow(/bad\.parquet is not a Parquet file/);
  });
});
