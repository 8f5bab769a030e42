import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CsvParseError } from "../../src/core/errors.js";
import type { Table } from "../../src/core/table.js";
import { parseCsv, readCsv, readCsvHeader } from "../../src/io/csv-read.js";
import { expectedColumn, golden, plain, type ReadCase } from "./golden.js";

const dir = mkdtempSync(join(tmpdir(), "mlebench-csv-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tmpFile(name: string, data: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

function bytesOf(c: ReadCase): Uint8Array {
  return new Uint8Array(Buffer.from(c.input_b64, "base64"));
}

function snapshot(t: Table) {
  return { columns: t.columns, rowCount: t.rowCount, data: t.columns.map((n) => plain(t.data.get(n))) };
}

function expected(c: ReadCase) {
  const cols = c.columns!.map((_, j) => expectedColumn(c.dtypes![j], c.values![j]));
  return {
    columns: c.columns,
    rowCount: cols.length ? cols[0].values.length : 0,
    data: cols.map((col) => plain(col)),
  };
}

/** The part of pandas' message that ours must contain. */
function pandasCore(c: ReadCase): string {
  return c.message!.replace(/^Error tokenizing data\. C error: /, "");
}

const okCases = golden.read.filter((c) => c.error === undefined);
const errCases = golden.read.filter((c) => c.error !== undefined);

describe("parseCsv against pandas (golden)", () => {
  it("has the cases", () => {
    expect(okCases.length).toBeGreaterThan(60);
    expect(errCases.length).toBeGreaterThan(5);
  });

  for (const c of okCases) {
    it(`${c.name}`, () => {
      const bytes = bytesOf(c);
      const want = expected(c);
      expect(snapshot(parseCsv(bytes))).toEqual(want);
      // The same through a file, a string, and with every record crossing chunk boundaries.
      expect(snapshot(readCsv(tmpFile(`${c.name}.csv`, bytes)))).toEqual(want);
      expect(snapshot(parseCsv(new TextDecoder().decode(bytes)))).toEqual(want);
      for (const chunkBytes of [1, 2, 3, 5, 8]) {
        expect(snapshot(parseCsv(bytes, { chunkBytes }))).toEqual(want);
      }
    });
  }

  for (const c of errCases) {
    it(`${c.name} fails like pandas (${c.error})`, () => {
      const bytes = bytesOf(c);
      for (const chunkBytes of [undefined, 1, 3]) {
        let err: unknown;
        try {
          parseCsv(bytes, { file: "sub.csv", chunkBytes });
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(CsvParseError);
        const e = err as CsvParseError;
        expect(e.file).toBe("sub.csv");
        if (c.error === "ParserError") expect(e.message).toContain(pandasCore(c));
        else if (c.error === "EmptyDataError") expect(e.message).toContain("No columns to parse from file");
        else if (c.error === "UnicodeDecodeError") expect(e.message).toMatch(/not UTF-8/);
        else throw new Error(`unexpected pandas error ${c.error}`);
      }
    });
  }
});

function errorOf(f: () => unknown): CsvParseError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CsvParseError);
    return e as CsvParseError;
  }
  throw new Error("expected a CsvParseError");
}

