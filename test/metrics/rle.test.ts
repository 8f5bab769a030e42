import { describe, expect, it } from "vitest";
import { RleError, type RleRuns, rleDecode, rleEncode, rleEncodeString, rleRuns, runsArea, runsOverlap } from "../../src/metrics/rle.js";
import { golden, isError } from "./golden-other.js";

interface EncodeCase {
  name: string;
  mask: number[];
  height: number;
  width: number;
  expected: number[];
  expected_string: string;
}
interface DecodeCase {
  name: string;
  rle: string;
  height: number;
  width: number;
  expected: number[] | { error: string };
}

describe("rleEncode matches mle-bench's rle_encode", () => {
  it.each((golden.rle.encode as EncodeCase[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(rleEncode(c.mask, c.height, c.width)).toEqual(c.expected);
    expect(rleEncodeString(c.mask, c.height, c.width)).toBe(c.expected_string);
  });

  it("rejects a mask of the wrong size", () => {
    expect(() => rleEncode([1, 0, 1], 2, 2)).toThrow(/3 pixels, expected 2 × 2 = 4/);
  });

  it("honours fgValue", () => {
    // Row-major [[255, 0], [255, 255]]: column 0 is pixels 1-2, column 1 has pixel 4.
    expect(rleEncode([255, 0, 255, 255], 2, 2, 255)).toEqual([1, 2, 4, 1]);
  });
});

describe("rleDecode matches mle-bench's rle_decode", () => {
  it.each((golden.rle.decode as DecodeCase[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    if (isError(c.expected)) {
      expect(() => rleDecode(c.rle, c.height, c.width), `reference: ${c.expected.error}`).toThrow();
      return;
    }
    const got = rleDecode(c.rle, c.height, c.width);
    expect(got).toBeInstanceOf(Uint8Array);
    expect(Array.from(got)).toEqual(c.expected);
  });

  it("explains its errors", () => {
    expect(() => rleDecode("3 1 1 1", 3, 3)).toThrow(/must be sorted/);
    expect(() => rleDecode("1 0", 3, 3)).toThrow(/positive integers/);
    expect(() => rleDecode("1 3 2 1", 3, 3)).toThrow(/overlapping/);
    expect(() => rleDecode("1 2 x", 3, 3)).toThrow(/invalid integer "x"/);
    expect(() => rleDecode("1 1 3 1 5", 3, 3)).toThrow(/odd number of values \(5\)/);
    expect(() => rleDecode("1 1", 2.5, 3)).toThrow(/height must be a non-negative integer/);
    expect(() => rleDecode("1 1", 3, -1)).toThrow(/width must be a non-negative integer/);
  });

  it("round-trips a large mask", () => {
    const h = 256;
    const w = 256;
    const mask = new Uint8Array(h * w).map((_, i) => ((i * 2654435761) >>> 28) & 1);
    expect(rleDecode(rleEncodeString(mask, h, w), h, w)).toEqual(mask);
  });
});

/** The flat pixel indices the runs cover. */
function pixels(runs: RleRuns): number[] {
  const out: number[] = [];
  for (let r = 0; r < runs.starts.length; r++) for (let k = runs.starts[r]; k < runs.ends[r]; k++) out.push(k);
  return out;
}

describe("rleRuns matches mle-bench's rle_decode without painting a mask", () => {
  it.each((golden.rle.decode as DecodeCase[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const size = c.height * c.width;
    if (isError(c.expected)) {
      expect(() => rleRuns(c.rle, size)).toThrow(RleError);
      return;
    }
    // The golden masks are row-major; runs are in the RLE's own (column-major) pixel order.
    const mask = c.expected;
    const want: number[] = [];
    for (let col = 0; col < c.width; col++) {
      for (let row = 0; row < c.height; row++) if (mask[row * c.width + col]) want.push(col * c.height + row);
    }
    expect(pixels(rleRuns(c.rle, size))).toEqual(want);
  });

  // Values beyond 2^53 follow numpy's integer arithmetic (int64/uint64 wrap-around, float64 for
  // mixed int64/uint64, which cannot slice); the pixels are what upstream's rle_decode painted
  // on a 3 × 4 image with Debian's numpy 1.24, null where it raised.
  it.each([
    ["huge start ignored", "3 2 9007199254740993 5", [2, 3]],
    ["huge length fills to end", "3 99999999999999999999", [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
    ["int64 max length", "3 9223372036854775807", []],
    ["uint64 start only", "2 1 9223372036854775808 1", null],
    ["uint64 start with int64 length", "9223372036854775808 1", null],
    ["uint64 both", "9223372036854775808 9223372036854775808", []],
    ["int64 wrap", "4611686018427387905 4611686018427387904", []],
    ["int64 wrap small start", "2 9223372036854775807", []],
    ["object start", "18446744073709551617 3", []],
    ["unsorted beyond 2^53", "9007199254740993 1 9007199254740992 1", null],
    ["sorted beyond 2^53", "9007199254740992 1 9007199254740993 1", []],
    ["uint64 wrap to small", "5 18446744073709551613", null],
    ["three values huge length", "1 99999999999999999999 5", null],
    ["lone huge start", "99999999999999999999", []],
  ] as const)("%s", (_name, rle, want) => {
    if (want === null) expect(() => rleRuns(rle, 12)).toThrow(RleError);
    else expect(pixels(rleRuns(rle, 12))).toEqual(want);
  });

  it("counts areas and overlaps like the painted masks", () => {
    const h = 37;
    const w = 53;
    for (let seed = 1; seed <= 20; seed++) {
      const a = new Uint8Array(h * w).map((_, i) => (((i + seed) * 2654435761) >>> 29) & 1 & (i % (seed + 2) ? 1 : 0));
      const b = new Uint8Array(h * w).map((_, i) => (((i * seed + 7) * 40503) >>> 11) & 1);
      const ra = rleRuns(rleEncodeString(a, h, w), h * w);
      const rb = rleRuns(rleEncodeString(b, h, w), h * w);
      expect(runsArea(ra)).toBe(a.reduce((s, v) => s + v, 0));
      expect(runsOverlap(ra, rb)).toBe(a.reduce((s, v, i) => s + (v & b[i]), 0));
      expect(runsOverlap(rb, ra)).toBe(runsOverlap(ra, rb));
    }
  });

  it("handles a 30000 × 30000 image from its runs alone", () => {
    const size = 30000 * 30000;
    const parts: string[] = [];
    for (let k = 0; k < 20000; k++) parts.push(`${1 + k * 45000} ${1000 + (k % 7)}`);
    const runs = rleRuns(parts.join(" "), size);
    expect(runs.starts.length).toBe(20000);
    expect(runsOverlap(runs, rleRuns(`1 ${size}`, size))).toBe(runsArea(runs));
  });

  it("says which pair is wrong", () => {
    expect(() => rleRuns("1 2 9 1 5 1", 100)).toThrow(/pair 3 starts at 5 after a pair starting at 9/);
    expect(() => rleRuns("1 2 9 0", 100)).toThrow(/pair 2 has length 0/);
    expect(() => rleRuns("1 5 3 2", 100)).toThrow(/overlapping RLE pairs are not allowed: pair 2/);
  });
});
