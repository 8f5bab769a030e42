import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { parquetMetadata } from "hyparquet";
import { parquetWriteBuffer, type ColumnSource } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { ParquetReader, ParquetWriter, takeValues, type ParquetField, type ParquetValues } from "../../src/io/parquet.js";
import { PREPARER_FIXTURES } from "../helpers/prepare-fixture.js";
import { tempDir } from "../helpers/data-dir.js";

const FIELDS: ParquetField[] = [
  { name: "i64", type: "int64", optional: false },
  { name: "i32", type: "int32", optional: false },
  { name: "f64", type: "double", optional: false },
  { name: "f32", type: "float", optional: false },
  { name: "ok", type: "boolean", optional: false },
  { name: "s", type: "string", optional: false },
];

/** Three rows per batch, with the values most likely to be mangled on the way: 64-bit extremes, NaN, -0, non-ASCII text. */
function batch(k: number): ParquetValues[] {
  return [
    { type: "int64", values: BigInt64Array.from([BigInt(k) * 2n ** 40n, -(2n ** 63n), 2n ** 63n - 1n]), nulls: null },
    { type: "int32", values: Int32Array.from([k, -k, 2 ** 31 - 1]), nulls: null },
    { type: "double", values: Float64Array.from([k / 3, NaN, -0]), nulls: null },
    { type: "float", values: Float32Array.from([0.5, k, -Infinity]), nulls: null },
    { type: "boolean", values: Uint8Array.from([1, 0, k % 2]), nulls: null },
    { type: "string", values: [`r${k}`, "", 'é\n,"😀'], nulls: null },
  ];
}

function writeBatches(file: string, batches: number, rowGroupRows: number): void {
  const w = new ParquetWriter(file, FIELDS, rowGroupRows);
  for (let k = 1; k <= batches; k++) w.append(batch(k));
  w.close();
}

function column(values: ParquetValues): unknown[] {
  return Array.from(values.values as ArrayLike<unknown>);
}

/** What {@link batch} holds for `name`, over batches 1..n. */
function expected(name: string, n: number): unknown[] {
  const k = FIELDS.findIndex((f) => f.name === name);
  return Array.from({ length: n }, (_, i) => column(batch(i + 1)[k])).flat();
}

async function readAll(file: string, names?: string[], maxRows?: number): Promise<Map<string, unknown[]>> {
  const r = await ParquetReader.open(file);
  try {
    const out = new Map<string, unknown[]>();
    let next = 0;
    for await (const part of r.parts(names, maxRows)) {
      expect(part.rowStart).toBe(next);
      next = part.rowEnd;
      for (const [n, v] of part.columns) out.set(n, [...(out.get(n) ?? []), ...column(v)]);
    }
    expect(next).toBe(r.numRows);
    return out;
  } finally {
    await r.close();
  }
}

/** The error opening `file` and reading all of it gives, or null. */
async function openError(file: string): Promise<unknown> {
  try {
    const r = await ParquetReader.open(file);
    try {
      await r.read(0, r.numRows);
    } finally {
      await r.close();
    }
    return null;
  } catch (e) {
    return e;
  }
}

