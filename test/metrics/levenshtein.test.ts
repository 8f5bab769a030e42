import { describe, expect, it } from "vitest";
import { levenshtein, levenshteinSeq } from "../../src/metrics/levenshtein.js";
import { golden } from "./golden-other.js";

interface Case<T> {
  name: string;
  a: T;
  b: T;
  expected: number;
}

describe("levenshtein matches a plain DP over code points", () => {
  it.each((golden.levenshtein as Case<string>[]).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(levenshtein(c.a, c.b)).toBe(c.expected);
    expect(levenshtein(c.b, c.a)).toBe(c.expected);
  });

  it("counts an astral character as one symbol, a combining sequence as two", () => {
    expect(levenshtein("😀", "")).toBe(1);
    expect(levenshtein("e\u0301", "é")).toBe(2);
  });

  it("handles long strings", () => {
    const a = "InChI=1S/C".repeat(300);
    const b = "InChI=1S/N".repeat(300);
    expect(levenshtein(a, b)).toBe(300);
  });
});

describe("levenshteinSeq", () => {
  it.each((golden.levenshtein_seq as Case<(string | number)[]>[]).map((c) => [c.name, c] as const))(
    "%s",
    (_name, c) => {
      expect(levenshteinSeq(c.a, c.b)).toBe(c.expected);
    },
  );

  it("compares whole tokens, not characters", () => {
    expect(levenshteinSeq(["hello", "world"], ["hello", "word"])).toBe(1);
  });
});

describe("levenshtein on long strings (bit-parallel, several 32-row blocks)", () => {
  /** The textbook DP, for cross-checking. */
  function plainDp(a: string, b: string): number {
    const s = Array.from(a);
    const t = Array.from(b);
    let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
    for (let i = 1; i <= s.length; i++) {
      const row = [i];
      for (let j = 1; j <= t.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
      prev = row;
    }
    return prev[t.length];
  }

  it("agrees with the plain DP on random strings of 1 to 200 symbols over small and large alphabets", () => {
    let seed = 12345;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const word = (len: number, alphabet: string) => Array.from({ length: len }, () => alphabet[rand(alphabet.length)]).join("");
    for (let k = 0; k < 400; k++) {
      const alphabet = k % 3 === 0 ? "ab" : k % 3 === 1 ? "InChI=1S/C12H16N2O/c1-9(2)" : "αβγδ😀🎉xyz";
      const a = word(1 + rand(200), alphabet);
      // Half the pairs are near copies, the case graders see most.
      const b = k % 2 === 0 ? word(1 + rand(200), alphabet) : a.slice(0, rand(a.length)) + word(rand(5), alphabet) + a.slice(rand(a.length));
      expect(levenshtein(a, b), `${a} / ${b}`).toBe(plainDp(a, b));
    }
  });
});