describe("error messages", () => {
  it("names the file, the line and the field counts for an extra field", () => {
    const p = tmpFile("extra.csv", "id,target\n1,0.5\n2,0.25\n3,0.1,9\n");
    const e = errorOf(() => readCsv(p));
    expect(e.message).toBe(`${p}: Expected 2 fields in line 4, saw 3`);
    expect(e.file).toBe(p);
    expect(e.line).toBe(4);
  });

  it("counts physical lines when a quoted field holds line breaks", () => {
    const e = errorOf(() => parseCsv('a,b\n"x\ny",1\n1,2,3\n', { file: "q.csv" }));
    expect(e.message).toContain("Expected 2 fields in line 3, saw 3");
    expect(e.message).toContain("line 4 counting line breaks inside quoted fields");
    expect(e.line).toBe(4);
  });

  it("explains an implicit index that makes later rows too long", () => {
    const e = errorOf(() => parseCsv("a,b\n1,2,3\n4,5,6,7\n", { file: "f.csv" }));
    expect(e.message).toContain("Expected 3 fields in line 3, saw 4");
    expect(e.message).toContain("as an index");
  });

  it("reports an unterminated quote with pandas' row and the physical line", () => {
    const e = errorOf(() => parseCsv('a\n1\n\n"abc\nx\n', { file: "u.csv" }));
    expect(e.message).toContain("EOF inside string starting at row 3");
    expect(e.message).toContain("line 4");
    expect(e.line).toBe(4);
  });

  it("reports invalid UTF-8 with its byte offset, even across chunks", () => {
    const bytes = new Uint8Array([...Buffer.from("a\nxy"), 0xe2, 0x82, 0x28, ...Buffer.from("\n")]);
    for (const chunkBytes of [undefined, 1, 2, 5]) {
      const e = errorOf(() => parseCsv(bytes, { file: "bad.csv", chunkBytes }));
      expect(e.message).toBe("bad.csv is not UTF-8 text: invalid byte 0xe2 at byte offset 4");
    }
    const p = tmpFile("latin1.csv", Buffer.from("name\ncaf\xe9\n", "latin1"));
    expect(errorOf(() => readCsv(p)).message).toBe(`${p} is not UTF-8 text: invalid byte 0xe9 at byte offset 8`);
  });

  it("reports a multi-byte character cut off at the end of the file", () => {
    const bytes = new Uint8Array([...Buffer.from("a\n1\n"), 0xf0, 0x9f]);
    for (const chunkBytes of [undefined, 1]) {
      const e = errorOf(() => parseCsv(bytes, { file: "cut.csv", chunkBytes }));
      expect(e.message).toContain("not UTF-8 text");
      expect(e.message).toContain("byte offset 4");
    }
  });

  it("rejects UTF-16 files as not UTF-8", () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...Buffer.from("a\n1\n", "utf16le")]);
    expect(errorOf(() => parseCsv(bytes, { file: "w.csv" })).message).toContain("not UTF-8 text");
  });

  it("rejects NUL bytes, naming the line", () => {
    const e = errorOf(() => parseCsv("a,b\n1,2\nx\0y,3\n", { file: "nul.csv" }));
    expect(e.message).toBe("nul.csv: line 3 contains a NUL byte; a CSV file must be UTF-8 text");
    expect(e.line).toBe(3);
    const e2 = errorOf(() => parseCsv(Buffer.from("a,b\n1,2\nx\0y,3\n"), { file: "nul.csv", chunkBytes: 3 }));
    expect(e2.line).toBe(3);
  });

  it("says so for an empty or blank file", () => {
    for (const text of ["", "\n\n", "  \r\n\t\n", "\ufeff"]) {
      const e = errorOf(() => parseCsv(text, { file: "e.csv" }));
      expect(e.message).toContain("No columns to parse from file");
      expect(e.message).toContain("e.csv");
    }
    const p = tmpFile("empty.csv", "");
    expect(errorOf(() => readCsv(p)).message).toContain("No columns to parse from file");
    expect(errorOf(() => readCsvHeader(p)).message).toContain("No columns to parse from file");
  });

  it("refuses files over maxBytes", () => {
    const p = tmpFile("big.csv", "a\n1\n2\n3\n");
    const e = errorOf(() => readCsv(p, { maxBytes: 4 }));
    expect(e.message).toContain("more than the limit of 4 bytes");
    expect(readCsv(p, { maxBytes: 8 }).rowCount).toBe(3);
    expect(errorOf(() => parseCsv(Buffer.from("a\n1\n2\n3\n"), { maxBytes: 4 })).message).toContain("limit");
  });
});

describe("readCsvHeader", () => {
  it("returns pandas' column names from the first record only", () => {
    const p = tmpFile("hdr.csv", '\ufeff\nx,,x,"q\nr"\n1,2,3,4\nthis line is broken "\n');
    expect(readCsvHeader(p)).toEqual(["x", "Unnamed: 1", "x.1", "q\nr"]);
    // Like pandas, only a BOM at the very start of the file is dropped.
    const b = tmpFile("hdr-bom.csv", "\n\ufeffx,x\n");
    expect(readCsvHeader(b)).toEqual(["\ufeffx", "x"]);
    const q = tmpFile("hdr2.csv", "\ufeffid,target\r\n1,2\r\n");
    expect(readCsvHeader(q)).toEqual(["id", "target"]);
  });
});