describe("ParquetWriter + ParquetReader", () => {
  it("round-trips int64, int32, float64, float32, bool and string columns exactly, across row groups", async () => {
    const file = path.join(tempDir(), "w.parquet");
    writeBatches(file, 3, 4);
    const r = await ParquetReader.open(file);
    expect(r.fields).toEqual(FIELDS);
    expect(r.numRows).toBe(9);
    expect(r.rowGroups).toEqual([
      { rowStart: 0, rowEnd: 4 },
      { rowStart: 4, rowEnd: 8 },
      { rowStart: 8, rowEnd: 9 },
    ]);
    const all = await r.read(0, 9);
    await r.close();
    for (const f of FIELDS) {
      expect(all.get(f.name)!.type).toBe(f.type);
      expect(all.get(f.name)!.nulls).toBeNull();
      expect(column(all.get(f.name)!), f.name).toEqual(expected(f.name, 3));
    }
    expect(Object.is(column(all.get("f64")!)[2], -0)).toBe(true);
  });

  it("writes the fixed layout: required columns, PLAIN, uncompressed, one page per chunk, row groups of the size asked", () => {
    const file = path.join(tempDir(), "layout.parquet");
    writeBatches(file, 3, 4);
    const bytes = fs.readFileSync(file);
    const meta = parquetMetadata(bytes);
    expect(meta.version).toBe(1);
    expect(meta.created_by).toBe("mlebench-ts");
    expect(meta.schema.slice(1).map((e) => [e.name, e.type, e.repetition_type, e.converted_type])).toEqual([
      ["i64", "INT64", "REQUIRED", undefined],
      ["i32", "INT32", "REQUIRED", undefined],
      ["f64", "DOUBLE", "REQUIRED", undefined],
      ["f32", "FLOAT", "REQUIRED", undefined],
      ["ok", "BOOLEAN", "REQUIRED", undefined],
      ["s", "BYTE_ARRAY", "REQUIRED", "UTF8"],
    ]);
    expect(meta.row_groups.map((g) => g.num_rows)).toEqual([4n, 4n, 1n]);
    for (const g of meta.row_groups) {
      for (const c of g.columns) {
        expect(c.meta_data!.codec).toBe("UNCOMPRESSED");
        expect(c.meta_data!.encodings).toEqual(["PLAIN"]);
        expect(c.meta_data!.dictionary_page_offset).toBeUndefined();
      }
    }
    // The same rows appended in one call or many give the same bytes: the layout depends on the rows only.
    const again = path.join(tempDir(), "again.parquet");
    const w = new ParquetWriter(again, FIELDS, 4);
    const parts = [1, 2, 3].map(batch);
    w.append(FIELDS.map((_, k) => concatValues(parts.map((p) => p[k]))));
    w.close();
    expect(fs.readFileSync(again).equals(bytes)).toBe(true);
  });

  it("reads any row range, and parts of a row group, with the same values", async () => {
    const file = path.join(tempDir(), "ranges.parquet");
    writeBatches(file, 5, 6);
    const r = await ParquetReader.open(file);
    // Rows 4..11 straddle the first row group boundary (6).
    const mid = await r.read(4, 11, ["s", "i64"]);
    expect([...mid.keys()]).toEqual(["s", "i64"]);
    expect(column(mid.get("i64")!)).toEqual(expected("i64", 5).slice(4, 11));
    expect(column(mid.get("s")!)).toEqual(expected("s", 5).slice(4, 11));
    expect(column((await r.read(7, 7, ["ok"])).get("ok")!)).toEqual([]);
    await expect(r.read(0, 16)).rejects.toThrow(/outside the file's 15 rows/);
    await r.close();
    for (const maxRows of [1, 4, 6, 100]) {
      const got = await readAll(file, ["f64", "ok"], maxRows);
      expect(got.get("f64"), `maxRows ${maxRows}`).toEqual(expected("f64", 5));
      expect(got.get("ok"), `maxRows ${maxRows}`).toEqual(expected("ok", 5));
    }
  });

  it("appears under its name only when closed, and abort leaves nothing", () => {
    const dir = tempDir();
    const file = path.join(dir, "t.parquet");
    const w = new ParquetWriter(file, FIELDS, 2);
    w.append(batch(1));
    expect(fs.existsSync(file)).toBe(false);
    w.close();
    expect(fs.readdirSync(dir)).toEqual(["t.parquet"]);
    const aborted = new ParquetWriter(path.join(dir, "u.parquet"), FIELDS, 2);
    aborted.append(batch(2));
    aborted.abort();
    expect(fs.readdirSync(dir)).toEqual(["t.parquet"]);
  });

  it("takes rows in the order asked, null marks with them", () => {
    const v: ParquetValues = { type: "int64", values: BigInt64Array.from([10n, 0n, 30n]), nulls: Uint8Array.from([0, 1, 0]) };
    const t = takeValues(v, [2, 1, 2]);
    expect(column(t)).toEqual([30n, 0n, 30n]);
    expect(Array.from(t.nulls!)).toEqual([0, 1, 0]);
  });

  it("refuses missing values and mismatched columns", () => {
    const file = path.join(tempDir(), "n.parquet");
    const w = new ParquetWriter(file, [{ name: "x", type: "double", optional: false }]);
    expect(() => w.append([{ type: "double", values: Float64Array.from([1, 2]), nulls: Uint8Array.from([0, 1]) }])).toThrow(/n\.parquet: column "x" has missing values/);
    expect(() => w.append([{ type: "int64", values: BigInt64Array.from([1n]), nulls: null }])).toThrow(/column "x" is double, got int64/);
    w.abort();
    expect(() => new ParquetWriter(file, [{ name: "x", type: "double", optional: true }])).toThrow(/required columns only/);
  });
});

/** One values object holding all of `parts` (one type), in order. */
function concatValues(parts: ParquetValues[]): ParquetValues {
  const all = parts.flatMap(column);
  const typed = {
    int64: () => BigInt64Array.from(all as bigint[]),
    int32: () => Int32Array.from(all as number[]),
    double: () => Float64Array.from(all as number[]),
    float: () => Float32Array.from(all as number[]),
    boolean: () => Uint8Array.from(all as number[]),
    string: () => all as string[],
  };
  return { type: parts[0].type, values: typed[parts[0].type](), nulls: null } as ParquetValues;
}

describe("ParquetReader on other writers' files", () => {
  function write(file: string, columnData: ColumnSource[], opts: Omit<Parameters<typeof parquetWriteBuffer>[0], "columnData"> = {}): string {
    fs.writeFileSync(file, Buffer.from(parquetWriteBuffer({ columnData, ...opts })));
    return file;
  }

  it("reads nullable columns with gaps (Snappy, dictionaries, data page v2, several row groups and pages)", async () => {
    const n = 5000;
    const file = write(path.join(tempDir(), "nullable.parquet"), [
      { name: "batch", data: Array.from({ length: n }, (_, i) => (i % 7 === 3 ? null : BigInt(Math.floor(i / 1000)))), type: "INT64" },
      { name: "x", data: Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : i / 8)), type: "DOUBLE" },
      { name: "flag", data: Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : i % 2 === 0)), type: "BOOLEAN" },
      { name: "name", data: Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : ["a,é", "b", ""][i % 3])), type: "STRING" },
    ], { rowGroupSize: 1500, pageSize: 1000 });
    const r = await ParquetReader.open(file);
    expect(r.fields.map((f) => [f.name, f.type, f.optional])).toEqual([
      ["batch", "int64", true],
      ["x", "double", true],
      ["flag", "boolean", true],
      ["name", "string", true],
    ]);
    expect(r.rowGroups.length).toBe(4);
    await r.close();
    for (const maxRows of [700, 1 << 20]) {
      const got = await readAll(file, undefined, maxRows);
      expect(got.get("batch")).toEqual(Array.from({ length: n }, (_, i) => (i % 7 === 3 ? 0n : BigInt(Math.floor(i / 1000)))));
      expect(got.get("x")).toEqual(Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 0 : i / 8)));
      expect(got.get("flag")).toEqual(Array.from({ length: n }, (_, i) => (i % 11 === 0 ? 0 : Number(i % 2 === 0))));
      expect(got.get("name")).toEqual(Array.from({ length: n }, (_, i) => (i % 13 === 0 ? "" : ["a,é", "b", ""][i % 3])));
    }
    const r2 = await ParquetReader.open(file);
    const part = await r2.read(1490, 1510, ["x"]);
    await r2.close();
    expect(Array.from(part.get("x")!.nulls!)).toEqual(Array.from({ length: 20 }, (_, i) => Number((1490 + i) % 5 === 0)));
  });

  it("reads gzip pages through node:zlib", async () => {
    const file = write(path.join(tempDir(), "gzip.parquet"), [{ name: "v", data: Float64Array.from([1.25, -2, 3e300]), type: "DOUBLE", nullable: false }], {
      codec: "GZIP",
      compressors: { GZIP: (b: Uint8Array) => zlib.gzipSync(b) },
    });
    const r = await ParquetReader.open(file);
    expect(column((await r.read(0, 3)).get("v")!)).toEqual([1.25, -2, 3e300]);
    await r.close();
  });

  it("reads the Kaggle-shaped fixture (pyarrow-like pages v1 and v2) and ignores pandas' RangeIndex", async () => {
    const r = await ParquetReader.open(path.join(PREPARER_FIXTURES, "icecube-neutrinos-in-deep-ice", "raw", "train_meta.parquet"));
    expect(r.fields.map((f) => f.name)).toEqual(["batch_id", "event_id", "first_pulse_index", "last_pulse_index", "azimuth", "zenith"]);
    expect(r.indexColumns).toEqual([]);
    expect(r.numRows).toBe(1200);
    const whole = await r.read(0, 1200, ["event_id"]);
    let joined: unknown[] = [];
    for await (const p of r.parts(["event_id"], 333)) joined = joined.concat(column(p.columns.get("event_id")!));
    await r.close();
    expect(joined).toEqual(column(whole.get("event_id")!));
  });

  it("refuses columns pandas would not read as plain numbers, booleans or text, naming them", async () => {
    const dir = tempDir();
    const stamp = write(path.join(dir, "ts.parquet"), [{ name: "when", data: [new Date(0)], type: "TIMESTAMP" }]);
    await expect(ParquetReader.open(stamp)).rejects.toThrow(/ts\.parquet: column "when" carries a logical type/);
    const raw = write(path.join(dir, "raw.parquet"), [{ name: "blob", data: [Uint8Array.from([1, 2])], type: "BYTE_ARRAY" }]);
    await expect(ParquetReader.open(raw)).rejects.toThrow(/column "blob" holds raw bytes/);
    const list = write(path.join(dir, "list.parquet"), [{ name: "xs", data: [[1, 2]] }], {
      schema: [
        { name: "root", num_children: 1 },
        { name: "xs", repetition_type: "OPTIONAL", num_children: 1, converted_type: "LIST" },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        { name: "element", type: "INT32", repetition_type: "OPTIONAL" },
      ],
    });
    await expect(ParquetReader.open(list)).rejects.toThrow(/list\.parquet: nested Parquet schemas are not supported/);
  });

  it("refuses text that is not UTF-8", async () => {
    const file = write(path.join(tempDir(), "latin1.parquet"), [{ name: "s", data: [Uint8Array.from([0x63, 0x61, 0x66, 0xe9])], type: "STRING" }], { statistics: false });
    const err = await openError(file);
    expect(err).toBeInstanceOf(UserError);
    expect(String(err)).toMatch(/latin1\.parquet: .*not valid UTF-8/);
  });
});

