import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pyRound } from "../../src/pycompat/round.js";

const cases = JSON.parse(readFileSync(new URL("../golden/rounding.json", import.meta.url), "utf8")) as [string, string][];

describe("pyRound", () => {
  it("matches Python's round(x, 5) on every golden value, ties to even included", () => {
    expect(cases.length).toBeGreaterThan(1000);
    const wrong = cases.filter(([x, want]) => !Object.is(pyRound(Number(x), 5), Number(want)));
    expect(wrong).toEqual([]);
  });

  it("keeps non-finite values", () => {
    expect(pyRound(NaN)).toBeNaN();
    expect(pyRound(Infinity)).toBe(Infinity);
    expect(pyRound(-Infinity)).toBe(-Infinity);
  });
});
