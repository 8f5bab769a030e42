/** Test helper: the order a stable comparison sort by code point gives, nulls last (the reference for text sorts). */
import { compareStrings } from "../../src/grading/compare-text.js";

export function codePointOrder(values: readonly (string | null)[]): number[] {
  return values
    .map((_, i) => i)
    .sort((a, b) => {
      const x = values[a];
      const y = values[b];
      if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
      return compareStrings(x, y) || a - b;
    });
}
