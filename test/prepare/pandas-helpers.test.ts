import { describe, expect, it } from "vitest";
import { makeTable } from "../../src/core/table.js";
import { formatCsv } from "../../src/io/csv-write.js";
import { withFloatFormatG, writeCsvFloatG } from "../../src/prepare/float-format.js";
import { formatG } from "../../src/pycompat/format-g.js";
import { comparePyStrings, groupRows } from "../../src/prepare/groupby.js";
import { takeWithMissing } from "../../src/prepare/merge.js";
import { numpyQuickArgsort } from "../../src/pycompat/numpy-argsort.js";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers/data-dir.js";

// [x, "%.10g" % x, "%.3g" % x, "%.17g" % x] as CPython 3.11 prints them.
const G_CASES: [number, string, string, string][] = [
  [0.5, "0.5", "0.5", "0.5"],
  [2.5, "2.5", "2.5", "2.5"],
  [1234567890.5, "1234567890", "1.23e+09", "1234567890.5"],
  [1234567891.5, "1234567892", "1.23e+09", "1234567891.5"],
  [12345678905.0, "1.23456789e+10", "1.23e+10", "12345678905"],
  [0.1, "0.1", "0.1", "0.10000000000000001"],
  [1e-5, "1e-05", "1e-05", "1.0000000000000001e-05"],
  [0.0001, "0.0001", "0.0001", "0.0001"],
  [9999999999.5, "1e+10", "1e+10", "9999999999.5"],
  [0.00012345678905, "0.0001234567891", "0.000123", "0.00012345678905000001"],
  [5e-324, "4.940656458e-324", "4.94e-324", "4.9406564584124654e-324"],
  [1.7976931348623157e308, "1.797693135e+308", "1.8e+308", "1.7976931348623157e+308"],
  [-0, "-0", "-0", "-0"],
  [100.0, "100", "100", "100"],
  [-2.675, "-2.675", "-2.67", "-2.6749999999999998"],
  [0.03365969657897949, "0.03365969658", "0.0337", "0.033659696578979492"],
  [852306.7668457031, "852306.7668", "8.52e+05", "852306.76684570312"],
];

describe("formatG", () => {
  it.each(G_CASES)("%s prints as Python's %%g", (x, g10, g3, g17) => {
    expect([formatG(x, 10), formatG(x, 3), formatG(x, 17)]).toEqual([g10, g3, g17]);
  });

  it("writes float columns as %g text in row slices, other columns untouched", () => {
    const t = makeTable([
      ["id", { kind: "int", values: Float64Array.from([1, 2, 3, 4, 5]) }],
      ["v", { kind: "float", values: Float64Array.from([0.1, NaN, 1e-7, 2.5, 1234567890.5]) }],
    ]);
    const file = path.join(tempDir(), "out.csv");
    writeCsvFloatG(file, t, 10, 2);
    expect(fs.readFileSync(file, "utf8")).toBe("id,v\n1,0.1\n2,\n3,1e-07\n4,2.5\n5,1234567890\n");
    expect(formatCsv(withFloatFormatG(t, 10))).toBe(fs.readFileSync(file, "utf8"));
  });
});

describe("numpyQuickArgsort", () => {
  it("breaks ties as numpy 1.24's introsort does", () => {
    const a = [1, -2, 3, 0, 0, 1, -2, 3, -3, -2, 3, -1, -1, -3, 3, 1, -3, 1, -3, 0, -1, 3, 0, 1, 1, 2, -3, -3, 2, -3, 0, 2, -3, -1, -3, -2, 3, 3, 1, 3];
    expect(numpyQuickArgsort(a)).toEqual([
      8, 27, 13, 18, 32, 29, 16, 34, 26, 9, 35, 1, 6, 33, 20, 12, 11, 19, 4, 3, 30, 22, 24, 0, 38, 17, 15, 5, 23, 25, 28, 31, 21, 14, 10, 7, 2, 36, 37, 39,
    ]);
  });

  it("sorts small inputs by insertion, which keeps equal keys in order", () => {
    expect(numpyQuickArgsort([2, 1, 2, 1])).toEqual([1, 3, 0, 2]);
    expect(numpyQuickArgsort([])).toEqual([]);
  });
});

describe("groupRows", () => {
  it("orders groups by key (str by code point) and drops missing keys", () => {
    const col = { kind: "string" as const, values: ["b", "a", null, "\u{1F600}", "\uFF01", "b"] };
    expect(groupRows(col).map((g) => [g.key, g.rows])).toEqual([
      ["a", [1]],
      ["b", [0, 5]],
      ["\uFF01", [4]],
      ["\u{1F600}", [3]],
    ]);
    expect(comparePyStrings("\uFF01", "\u{1F600}")).toBeLessThan(0);
  });

  it("orders numeric keys numerically", () => {
    const col = { kind: "int" as const, values: Float64Array.from([10, 9, 100, 9]) };
    expect(groupRows(col).map((g) => g.rows)).toEqual([[1, 3], [0], [2]]);
  });
});

describe("takeWithMissing", () => {
  it("turns int columns with holes into floats and bool columns into objects, as a pandas left merge does", () => {
    expect(takeWithMissing({ kind: "int", values: Float64Array.from([5, 6]) }, [1, -1])).toEqual({ kind: "float", values: Float64Array.from([6, NaN]) });
    expect(takeWithMissing({ kind: "int", values: Float64Array.from([5, 6]) }, [1, 0])).toEqual({ kind: "int", values: Float64Array.from([6, 5]) });
    expect(takeWithMissing({ kind: "bool", values: Uint8Array.from([1, 0]) }, [-1, 1])).toEqual({ kind: "object", values: [null, false] });
    expect(takeWithMissing({ kind: "string", values: ["x"] }, [-1, 0])).toEqual({ kind: "string", values: [null, "x"] });
  });
});