describe("large inputs and chunk boundaries", () => {
  function bigCsv(rows: number): string {
    const parts: string[] = ["id,target,label,flag\r\n"];
    for (let i = 0; i < rows; i++) {
      const x = Math.sin(i) * 1e3;
      const label = i % 97 === 0 ? `"multi\nline, ""quoted"" ${i}"` : `lab${i % 13}`;
      parts.push(`${i},${x},${label},${i % 2 === 0 ? "True" : "false"}\r\n`);
    }
    return parts.join("");
  }

  it("parses a multi-MB file identically with any chunk size", () => {
    const text = bigCsv(120_000);
    expect(text.length).toBeGreaterThan(3_000_000);
    const p = tmpFile("big-chunks.csv", text);
    const whole = snapshot(parseCsv(text));
    expect(whole.rowCount).toBe(120_000);
    expect(whole.data.map((d) => d!.kind)).toEqual(["int", "float", "string", "bool"]);
    expect(whole.data[1]!.values[7]).toBe(Math.sin(7) * 1e3);
    expect(whole.data[2]!.values[97]).toBe('multi\nline, "quoted" 97');
    for (const chunkBytes of [undefined, 4096, 65_537, 1_000_003]) {
      expect(snapshot(readCsv(p, { chunkBytes }))).toEqual(whole);
    }
  });

  it("re-reads earlier rows when a column turns out to be text late in the file", () => {
    const rows: string[] = ["code,v"];
    for (let i = 0; i < 50_000; i++) rows.push(`${String(i).padStart(5, "0")},${i}`);
    rows.push("x1,NA");
    const p = tmpFile("late-text.csv", rows.join("\n") + "\n");
    const t = readCsv(p, { chunkBytes: 10_000 });
    const code = t.data.get("code")!;
    expect(code.kind).toBe("string");
    expect(code.values[0]).toBe("00000");
    expect(code.values[12_345]).toBe("12345");
    expect(code.values[50_000]).toBe("x1");
    const v = t.data.get("v")!;
    expect(v.kind).toBe("float");
    expect(Number.isNaN(v.values[50_000] as number)).toBe(true);
  });

  it("keeps literal NA tokens in pandas' uint64-conflict fallback, across chunks", () => {
    const text = "a,b\n18446744073709551615,1\nNA,2\n,3\n-1,4\n";
    for (const chunkBytes of [undefined, 2]) {
      const t = parseCsv(text, { chunkBytes });
      expect(plain(t.data.get("a"))).toEqual({
        kind: "string",
        values: ["18446744073709551615", "NA", "", "-1"],
      });
      expect(t.data.get("b")!.kind).toBe("int");
    }
  });

  it("handles a field longer than the chunk size", () => {
    const long = "x".repeat(100_000);
    const t = parseCsv(`a,b\n"${long}",1\n${long},2\n`, { chunkBytes: 1000 });
    expect(t.data.get("a")!.values).toEqual([long, long]);
  });
});

describe("reader details", () => {
  it("gives bigint columns exact values", () => {
    const t = parseCsv("a,b\n9007199254740993,-9223372036854775808\n1,2\n");
    expect(plain(t.data.get("a"))).toEqual({ kind: "bigint", values: [9007199254740993n, 1n] });
    expect(plain(t.data.get("b"))).toEqual({ kind: "bigint", values: [-9223372036854775808n, 2n] });
  });

  it("rounds big integers to the nearest double when a gap makes the column float", () => {
    const t = parseCsv("a\n9007199254740993\n\n9007199254740995\nNA\n");
    expect(plain(t.data.get("a"))).toEqual({ kind: "float", values: [9007199254740992, 9007199254740996, NaN] });
  });

  it("drops an implicit index column like pandas", () => {
    const t = parseCsv("a,b\n0,1,x\n1,2,y\n");
    expect(t.columns).toEqual(["a", "b"]);
    expect(plain(t.data.get("a"))).toEqual({ kind: "int", values: [1, 2] });
    expect(plain(t.data.get("b"))).toEqual({ kind: "string", values: ["x", "y"] });
  });

  it("reads a string with a BOM", () => {
    expect(parseCsv("\ufeffid\n1\n").columns).toEqual(["id"]);
  });

  it("keeps the text of columns named in `text`, like dtype={name: str}", () => {
    // pandas 1.5: {'Id': ['0001', nan, '0300', '1.50'], 'Sequence': ['2 4 5', nan, '7', 'True'], 'n': [1, 2, 3, 4]}
    const csv = 'Id,Sequence,n\n0001,2 4 5,1\n,NA,2\n0300,"7",3\n1.50,True,4\n';
    for (const chunkBytes of [1, 7, 1 << 20]) {
      const t = parseCsv(csv, { text: ["Id", "Sequence"], chunkBytes });
      expect(plain(t.data.get("Id"))).toEqual({ kind: "string", values: ["0001", null, "0300", "1.50"] });
      expect(plain(t.data.get("Sequence"))).toEqual({ kind: "string", values: ["2 4 5", null, "7", "True"] });
      expect(plain(t.data.get("n"))).toEqual({ kind: "int", values: [1, 2, 3, 4] });
    }
  });
});

