import { describe, expect, it } from "vitest";
import { grade } from "../../src/competitions/nfl-player-contact-detection/grade.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { matthewsCorrcoef, matthewsCorrcoefNumeric } from "../../src/metrics/mcc.js";

describe("nfl-player-contact-detection grader", () => {
  it("takes the typed-array MCC path with the same result as the general one", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const classes of [2, 3]) {
      const yTrue = Float64Array.from({ length: 5000 }, () => Math.floor(next() * classes));
      const yPred = yTrue.map((v) => (next() < 0.2 ? Math.floor(next() * classes) : v));
      expect(matthewsCorrcoefNumeric(yTrue, yPred)).toBe(matthewsCorrcoef(Array.from(yTrue), Array.from(yPred)));
    }
    expect(() => matthewsCorrcoefNumeric(Float64Array.of(0, 1), Float64Array.of(0.2, 1))).toThrow(/binary and continuous/);
    expect(() => matthewsCorrcoefNumeric(Float64Array.of(0, 1), Float64Array.of(NaN, 1))).toThrow(/NaN/);
  });

  it("names the row holding a probability", () => {
    const answers = parseCsv("contact_id,contact\na_1,0\na_2,1\na_3,1\n");
    const sub = parseCsv("contact_id,contact\na_3,1\na_1,0\na_2,0.75\n");
    expect(() => grade(sub, answers)).toThrow(/data row 3 holds 0\.75/);
  });
});
