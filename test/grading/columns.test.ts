import { describe, expect, it } from "vitest";
import type { Column } from "../../src/core/table.js";
import {
  alignToAnswers,
  compareStrings,
  numericInOrder,
  requireSameIdSet,
  sortOrder,
} from "../../src/grading/columns.js";
import { pyStrAt } from "../../src/pycompat/pystr.js";

const str = (...values: (string | null)[]): Column => ({ kind: "string", values });
const int = (...values: number[]): Column => ({ kind: "int", values: Float64Array.from(values) });
const flt = (...values: number[]): Column => ({ kind: "float", values: Float64Array.from(values) });
const bool = (...values: boolean[]): Column => ({ kind: "bool", values: Uint8Array.from(values.map(Number)) });

describe("sortOrder (DataFrame.sort_values)", () => {
  it("sorts numbers with NaN last and keeps ties in file order", () => {
    expect(Array.from(sortOrder(flt(3, NaN, 1, 3, -2)))).toEqual([4, 2, 0, 3, 1]);
  });

  it("sorts text by code point, missing values last", () => {
    // "\u{1F600}" (a surrogate pair) sorts after "\uFB01" by code point, before it by UTF-16 unit.
    expect(Array.from(sortOrder(str("b", null, "\u{1F600}", "\uFB01", "a", "B")))).toEqual([5, 4, 0, 3, 2, 1]);
    expect(Array.from(sortOrder(str("b", null, "a", "B")))).toEqual([3, 2, 0, 1]);
    expect(compareStrings("\u{1F600}", "\uFB01")).toBeGreaterThan(0);
  });

  it("sorts booleans False before True", () => {
    expect(Array.from(sortOrder(bool(true, false, true, false)))).toEqual([1, 3, 0, 2]);
  });
});

describe("alignToAnswers (sorted element-wise id equality)", () => {
  it("returns the submission rows in the answers' sorted order", () => {
    const ans = str("c", "a", "b");
    const sub = str("b", "c", "a");
    expect(Array.from(alignToAnswers(sub, ans, sortOrder(ans), "id"))).toEqual([2, 0, 1]);
  });

  it("treats 1, 1.0 and True as the same id, as numpy does", () => {
    const ans = int(0, 1);
    expect(Array.from(alignToAnswers(flt(1.0, 0.0), ans, sortOrder(ans), "id"))).toEqual([1, 0]);
    expect(Array.from(alignToAnswers(bool(true, false), ans, sortOrder(ans), "id"))).toEqual([1, 0]);
  });

  it("never matches text with numbers, or missing ids", () => {
    const ans = int(1, 2);
    expect(() => alignToAnswers(str("1", "2"), ans, sortOrder(ans), "id")).toThrow(/2 of 2 answer ids have no matching row/);
    expect(() => alignToAnswers(flt(1, NaN), ans, sortOrder(ans), "id")).toThrow(/1 answer id\(s\) are missing \(e\.g\. 2\)/);
  });

  it("rejects repeated ids and different row counts", () => {
    const ans = str("a", "b", "c");
    expect(() => alignToAnswers(str("a", "a", "b"), ans, sortOrder(ans), "id")).toThrow(/1 row\(s\) repeat an id/);
    expect(() => alignToAnswers(str("a", "b"), ans, sortOrder(ans), "id")).toThrow(/2 rows but the answers have 3/);
  });
});

describe("requireSameIdSet (Python set equality)", () => {
  it("lets repeated ids through when the sets agree", () => {
    expect(() => requireSameIdSet(str("a", "a", "b"), str("a", "b"), "id")).not.toThrow();
  });

  it("names missing and unknown ids", () => {
    expect(() => requireSameIdSet(str("a", "x"), str("a", "b"), "id")).toThrow(
      /1 answer id\(s\) are missing \(e\.g\. "b"\); 1 id\(s\) are not in the answers \(e\.g\. "x"\)/,
    );
  });
});

describe("conversions", () => {
  it("prints cells as pandas astype(str) does", () => {
    const f = flt(1, 0.1, NaN, 1e-7, 1e16);
    expect([0, 1, 2, 3, 4].map((i) => pyStrAt(f, i))).toEqual(["1.0", "0.1", "nan", "1e-07", "1e+16"]);
    expect(pyStrAt(int(108775015), 0)).toBe("108775015");
    expect(pyStrAt(bool(true), 0)).toBe("True");
    expect(pyStrAt(str(null), 0)).toBe("nan");
  });

  it("converts numeric columns and rejects text naming the row", () => {
    expect(Array.from(numericInOrder(bool(true, false), null, "p"))).toEqual([1, 0]);
    expect(() => numericInOrder(str("0.5", "1e-3", "high"), null, "p")).toThrow(/data row 3 holds "high"/);
  });
});

describe("alignToAnswers in file order", () => {
  it("takes the fast path when the submission keeps the answers' order", () => {
    const ans = str("x", "y", "z");
    expect(Array.from(alignToAnswers(str("x", "y", "z"), ans, null, "id"))).toEqual([0, 1, 2]);
  });

  it("matches shuffled rows, repeated answer ids and hash collisions alike", () => {
    const n = 5000;
    const ids = Array.from({ length: n }, (_, i) => `id-${(i * 7919) % n}`);
    const shuffled = ids.map((_, i) => ids[(i * 31 + 7) % n]);
    const order = alignToAnswers(str(...shuffled), str(...ids), null, "id");
    expect(Array.from(order, (row) => shuffled[row])).toEqual(ids);
    const dup = alignToAnswers(str("a", "b", "a"), str("a", "a", "b"), null, "id");
    expect(Array.from(dup)).toEqual([0, 2, 1]);
  });
});

describe("KeyIndex", () => {
  it("groups rows by key in file order, with -0 equal to 0 and NaN never indexed", async () => {
    const { KeyIndex } = await import("../../src/grading/key-index.js");
    const keys = [0, "0", -0, 5n, 2 ** 60, undefined, 0];
    const index = new KeyIndex(keys.length, (i) => keys[i] as never);
    expect(index.first(0)).toBe(0);
    expect(index.next(0)).toBe(2);
    expect(index.next(2)).toBe(6);
    expect(index.next(6)).toBe(-1);
    expect(index.first("0")).toBe(1);
    expect(index.first(5n)).toBe(3);
    expect(index.first(2 ** 60)).toBe(4);
    expect(index.first("missing")).toBe(-1);
  });
});