/** What the reader gives with its fast path off: the tokenizer's reading, the reference for the fast path. */
async function tokenizerOnly(text: string) {
  const { csvReadInternals } = await import("../../src/io/csv-read.js");
  csvReadInternals.fastPath = false;
  try {
    return snapshot(parseCsv(text));
  } finally {
    csvReadInternals.fastPath = true;
  }
}

describe("the fast path for numeric records", () => {
  function randomCsv(seed: number, rows: number): string {
    let s = seed;
    const next = () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s;
    };
    const cell = (kind: number): string => {
      const r = next() % 100;
      if (r < 3) return "";
      if (r < 4) return "NA";
      if (r < 5) return ` ${next() % 100}`;
      if (r < 6) return `"${next() % 100}"`;
      if (r < 7) return `+${next() % 100}`;
      if (r < 8) return "-0";
      if (kind === 0) return String((next() % 2000) - 1000);
      // Only some files get a cell that turns the column to text, late, so most rows go the fast way.
      if (r < 10 && seed > 4 && next() % 500 === 0) return "1e400";
      if (r < 11) return "-inf";
      return String(((next() % 1_000_000) - 500_000) / 997);
    };
    const lines = ["a,b,c"];
    for (let i = 0; i < rows; i++) {
      const eol = next() % 50 === 0 ? "\r\n" : "\n";
      if (next() % 200 === 0) lines.push("");
      lines.push(`${cell(0)},${cell(1)},${cell(next() % 2)}${eol === "\r\n" ? "\r" : ""}`);
    }
    return lines.join("\n") + (seed % 2 ? "\n" : "");
  }

  it("reads exactly what the tokenizer reads", async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const text = randomCsv(seed, 3000);
      const want = await tokenizerOnly(text);
      if (seed <= 4) expect(want.data.map((d) => d!.kind)).toEqual(["float", "float", "float"]);
      for (const chunkBytes of [undefined, 7, 100, 4096]) {
        expect(snapshot(parseCsv(text, { chunkBytes }))).toEqual(want);
      }
    }
  });

  it("takes text columns too, and gives up a record half way without keeping its cells", async () => {
    let s = 7;
    const next = () => (s = (s * 1103515245 + 12345) % 2147483648);
    const text = (): string => {
      const r = next() % 100;
      if (r < 3) return "";
      if (r < 5) return "NA";
      if (r < 7) return `"quoted, ${next() % 9}"`;
      if (r < 8) return " lead";
      if (r < 9) return "\t";
      return `id-${next() % 5000}-é`;
    };
    const lines = ["id,x,label"];
    for (let i = 0; i < 4000; i++) {
      const r = next() % 100;
      // Records the fast path must hand back after taking the text: too few fields, too many, a quote later on.
      if (r === 0) lines.push(`${text()},${i}`);
      else if (r === 1) lines.push(`${text()},${i},${text()},extra`);
      else if (r === 2) lines.push(`${text()},${i},"q${i}"`);
      else if (r === 3) lines.push("");
      else lines.push(`${text()},${i % 7 === 0 ? "NA" : i / 4},${text()}${next() % 40 === 0 ? "\r" : ""}`);
    }
    const csv = lines.join("\n") + "\n";
    const want = await tokenizerOnly(csv);
    expect(want.data.map((d) => d!.kind)).toEqual(["string", "float", "string"]);
    for (const chunkBytes of [undefined, 7, 100, 4096]) {
      expect(snapshot(parseCsv(csv, { chunkBytes }))).toEqual(want);
    }
  });

  it("stays correct when a column turns to text after many fast rows", () => {
    const lines = ["a,b"];
    for (let i = 0; i < 20_000; i++) lines.push(`${i},${i / 8}`);
    lines.push("x,NA");
    lines.push("-0,-0");
    const t = parseCsv(lines.join("\n"), { chunkBytes: 5000 });
    expect(t.data.get("a")!.kind).toBe("string");
    expect(t.data.get("a")!.values[19_999]).toBe("19999");
    expect(t.data.get("a")!.values[20_001]).toBe("-0");
    expect(plain(t.data.get("b"))!.values.slice(-3)).toEqual([19_999 / 8, NaN, -0]);
  });
});
