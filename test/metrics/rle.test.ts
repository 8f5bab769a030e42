import { describe, expect, it } from "vitest";
import { rleDecode, rleEncode, rleEncodeString } from "../../src/metrics/rle.js";
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
