import { describe, expect, it } from "vitest";
import { textBytesOf } from "./text-bytes-of.js";
import { codePointOrder } from "./code-point-order.js";
import { makeTable, textColumn, type Column } from "../../src/core/table.js";
import { TextArena, TextBytesBuilder } from "../../src/core/text-bytes.js";
import { alignToAnswers, memberOf, requireSameIdSet, sortOrder } from "../../src/grading/columns.js";
import { TextIndex, matchTextRows, sameTextSet, textBytesOrder } from "../../src/grading/text-keys.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { pyStrAt } from "../../src/pycompat/pystr.js";
import { golden } from "../io/golden.js";

const bytes = textBytesOf;

/** The same column as plain strings, which takes every string path. */
function plain(values: (string | null)[]): Column {
  return { kind: "string", values };
}

const reference = codePointOrder;

function lcg(seed: number) {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

function randomTexts(n: number, seed: number, alphabet: string, maxLen: number, naShare = 0.03): (string | null)[] {
  const rand = lcg(seed);
  const chars = Array.from(alphabet);
  return Array.from({ length: n }, () =>
    rand() < naShare ? null : Array.from({ length: Math.floor(rand() * (maxLen + 1)) }, () => chars[Math.floor(rand() * chars.length)]).join(""),
  );
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("TextBytes", () => {
  it("gives back every cell, missing values as null, across buffers and for cells longer than a buffer", () => {
    const big = "x".repeat(5 << 20);
    const values = ["a", null, "", "é\u{1F600}", big, "tail", ...randomTexts(20_000, 1, "abc", 40)];
    const t = bytes(values);
    expect(t.length).toBe(values.length);
    expect(t.strings()).toEqual(values);
    expect(values.map((_, i) => t.text(i))).toEqual(values);
    expect(t.chunks.length).toBeGreaterThan(2);
  });

  it("columns sharing an arena keep their own cells; take reorders without copying bytes", () => {
    const arena = new TextArena();
    const a = new TextBytesBuilder(arena);
    const b = new TextBytesBuilder(arena);
    for (let i = 0; i < 1000; i++) {
      const x = Buffer.from(`a${i}`);
      const y = Buffer.from(`b${i}`);
      a.append(x, 0, x.length);
      b.append(y, 0, y.length);
    }
    const ta = a.finish();
    const tb = b.finish();
    expect(ta.text(999)).toBe("a999");
    expect(tb.text(0)).toBe("b0");
    const taken = ta.take([5, 1, 5]);
    expect(taken.strings()).toEqual(["a5", "a1", "a5"]);
    expect(taken.chunks).toBe(ta.chunks);
  });

  it("joins a second pass's head with the first pass's tail", () => {
    const arena = new TextArena();
    const head = new TextBytesBuilder(arena, 2);
    const tail = new TextBytesBuilder(arena);
    for (const v of ["3", "4"]) tail.append(Buffer.from(v), 0, 1);
    for (const v of ["1", "2"]) head.append(Buffer.from(v), 0, 1);
    head.appendNa();
    expect(head.finish(tail).strings()).toEqual(["1", "2", null, "3", "4"]);
  });

  it("truncate drops rows but never adds any", () => {
    const b = new TextBytesBuilder(new TextArena());
    for (const v of ["a", "b", "c"]) b.append(Buffer.from(v), 0, 1);
    b.truncate(5);
    expect(b.rows).toBe(3);
    b.truncate(1);
    expect(b.finish().strings()).toEqual(["a"]);
  });

  it("hashes equal texts equally and compares in code point order", () => {
    const t = bytes(["abc", "abd", "abc", "ab", "\uFB01", "\u{1F600}"]);
    expect(t.hashRow(0)).toBe(t.hashRow(2));
    expect(t.hashRow(0)).not.toBe(t.hashRow(1));
    expect(t.equalRows(0, t, 2)).toBe(true);
    expect(t.equalRows(0, t, 1)).toBe(false);
    expect(Math.sign(t.compareRows(0, 1))).toBe(-1);
    expect(Math.sign(t.compareRows(3, 0))).toBe(-1);
    // U+FB01 sorts before U+1F600 by code point, though not by UTF-16 unit.
    expect(Math.sign(t.compareRows(4, 5))).toBe(-1);
  });
});

describe("text columns", () => {
  it("decode once on first use of values and then let the bytes go", () => {
    const col = textColumn(bytes(["x", null, "y"]));
    expect(col.kind === "string" && col.text !== undefined).toBe(true);
    expect(makeTable([["c", col]]).rowCount).toBe(3);
    expect(col.kind === "string" && col.text !== undefined).toBe(true);
    expect(col.values).toEqual(["x", null, "y"]);
    expect(col.kind === "string" && col.text).toBeUndefined();
    expect(col).toEqual({ kind: "string", values: ["x", null, "y"] });
  });

  it("pyStrAt reads a cell without decoding the column", () => {
    const col = textColumn(bytes(["x", null]));
    expect(pyStrAt(col, 0)).toBe("x");
    expect(pyStrAt(col, 1)).toBe("nan");
    expect(col.kind === "string" && col.text !== undefined).toBe(true);
  });
});

describe("textBytesOrder", () => {
  const cases: [string, (string | null)[]][] = [
    ["short random texts with missing values", randomTexts(5000, 2, "ab-01 zé\u00ff", 6)],
    ["long shared prefixes", randomTexts(3000, 3, "ab", 3).map((v) => (v === null ? null : "same-prefix-of-many-bytes/" + v))],
    ["code points beyond the BMP and beyond Latin-1", randomTexts(3000, 4, "a\u0100\uFB01\u{1F600}z", 5)],
    ["many equal texts (ties keep file order)", randomTexts(4000, 5, "ab", 2, 0)],
    ["timestamps like taxi keys", Array.from({ length: 5000 }, (_, i) => `2013-0${(i * 7) % 9 + 1}-1${i % 10} 0${i % 7}:00:00.${String((i * 7919) % 10007).padStart(7, "0")}`)],
    ["prefixes of each other", ["abcdefgh", "abcdef", "abcdefg", "", "abcdefghijklm", "abcdef", "a"]],
  ];
  for (const [name, values] of cases) {
    it(`matches a stable code point sort: ${name}`, () => {
      expect(Array.from(textBytesOrder(bytes(values)))).toEqual(reference(values));
    });
  }

  it("returns file order for sorted input", () => {
    expect(Array.from(textBytesOrder(bytes(["a", "b", null, "c"])))).toEqual([0, 1, 3, 2]);
  });

  it("sorts every text column of the pandas golden CSV cases as the string path does", () => {
    let columns = 0;
    for (const c of golden.read) {
      if (c.error !== undefined) continue;
      const table = parseCsv(Buffer.from(c.input_b64, "base64"));
      for (const name of table.columns) {
        const col = table.data.get(name)!;
        if (col.kind !== "string" || !col.text) continue;
        columns++;
        const byBytes = Array.from(sortOrder(col));
        const strings = col.text.strings();
        expect(byBytes).toEqual(reference(strings));
      }
    }
    expect(columns).toBeGreaterThan(50);
  });
});

describe("id matching on bytes", () => {
  it("pairs rows as the string path does: shuffled, repeated and missing ids", () => {
    const rand = lcg(9);
    const ids = Array.from({ length: 3000 }, (_, i) => `id-${i % 2500}`);
    const shuffled = [...ids];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    const viaBytes = alignToAnswers(textColumn(bytes(shuffled)), textColumn(bytes(ids)), null, "id");
    const viaStrings = alignToAnswers(plain(shuffled), plain(ids), null, "id");
    expect(Array.from(viaBytes)).toEqual(Array.from(viaStrings));
    const order = Uint32Array.from(reference(ids));
    expect(Array.from(alignToAnswers(textColumn(bytes(shuffled)), textColumn(bytes(ids)), order, "id"))).toEqual(
      Array.from(alignToAnswers(plain(shuffled), plain(ids), order, "id")),
    );
  });

  it("refuses the same submissions with the same message", () => {
    const ans = ["a", "b", "c", "d"];
    for (const sub of [
      ["a", "b", "c", "x"],
      ["a", "a", "c", "d"],
      ["a", null, "c", "d"],
    ]) {
      const viaBytes = errorOf(() => alignToAnswers(textColumn(bytes(sub)), textColumn(bytes(ans)), null, "id"));
      const viaStrings = errorOf(() => alignToAnswers(plain(sub), plain(ans), null, "id"));
      expect(viaBytes.message).toBe(viaStrings.message);
      expect(viaBytes.message).toMatch(/answer ids have no matching row/);
    }
  });

  it("finds every row of a text, in row order", () => {
    const t = bytes(["a", "b", "a", null, "a"]);
    const index = new TextIndex(t);
    const q = bytes(["a", "z", null]);
    const first = index.find(q, 0);
    expect([first, index.next(first), index.next(index.next(first)), index.next(4)]).toEqual([0, 2, 4, -1]);
    expect(index.find(q, 1)).toBe(-1);
    expect(index.find(q, 2)).toBe(-1);
    expect(index.distinct).toBe(2);
  });

  it("matchTextRows keeps the answers' order when the submission already has it", () => {
    const t = bytes(["p", "q", "r"]);
    const { rows, mismatches } = matchTextRows(bytes(["p", "q", "r"]), t, null);
    expect([Array.from(rows), mismatches]).toEqual([[0, 1, 2], 0]);
  });

  it("set equality and membership follow Python's sets (NaN is never a member)", () => {
    expect(sameTextSet(bytes(["a", "b", "a"]), bytes(["b", "a"]))).toBe(true);
    expect(sameTextSet(bytes(["a", "b"]), bytes(["a", "c"]))).toBe(false);
    expect(sameTextSet(bytes(["a", null]), bytes(["a", null]))).toBe(false);
    expect(() => requireSameIdSet(textColumn(bytes(["a", "b"])), textColumn(bytes(["a", "c"])), "id")).toThrow(
      /values differ from the answers/,
    );
    const viaBytes = memberOf(textColumn(bytes(["a", "b", null])), textColumn(bytes(["b", "z", null, "a"])));
    expect(Array.from(viaBytes)).toEqual([1, 0, 0, 1]);
    expect(Array.from(memberOf(plain(["a", "b", null]), plain(["b", "z", null, "a"])))).toEqual([1, 0, 0, 1]);
  });
});
