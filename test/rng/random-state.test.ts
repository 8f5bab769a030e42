import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { glibcLog, RandomState } from "../../src/rng/random-state.js";

type Call = [method: string, args: unknown[], out: unknown];
type Case = { name: string; seed: number | number[]; calls: Call[] };

const golden = JSON.parse(readFileSync(new URL("../golden/rng-numpy.json", import.meta.url), "utf8")) as {
  numpy: string;
  cases: Case[];
  logs: [number, number][];
};

const METHODS: Record<string, string> = {
  random_sample: "randomSample",
  rand: "rand",
  randn: "randn",
  randint: "randint",
  permutation: "permutation",
  shuffle: "shuffle",
  choice: "choice",
  uniform: "uniform",
  standard_normal: "standardNormal",
  normal: "normal",
  seed: "seed",
};

// Exact comparison where doubles must agree bit for bit (Object.is also separates 0 and -0).
function sameBits(got: unknown, want: unknown): boolean {
  if (Array.isArray(want)) {
    return Array.isArray(got) && got.length === want.length && want.every((w, i) => sameBits(got[i], w));
  }
  return Object.is(got, want);
}

function replay(c: Case): string[] {
  const rs = new RandomState(c.seed);
  const wrong: string[] = [];
  c.calls.forEach(([method, args, want], i) => {
    // JSON null stands for an omitted positional argument (numpy's None).
    const jsArgs = args.map((a) => (a === null ? undefined : a));
    const fn = (rs as unknown as Record<string, (...a: unknown[]) => unknown>)[METHODS[method]];
    let got = fn.apply(rs, jsArgs);
    if (method === "shuffle") {
      got = jsArgs[0];
    }
    if (method === "seed") got = null;
    if (!sameBits(got, want)) {
      wrong.push(`${c.name} #${i} ${method}(${JSON.stringify(args)}): got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
  });
  return wrong;
}

describe("RandomState against numpy's legacy RandomState", () => {
  it("was generated from numpy's legacy generator", () => {
    expect(golden.numpy).toMatch(/^1\./);
    expect(golden.cases.length).toBeGreaterThan(40);
  });

  for (const c of golden.cases) {
    it(`reproduces ${c.name}`, () => {
      expect(replay(c)).toEqual([]);
    });
  }
});

describe("glibcLog", () => {
  it("equals the C library's log that numpy calls, bit for bit (Math.log does not)", () => {
    expect(golden.logs.length).toBeGreaterThan(3000);
    const wrong = golden.logs.filter(([x, want]) => !Object.is(glibcLog(x), want));
    expect(wrong).toEqual([]);
    expect(golden.logs.some(([x, want]) => !Object.is(Math.log(x), want))).toBe(true);
  });
});

describe("RandomState argument checks", () => {
  it("rejects seeds numpy rejects", () => {
    expect(() => new RandomState(-1)).toThrow(/between 0 and 2\*\*32 - 1/);
    expect(() => new RandomState(2 ** 32)).toThrow(/between 0 and 2\*\*32 - 1/);
    expect(() => new RandomState(1.5)).toThrow(TypeError);
    expect(() => new RandomState([])).toThrow(/non-empty/);
    expect(() => new RandomState([1, -2])).toThrow(/between/);
  });

  it("treats a bigint seed like the same number", () => {
    expect(new RandomState(4294967295n).randomSample(3)).toEqual(new RandomState(4294967295).randomSample(3));
  });

  it("rejects bad randint bounds and unsupported magnitudes", () => {
    const rs = new RandomState(0);
    expect(() => rs.randint(5, 5)).toThrow(/low >= high/);
    expect(() => rs.randint(0)).toThrow(/low >= high/);
    expect(() => rs.randint(0, 2 ** 31 + 1, 3, "int32")).toThrow(/high is out of bounds for int32/);
    expect(() => rs.randint(0, 2n ** 64n)).toThrow(/high is out of bounds for int64/);
    expect(() => rs.randint(0, 2n ** 60n)).toThrow(/unsupported/);
    expect(rs.randint(5, 5, 0)).toEqual([]);
  });

  it("rejects bad choice arguments as numpy does", () => {
    const rs = new RandomState(0);
    expect(() => rs.choice(0)).toThrow(/greater than 0/);
    expect(() => rs.choice([])).toThrow(/cannot be empty/);
    expect(() => rs.choice(3, 4, false)).toThrow(/larger sample/);
    expect(() => rs.choice(3, 1, true, [0.5, 0.5])).toThrow(/same size/);
    expect(() => rs.choice(2, 1, true, [0.5, 0.6])).toThrow(/sum to 1/);
    expect(() => rs.choice(2, 1, true, [1.5, -0.5])).toThrow(/non-negative/);
    expect(() => rs.choice(3, 2, false, [1, 0, 0])).toThrow(/Fewer non-zero/);
  });

  it("rejects a negative scale and a non-finite uniform range", () => {
    const rs = new RandomState(0);
    expect(() => rs.normal(0, -0)).toThrow(/scale < 0/);
    expect(() => rs.uniform(0, Infinity)).toThrow(/Range exceeds/);
  });
});
