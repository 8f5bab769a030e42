/**
 * The reader parses floats from bytes with its own correctly rounded algorithm (falling back to
 * Number() near ties); these tests hold it to Number(), which is correctly rounded like Python's
 * float() and pandas' round_trip converter.
 */
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/io/csv-read.js";

/** A deterministic 32-bit generator, so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function digitsString(next: () => number, n: number): string {
  let out = String(1 + (next() % 9));
  while (out.length < n) out += String(next() % 10);
  return out;
}

/** The exact decimal expansion of the dyadic rational m·2^e (m a non-negative bigint). */
function exactDecimal(m: bigint, e: number): { digits: string; point: number } {
  if (e >= 0) {
    const d = (m << BigInt(e)).toString();
    return { digits: d, point: d.length };
  }
  // m / 2^k = m·5^k / 10^k
  const k = -e;
  const d = (m * 5n ** BigInt(k)).toString();
  return { digits: d, point: d.length - k };
}

/** The midpoint between positive double x and the next double up, as exact decimal digits. */
function midpointAbove(x: number): { digits: string; point: number } {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const bits = dv.getBigUint64(0);
  const expField = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const m = expField === 0 ? frac : frac | (1n << 52n);
  const e = (expField === 0 ? 1 : expField) - 1075;
  return exactDecimal(2n * m + 1n, e - 1);
}

/** Scientific notation from significant digits and the position of the decimal point. */
function sci(digits: string, point: number): string {
  const t = digits.replace(/^0+/, "");
  const shift = digits.length - t.length;
  return `${t[0]}.${t.slice(1) || "0"}e${point - shift - 1}`;
}

function parseColumn(cells: string[]): Float64Array {
  const t = parseCsv(`x\n${cells.join("\n")}\n`);
  const col = t.data.get("x")!;
  expect(col.kind).toBe("float");
  return col.values as Float64Array;
}

function expectAllEqual(cells: string[]): void {
  const got = parseColumn(cells);
  const bad: string[] = [];
  cells.forEach((c, i) => {
    if (!Object.is(got[i], Number(c))) bad.push(`${c}: got ${got[i]}, want ${Number(c)}`);
  });
  expect(bad.slice(0, 10)).toEqual([]);
}

describe("float parsing agrees with Number()", () => {
  it("on random 1-25 digit decimals across the exponent range", () => {
    const next = rng(1);
    const cells: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      const n = 1 + (next() % 25);
      const d = digitsString(next, n);
      const e = (next() % 120) - 80;
      const sign = next() % 4 === 0 ? "-" : "";
      const form = next() % 3;
      if (form === 0) cells.push(`${sign}${d}e${e}`);
      else if (form === 1) {
        const p = next() % (n + 1);
        cells.push(`${sign}${d.slice(0, p) || "0"}.${d.slice(p)}`);
      } else cells.push(`${sign}0.${"0".repeat(next() % 8)}${d}`);
    }
    expectAllEqual(cells);
  });

  it("on values written by JavaScript (shortest round-trip digits)", () => {
    const next = rng(2);
    const cells: string[] = [];
    const dv = new DataView(new ArrayBuffer(8));
    for (let i = 0; i < 30_000; i++) {
      dv.setUint32(0, next() & 0x7fffffff);
      dv.setUint32(4, next());
      const x = dv.getFloat64(0);
      if (!Number.isFinite(x) || x === 0) continue;
      cells.push(String(x), x.toExponential(), x.toPrecision(17), x.toPrecision(19));
    }
    for (let i = 0; i < 20_000; i++) {
      const x = (next() / 2 ** 32) * 10 ** ((next() % 30) - 15);
      cells.push(String(x), x.toPrecision(17));
    }
    expectAllEqual(cells);
  });

  it("on decimals within a hair of halfway between two doubles", () => {
    const next = rng(3);
    const cells: string[] = [];
    const dv = new DataView(new ArrayBuffer(8));
    for (let i = 0; i < 6_000; i++) {
      // Magnitudes where the exact path applies (about 1e-30 .. 1e40) and beyond.
      const x = (1 + next() / 2 ** 32) * 2 ** ((next() % 240) - 110);
      dv.setFloat64(0, x);
      const { digits, point } = midpointAbove(x);
      for (const keep of [16, 17, 18, 19, 20]) {
        const head = digits.slice(0, keep);
        cells.push(sci(head, point));
        const up = (BigInt(head) + 1n).toString();
        cells.push(sci(up, point + (up.length - head.length)));
      }
      if (digits.length <= 40) cells.push(sci(digits, point));
    }
    // Exact ties between integers: round half to even.
    cells.push("9007199254740993", "9007199254740995", "9007199254740993.0", "18014398509481987", "9007199254740993e5");
    expectAllEqual(cells);
  });

  it("keeps pandas' spellings and limits", () => {
    const got = parseColumn([
      " 1.5",
      "2.5 ",
      "+.5",
      "1.",
      "-0",
      "1E+05",
      "-1e400",
      "1e-400",
      "inf",
      "-Infinity",
      "00012.500",
    ]);
    expect(Array.from(got)).toEqual([1.5, 2.5, 0.5, 1, -0, 100000, -Infinity, 0, Infinity, -Infinity, 12.5]);
    // +inf by overflow is not a float to pandas: the column becomes text.
    expect(parseCsv("x\n1.5\n1e400\n").data.get("x")!.kind).toBe("string");
  });
});
