import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { makeTable, type Column, type Table } from "../../src/core/table.js";
import { readCsv } from "../../src/io/csv-read.js";
import { formatCsv } from "../../src/io/csv-write.js";
import { selectColumns, takeRows, trainTestSplitTable } from "../../src/prepare/frame.js";
import { scanCsv, splitRows, writeCsvRows, type WriteRowsOptions } from "../../src/prepare/stream-split.js";
import { Mulberry32 } from "../../src/rng/mulberry32.js";
import { trainTestSplitIndices } from "../../src/rng/sklearn-split.js";
import { golden } from "../io/golden.js";

const dir = mkdtempSync(join(tmpdir(), "mlebench-stream-split-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;

function tmpFile(data: string | Uint8Array): string {
  const p = join(dir, `in-${serial++}.csv`);
  writeFileSync(p, data);
  return p;
}

/** The streaming path's output for rows `rows` of the file. */
function streamed(file: string, rows: ArrayLike<number>, chunkBytes?: number, write: WriteRowsOptions = {}): string {
  const scan = scanCsv(file, { chunkBytes });
  const out = join(dir, `out-${serial++}.csv`);
  writeCsvRows(scan, rows, out, write);
  return readFileSync(out, "utf8");
}

/** The in-memory path's output: readCsv, iloc, to_csv. */
function inMemory(file: string, rows: ArrayLike<number>, columns?: string[]): string {
  let t: Table = takeRows(readCsv(file), rows);
  if (columns) t = selectColumns(t, columns);
  return formatCsv(t);
}

/** Tiny sizes, so that records straddle reads, blocks hold a few rows and windows a record or two. */
const TINY: WriteRowsOptions[] = [
  { blockRows: 1, windowBytes: 1, gapBytes: 0 },
  { blockRows: 3, blockBytes: 40, windowBytes: 17, gapBytes: 5 },
  { blockBytes: 1, windowBytes: 64, gapBytes: 1 << 20 },
  {},
];

function shuffled(n: number, seed: number): number[] {
  return new Mulberry32(seed).shuffle(Array.from({ length: n }, (_, i) => i));
}

describe("streamed rows against readCsv + formatCsv on csv-read's pandas golden inputs", () => {
  const ok = golden.read.filter((c) => c.error === undefined);
  it("has the cases", () => expect(ok.length).toBeGreaterThan(300));
  for (const [n, c] of ok.entries()) {
    it(c.name, () => {
      const file = tmpFile(Buffer.from(c.input_b64, "base64"));
      const rows = readCsv(file).rowCount;
      const order = shuffled(rows, n + 1);
      const want = inMemory(file, order);
      // Each case gets one of the small chunk sizes and block layouts, in turn, to keep the suite quick.
      expect(streamed(file, order, 1 + (n % 7), TINY[n % TINY.length])).toBe(want);
    });
  }

  const bad = golden.read.filter((c) => c.error !== undefined);
  for (const c of bad) {
    it(`refuses ${c.name}`, () => {
      const file = tmpFile(Buffer.from(c.input_b64, "base64"));
      expect(() => scanCsv(file, { chunkBytes: 3 })).toThrow(UserError);
    });
  }
});

/** A taxi-shaped file with the awkward spellings: NaN dropoffs, ints with gaps, long and short decimals. */
function taxiText(rows: number, seed: number): string {
  const rnd = new Mulberry32(seed);
  const lines = ["key,fare_amount,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude,passenger_count"];
  const coord = (centre: number): string => {
    const u = rnd.next();
    if (u < 0.03) return u < 0.015 ? "0" : "0.0";
    if (u < 0.06) return String(Math.fround(centre + rnd.next() / 10));
    if (u < 0.08) return (centre + rnd.next() / 10).toFixed(6); // trailing zeros possible
    return String(Math.round((centre + rnd.next() / 10) * 1e6) / 1e6);
  };
  for (let i = 0; i < rows; i++) {
    const t = new Date(Date.UTC(2009, 0, 1) + Math.floor(rnd.next() * 2e11)).toISOString().slice(0, 19).replace("T", " ");
    const fare = rnd.next() < 0.1 ? String(rnd.below(60)) : String(Math.round(rnd.next() * 6000) / 100);
    const drop = rnd.next() < 0.05 ? ["", ""] : [coord(-74), coord(40.7)];
    const count = rnd.next() < 0.02 ? "" : String(rnd.below(7));
    lines.push([`${t}.${String(rnd.below(300)).padStart(7, "0")}`, fare, `${t} UTC`, coord(-74), coord(40.7), ...drop, count].join(","));
  }
  return lines.join("\n") + "\n";
}

describe("the taxi preparer's path", () => {
  const file = tmpFile(taxiText(3000, 11));
  const table = readCsv(file);

  it("infers the dtypes readCsv infers, over the whole column", () => {
    const scan = scanCsv(file, { chunkBytes: 5 });
    expect(scan.names).toEqual(table.columns);
    expect(scan.rows).toBe(3000);
    const kinds = table.columns.map((c) => table.data.get(c)!.kind);
    // An int column with gaps is float64 in both; readCsv says so with its kind.
    expect(scan.kinds.map((k) => (k === "intFloat" ? "float" : k))).toEqual(kinds);
    expect(scan.kinds[7]).toBe("intFloat");
  });

  it("splits like sklearn's train_test_split", () => {
    const { train, test } = splitRows(3000, { testSize: 991, randomState: 0 });
    const want = trainTestSplitIndices(3000, { testSize: 991, randomState: 0 });
    expect(Array.from(train)).toEqual(want.train);
    expect(Array.from(test)).toEqual(want.test);
  });

  it("writes train and test like readCsv + trainTestSplitTable + writeCsv", () => {
    const { train: wantTrain, test: wantTest } = trainTestSplitTable(table, { testSize: 991, randomState: 0 });
    for (const [i, opts] of TINY.entries()) {
      const scan = scanCsv(file, { chunkBytes: [3, 64, 1000, 1 << 20][i] });
      const { train, test } = splitRows(scan.rows, { testSize: 991, randomState: 0 });
      const out = join(dir, `taxi-${i}`);
      writeCsvRows(scan, train, `${out}-train.csv`, opts);
      writeCsvRows(scan, test, `${out}-test.csv`, { ...opts, columns: ["key", "pickup_datetime", "passenger_count"] });
      expect(readFileSync(`${out}-train.csv`, "utf8")).toBe(formatCsv(wantTrain));
      expect(readFileSync(`${out}-test.csv`, "utf8")).toBe(formatCsv(selectColumns(wantTest, ["key", "pickup_datetime", "passenger_count"])));
    }
  });

  it("adds a constant float column, as df[c] = 11.35 then to_csv", () => {
    const rows = [5, 1, 2999];
    const got = streamed(file, rows, undefined, { columns: ["key", { name: "fare_amount", value: 11.35 }] });
    const keys = selectColumns(takeRows(table, rows), ["key"]);
    const fares: Column = { kind: "float", values: new Float64Array(3).fill(11.35) };
    expect(got).toBe(formatCsv(makeTable([["key", keys.data.get("key")!], ["fare_amount", fares]])));
  });

  it("adds a constant text column, quoted and UTF-8 as to_csv writes it", () => {
    const rows = [7, 0];
    const tags = "c#, «été» \"x\"";
    const got = streamed(file, rows, undefined, { columns: ["key", { name: "Tags", text: tags }] });
    const keys = selectColumns(takeRows(table, rows), ["key"]);
    const col: Column = { kind: "string", values: [tags, tags] };
    expect(got).toBe(formatCsv(makeTable([["key", keys.data.get("key")!], ["Tags", col]])));
  });
});

describe("edges", () => {
  it("writes only the header for no rows, and refuses rows that are not in the file", () => {
    const file = tmpFile("a,b\n1,x\n");
    expect(streamed(file, [])).toBe("a,b\n");
    expect(() => streamed(file, [1])).toThrow(RangeError);
  });

  it("names the file and row of a record with too many fields", () => {
    const file = tmpFile("a,b\n1,2\n3,4,5\n");
    expect(() => scanCsv(file, { file: "train.csv" })).toThrow(/train\.csv: expected 2 fields in data row 2 \(line 3\), saw 3/);
  });

  it("reports a file that changed after the scan", () => {
    const file = tmpFile("a,b\n1,2\n3,4\n");
    const scan = scanCsv(file);
    writeFileSync(file, "a,b\n1,2\n");
    expect(() => writeCsvRows(scan, [1], join(dir, "changed.csv"))).toThrow(UserError);
  });

  it("refuses a split sklearn refuses", () => {
    expect(() => splitRows(100, { testSize: 100, randomState: 0 })).toThrow(/test_size=100 should be/);
  });
});
