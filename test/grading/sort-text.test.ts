import { describe, expect, it } from "vitest";
import { codePointOrder } from "./code-point-order.js";
import { textSortOrder } from "../../src/grading/sort-text.js";

const reference = codePointOrder;

function lcg(seed: number) {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

describe("textSortOrder", () => {
  it("matches a stable code-point sort on random Latin-1 text of varied lengths (radix path)", () => {
    const rand = lcg(3);
    const alphabet = "ab-01 zé\u00ff";
    const values = Array.from({ length: 3000 }, () =>
      rand() < 0.05 ? null : Array.from({ length: Math.floor(rand() * 6) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(""),
    );
    expect(Array.from(textSortOrder(values))).toEqual(reference(values));
  });

  it("orders prefixes before their extensions and keeps ties in file order", () => {
    expect(Array.from(textSortOrder(["ab", "a", "abc", "a", ""]))).toEqual([4, 1, 3, 0, 2]);
  });

  it("uses code points beyond Latin-1 (comparison path), astral characters after U+FFFF-range ones", () => {
    const values = ["\u{1F600}", "\uFB01", "z", "\u0100", null, "\u{1F600}a"];
    expect(Array.from(textSortOrder(values))).toEqual(reference(values));
    expect(Array.from(textSortOrder(values))).toEqual([2, 3, 1, 0, 5, 4]);
  });

  it("returns file order for already sorted input", () => {
    expect(Array.from(textSortOrder(["a", "b", "b", "c", null]))).toEqual([0, 1, 2, 3, 4]);
  });
});
