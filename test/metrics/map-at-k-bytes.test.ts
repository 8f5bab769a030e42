import { describe, expect, it } from "vitest";
import { textBytesOf } from "../grading/text-bytes-of.js";
import { averagePrecisionAtKBytes } from "../../src/metrics/map-at-k-bytes.js";
import { averagePrecisionAtK } from "../../src/metrics/map-at-k.js";

const bytes = textBytesOf;

/** What the string path scores: pandas' astype(str) ("nan" for a missing value), split on single spaces. */
function onStrings(actual: string | null, predicted: string | null, k: number): number {
  return averagePrecisionAtK(new Set((actual ?? "nan").split(" ")), (predicted ?? "nan").split(" "), k);
}

function lcg(seed: number) {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

describe("averagePrecisionAtKBytes", () => {
  it("scores as the string path on random lists with repeats, empty tokens, missing values and é", () => {
    const rand = lcg(11);
    const tokens = ["0108775015", "0108775044", "0110065001", "", "nan", "é1", "0108775015 "];
    const row = (most: number): string | null => {
      if (rand() < 0.03) return null;
      return Array.from({ length: 1 + Math.floor(rand() * most) }, () => tokens[Math.floor(rand() * tokens.length)]).join(
        rand() < 0.1 ? "  " : " ",
      );
    };
    const actual = Array.from({ length: 3000 }, () => row(6));
    const predicted = Array.from({ length: 3000 }, () => row(20));
    const a = bytes(actual);
    const p = bytes(predicted);
    let compared = 0;
    for (const k of [1, 5, 12, 32]) {
      for (let i = 0; i < actual.length; i++) {
        const j = (i * 7) % predicted.length;
        expect(averagePrecisionAtKBytes(a, i, p, j, k)).toBe(onStrings(actual[i], predicted[j], k));
        compared++;
      }
    }
    expect(compared).toBe(12_000);
  });

  it("counts an answer's repeated articles once and a repeated guess only where it first appears", () => {
    const a = bytes(["x y x"]);
    const p = bytes(["y y x z"]);
    expect(averagePrecisionAtKBytes(a, 0, p, 0, 12)).toBe(onStrings("x y x", "y y x z", 12));
    expect(averagePrecisionAtKBytes(a, 0, p, 0, 12)).toBeCloseTo((1 / 1 + 2 / 3) / 2, 15);
  });

  it("leaves rows too long for it, and k above 32, to the string path (NaN)", () => {
    const long = Array.from({ length: 65 }, (_, i) => `a${i}`).join(" ");
    const a = bytes([long, "a1"]);
    const p = bytes(["a1 a2"]);
    expect(averagePrecisionAtKBytes(a, 0, p, 0, 12)).toBeNaN();
    expect(averagePrecisionAtKBytes(a, 1, p, 0, 33)).toBeNaN();
    expect(averagePrecisionAtKBytes(a, 1, p, 0, 12)).toBe(1);
  });
});