describe("ParquetReader errors", () => {
  function good(dir: string): string {
    const file = path.join(dir, "good.parquet");
    writeBatches(file, 4, 5);
    return file;
  }

  it("names the file when it is not Parquet, is missing, or is truncated", async () => {
    const dir = tempDir();
    const junk = path.join(dir, "bad.parquet");
    fs.writeFileSync(junk, "not a parquet file at all");
    const e1 = await openError(junk);
    expect(e1).toBeInstanceOf(UserError);
    expect(String(e1)).toMatch(/bad\.parquet: not a readable Parquet file/);

    await expect(ParquetReader.open(path.join(dir, "absent.parquet"))).rejects.toThrow(/absent\.parquet does not exist/);

    const bytes = fs.readFileSync(good(dir));
    const cut = path.join(dir, "cut.parquet");
    fs.writeFileSync(cut, bytes.subarray(0, bytes.length - 10));
    const e2 = await openError(cut);
    expect(e2).toBeInstanceOf(UserError);
    expect(String(e2)).toMatch(/cut\.parquet: /);
  });

  it("names the file when the data its footer describes is damaged", async () => {
    const dir = tempDir();
    const bytes = fs.readFileSync(good(dir));
    const meta = parquetMetadata(bytes);
    // Overwrite the first data page's header (Thrift) with garbage: its sizes become nonsense.
    const at = Number(meta.row_groups[0].columns[0].meta_data!.data_page_offset);
    const broken = Buffer.from(bytes);
    broken.fill(0xff, at, at + 12);
    const file = path.join(dir, "broken.parquet");
    fs.writeFileSync(file, broken);
    const err = await openError(file);
    expect(err).toBeInstanceOf(UserError);
    expect(String(err)).toMatch(/broken\.parquet: /);
  });

  it("names a missing column and lists the ones there are", async () => {
    const r = await ParquetReader.open(good(tempDir()));
    await expect(r.read(0, 1, ["i64", "nope"])).rejects.toThrow(/good\.parquet: no column "nope" \(columns: i64, i32, f64, f32, ok, s\)/);
    await expect(r.parts(["nope"]).next()).rejects.toThrow(UserError);
    await r.close();
  });
});
