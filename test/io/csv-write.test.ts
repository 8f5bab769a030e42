import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTable, type Column } from "../../src/core/table.js";
import { parseCsv, readCsv } from "../../src/io/csv-read.js";
import { formatCsv, formatCsvChunks, writeCsv } from "../../src/io/csv-write.js";
import { writeFileAtomic } from "../../src/core/atomic.js";
import { buildColumn, fromBits, golden, plain } from "./golden.js";

const dir = mkdtempSync(join(tmpdir(), "mlebench-csv-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tableOf(spec: (typeof golden.write)[number]["columns"]) {
  return makeTable(spec.map((c) => [c.name, buildColumn(c.kind, c.values)]));
}

describe("formatCsv against pandas' to_csv (golden)", () => {
  for (const c of golden.write) {
    it(c.name, () => {
      const table = tableOf(c.columns);
      expect(formatCsv(table)).toBe(c.csv);
      const p = join(dir, `${c.name}.csv`);
      writeCsv(p, table);
      expect(readFileSync(p, "utf8")).toBe(c.csv);
    });
  }

  it("writes every golden float as Python's repr", () => {
    const values = Float64Array.from(golden.repr, ([bits]) => fromBits(bits));
    const csv = formatCsv(makeTable([["x", { kind: "float", values }]]));
    // NaN is an empty field, and a record of one empty field is written as "" by Python's csv module.
    const want = golden.repr.map(([, r]) => (r === "nan" ? '""' : r));
    expect(csv).toBe(`x\n${want.join("\n")}\n`);
  });
});

describe("formatCsv details", () => {
  it("quotes a bare carriage return (CPython >= 3.11.9 does)", () => {
    const t = makeTable([["s", { kind: "string", values: ["a\rb", "c\r\nd", "plain"] }]]);
    expect(formatCsv(t)).toBe('s\n"a\rb"\n"c\r\nd"\nplain\n');
  });

  it("writes bigint, bool and object columns", () => {
    const t = makeTable([
      ["b", { kind: "bigint", values: [18446744073709551615n, -9223372036854775808n] }],
      ["t", { kind: "bool", values: Uint8Array.from([1, 0]) }],
      ["o", { kind: "object", values: [null, false] }],
      ["i", { kind: "int", values: Float64Array.from([-0, 9007199254740992]) }],
    ]);
    expect(formatCsv(t)).toBe(
      "b,t,o,i\n18446744073709551615,True,,0\n-9223372036854775808,False,False,9007199254740992\n",
    );
  });

  it("splits big outputs into chunks that join to the same text", () => {
    const n = 50_000;
    const t = makeTable([
      ["id", { kind: "int", values: Float64Array.from({ length: n }, (_, i) => i) }],
      ["p", { kind: "float", values: Float64Array.from({ length: n }, (_, i) => Math.sin(i) / (i + 1)) }],
      ["s", { kind: "string", values: Array.from({ length: n }, (_, i) => (i % 7 ? `x${i}` : `"q",${i}`)) }],
    ]);
    const chunks = [...formatCsvChunks(t, 4096)];
    expect(chunks.length).toBeGreaterThan(100);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(4096 + 200);
    expect(chunks.join("")).toBe(formatCsv(t));
  });

  it("round-trips through readCsv", () => {
    const cols: [string, Column][] = [
      ["id", { kind: "int", values: Float64Array.from([1, 2, 3]) }],
      ["p", { kind: "float", values: Float64Array.from([0.1, NaN, -0]) }],
      ["s", { kind: "string", values: ['a,"b"', null, "line\nbreak"] }],
      ["ok", { kind: "object", values: [true, null, false] }],
    ];
    const p = join(dir, "round.csv");
    writeCsv(p, makeTable(cols));
    const back = readCsv(p);
    expect(back.columns).toEqual(["id", "p", "s", "ok"]);
    for (const [name, col] of cols) expect(plain(back.data.get(name))).toEqual(plain(col));
    expect(plain(parseCsv(formatCsv(back)).data.get("p"))).toEqual(plain(cols[1][1]));
  });
});

describe("formatCsv with sep: tab", () => {
  // Expected text printed by Debian's python3 (pandas 1.5) with df.to_csv(sep="\t", index=False).
  it("quotes tabs, quotes and line breaks but not commas", () => {
    const t = makeTable([
      ["id", { kind: "int", values: Float64Array.from([1, 2, 3]) }],
      ["phrase", { kind: "string", values: ["a, b", "tab\there", 'say "hi"'] }],
      ["x", { kind: "float", values: Float64Array.from([0.5, NaN, 1e-5]) }],
    ]);
    expect(formatCsv(t, { sep: "\t" })).toBe('id\tphrase\tx\n1\ta, b\t0.5\n2\t"tab\there"\t\n3\t"say ""hi"""\t1e-05\n');
  });
});

describe("formatCsv with quoting: nonnumeric (csv.QUOTE_NONNUMERIC)", () => {
  // Expected texts printed by Debian's python3 (pandas 1.5) with
  // df.to_csv(index=False, quotechar='"', quoting=csv.QUOTE_NONNUMERIC).
  it("quotes text, header and missing values; leaves numbers and bools bare", () => {
    const t = makeTable([
      ["i", { kind: "int", values: Float64Array.from([1, -2, 3, 0]) }],
      ["f", { kind: "float", values: Float64Array.from([0.1, NaN, 1e20, -0]) }],
      ["s", { kind: "string", values: ["a", 'b"c', null, "x,y\nz\r"] }],
      ["b", { kind: "bool", values: Uint8Array.from([1, 0, 1, 0]) }],
      ["o", { kind: "object", values: [true, null, false, null] }],
      ["big", { kind: "bigint", values: [18446744073709551615n, 1n, 2n, 3n] }],
      ["u", { kind: "string", values: ["Ёлка €", "  ", "1.5", '"'] }],
      ["g", { kind: "float", values: Float64Array.from([1e-5, Infinity, 1e16, -Infinity]) }],
    ]);
    const want =
      '"i","f","s","b","o","big","u","g"\n' +
      '1,0.1,"a",True,True,18446744073709551615,"Ёлка €",1e-05\n' +
      '-2,"","b""c",False,"",1,"  ",inf\n' +
      '3,1e+20,"",True,False,2,"1.5",1e+16\n' +
      '0,-0.0,"x,y\nz\r",False,"",3,"""",-inf\n';
    expect(formatCsv(t, { quoting: "nonnumeric" })).toBe(want);
    const p = join(dir, "nonnumeric.csv");
    writeCsv(p, t, { quoting: "nonnumeric" });
    expect(readFileSync(p, "utf8")).toBe(want);
  });

  it("writes a lone missing value as a quoted empty field in text and float columns alike", () => {
    const s = makeTable([["x", { kind: "string", values: [null, "a"] }]]);
    expect(formatCsv(s, { quoting: "nonnumeric" })).toBe('"x"\n""\n"a"\n');
    const f = makeTable([["x", { kind: "float", values: Float64Array.from([NaN, 2.5]) }]]);
    expect(formatCsv(f, { quoting: "nonnumeric" })).toBe('"x"\n""\n2.5\n');
  });

  it("keeps the default (QUOTE_MINIMAL) output unchanged", () => {
    const t = makeTable([["s", { kind: "string", values: ["a", null] }], ["n", { kind: "int", values: Float64Array.from([1, 2]) }]]);
    expect(formatCsv(t)).toBe("s,n\na,1\n,2\n");
    expect(formatCsv(t, { quoting: "minimal" })).toBe("s,n\na,1\n,2\n");
  });

  it("chunks nonnumeric output the same way", () => {
    const n = 20_000;
    const t = makeTable([
      ["id", { kind: "int", values: Float64Array.from({ length: n }, (_, i) => i) }],
      ["s", { kind: "string", values: Array.from({ length: n }, (_, i) => (i % 5 ? `w${i}` : null)) }],
    ]);
    const chunks = [...formatCsvChunks(t, 2048, { quoting: "nonnumeric" })];
    expect(chunks.length).toBeGreaterThan(50);
    expect(chunks.join("")).toBe(formatCsv(t, { quoting: "nonnumeric" }));
  });
});

describe("writeFileAtomic", () => {
  it("writes, replaces, accepts pieces and leaves no temp files", () => {
    const d = mkdtempSync(join(dir, "atomic-"));
    const p = join(d, "out.csv");
    writeFileAtomic(p, "first");
    expect(readFileSync(p, "utf8")).toBe("first");
    writeFileAtomic(p, new TextEncoder().encode("second é"));
    expect(readFileSync(p, "utf8")).toBe("second é");
    writeFileAtomic(p, ["a", new Uint8Array([98]), "", "c"]);
    expect(readFileSync(p, "utf8")).toBe("abc");
    expect(readdirSync(d)).toEqual(["out.csv"]);
  });

  it("keeps the old file and cleans up when writing fails", () => {
    const d = mkdtempSync(join(dir, "atomic-fail-"));
    const p = join(d, "out.csv");
    writeFileSync(p, "old");
    function* failing(): Generator<string> {
      yield "partial";
      throw new Error("boom");
    }
    expect(() => writeFileAtomic(p, failing())).toThrow("boom");
    expect(readFileSync(p, "utf8")).toBe("old");
    expect(readdirSync(d)).toEqual(["out.csv"]);
  });

  it("fails when the directory does not exist", () => {
    expect(() => writeFileAtomic(join(dir, "no-such-dir", "x.csv"), "x")).toThrow();
  });
});
