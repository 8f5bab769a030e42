import { describe, expect, it } from "vitest";
import { grade } from "../../src/competitions/smartphone-decimeter-2022/grade.js";
import { numpyQuantile } from "../../src/competitions/smartphone-decimeter-2022/quantile.js";
import { parseCsv } from "../../src/io/csv-read.js";

// Golden values from numpy.quantile (default linear method) and from upstream's grader.
const HEADER = "tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n";
const ANSWERS = parseCsv(HEADER + "a,1,37.0,-122.0\na,2,37.0001,-122.0\nb,1,37.5,-122.5\n");

describe("numpyQuantile", () => {
  it.each([
    [[3, 1, 4, 1, 5, 9, 2, 6], 3.5, 7.949999999999998],
    [[2.5], 2.5, 2.5],
    [[0.1, 0.7], 0.39999999999999997, 0.6699999999999999],
    [[0.001, 0.002, 7.0], 0.002, 6.300199999999999],
    [[0.238131, 4.541276, 1.730946, 3.856256, 11.448709], 3.856256, 10.067222399999999],
    [
      [2.319793, 2.086172, 0.224336, 0.937724, 2.078737, 3.411093, 4.88493, 1.438665, 0.204632, 1.019646, 7.210318, 0.72005, 1.805119],
      1.805119,
      5.815085199999997,
    ],
  ])("matches numpy on %j", (values, p50, p95) => {
    expect(numpyQuantile(Float64Array.from(values), 0.5)).toBe(p50);
    expect(numpyQuantile(Float64Array.from(values), 0.95)).toBe(p95);
  });

  it("is NaN when any value is NaN", () => {
    expect(numpyQuantile(Float64Array.from([1, NaN, 3]), 0.5)).toBeNaN();
  });
});

describe("smartphone-decimeter-2022 grade", () => {
  it("matches upstream on a small case", () => {
    const sub = parseCsv(HEADER + "a,1,37.0,-122.0\na,2,37.0002,-122.0\nb,1,37.5,-122.5001\n");
    expect(grade(sub, ANSWERS)).toBeCloseTo(8.441659414234259, 9);
  });

  // Upstream lets NaN through np.quantile, so the submission stays valid with a NaN score.
  it("scores NaN for a missing or infinite coordinate", () => {
    expect(grade(parseCsv(HEADER + "a,1,37.0,-122.0\na,2,,-122.0\nb,1,37.5,-122.5\n"), ANSWERS)).toBeNaN();
    expect(grade(parseCsv(HEADER + "a,1,37.0,-122.0\na,2,37.0001,-122.0\nb,1,37.5,inf\n"), ANSWERS)).toBeNaN();
  });

  it("names the row of a text coordinate", () => {
    const sub = parseCsv(HEADER + "a,1,37.0,-122.0\na,2,north,-122.0\nb,1,37.5,-122.5\n");
    expect(() => grade(sub, ANSWERS)).toThrow(/"LatitudeDegrees" must hold numbers.*data row 2 holds "north"/);
  });

  it("names the trip whose row count differs", () => {
    const sub = parseCsv(HEADER + "a,1,37.0,-122.0\nb,2,37.0001,-122.0\nb,1,37.5,-122.5\n");
    expect(() => grade(sub, ANSWERS)).toThrow(/tripId "a" has 1 rows in the submission but 2 in the answers/);
  });
});
