/** Bit-exact comparison with numpy's default_rng, golden data from scripts/golden/rng_generator.py. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defaultRng, Generator } from "../../src/rng/generator.js";
import { PCG64 } from "../../src/rng/pcg64.js";
import { SeedSequence, type Entropy } from "../../src/rng/seed-sequence.js";

type Seed = string | string[];
interface State {
  state: string;
  inc: string;
  has_uint32: boolean;
  uinteger: number;
}
interface Golden {
  numpy: string;
  seed_sequence: { entropy: Seed; pool: number[]; u32: number[]; u64: string[] }[];
  spawn: { entropy: string; spawn_key: number[]; u32: number[] }[];
  pcg64: { seed: Seed; init: State; next64: string[] }[];
  next32: { seed: string; values: string[]; state: State };
  next_double: { seed: string; values: string[] };
  random: { seed: number; one: string; many: string[]; shaped: string[]; state: State }[];
  integers: {
    seed: number;
    low: string;
    high: string | null;
    endpoint: boolean;
    one: string;
    many: string[];
    state: State;
  }[];
  interleaved: { seed: number; steps: string[][]; state: State };
  permutation: ({ seed: number; n: number; perm: number[] } | { seed: number; state: State })[];
  permutation_1e6: { seed: number; head: number[]; tail: number[]; sha256_int64le: string; state: State };
  shuffle: { seed: number; letters: string[]; arr: number[]; perm_list: string[]; state: State }[];
  standard_normal: {
    seed: number;
    one: string;
    head: string[];
    n: number;
    sha256: string;
    beyond_r: number;
    state: State;
  }[];
  choice: {
    seed: number;
    a: number | string[];
    size: number | number[] | null;
    replace: boolean;
    p: number[] | null;
    shuffle: boolean;
    scalar: boolean;
    state: State;
    result?: string[];
    sha256?: string;
    head?: string[];
  }[];
}

const golden: Golden = JSON.parse(
  readFileSync(fileURLToPath(new URL("../golden/rng-generator.json", import.meta.url)), "utf8"),
);

const seedOf = (s: Seed): Entropy => (Array.isArray(s) ? s.map((v) => BigInt(v)) : BigInt(s));
const stateOf = (g: Generator | PCG64): State => {
  const st = (g instanceof Generator ? g.bitGenerator : g).getState();
  return { state: String(st.state), inc: String(st.inc), has_uint32: st.hasUint32, uinteger: st.uinteger };
};
/** Python's float.hex() for finite normal doubles and zero (all the generator produces). */
const hex = (x: number): string => {
  if (x === 0) return "0x0.0p+0";
  if (x < 0) return "-" + hex(-x);
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn) - 1023;
  const mant = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, "0");
  return `0x1.${mant}p${exp >= 0 ? "+" : ""}${exp}`;
};

describe("SeedSequence", () => {
  it(`matches numpy ${golden.numpy} pools and generated states`, () => {
    for (const c of golden.seed_sequence) {
      const ss = new SeedSequence(seedOf(c.entropy));
      expect([...ss.pool], JSON.stringify(c.entropy)).toEqual(c.pool);
      expect(ss.generateState(9)).toEqual(c.u32);
      expect(ss.generateState(5, "uint64").map(String)).toEqual(c.u64);
    }
  });

  it("pads run entropy before a spawn key", () => {
    for (const c of golden.spawn) {
      expect(new SeedSequence(BigInt(c.entropy), { spawnKey: c.spawn_key }).generateState(4)).toEqual(c.u32);
    }
  });

  it("accepts plain numbers like BigInts and rejects negatives", () => {
    expect([...new SeedSequence(42).pool]).toEqual([...new SeedSequence(42n).pool]);
    expect(() => new SeedSequence(-1)).toThrow();
  });
});

describe("PCG64", () => {
  it("seeds and draws 64-bit words like numpy", () => {
    for (const c of golden.pcg64) {
      const bg = new PCG64(seedOf(c.seed));
      expect(stateOf(bg)).toEqual(c.init);
      expect(Array.from({ length: c.next64.length }, () => String(bg.next64()))).toEqual(c.next64);
    }
  });

  it("buffers the high half for the next 32-bit draw", () => {
    const bg = new PCG64(42);
    expect(golden.next32.values.map(() => String(bg.next32()))).toEqual(golden.next32.values);
    expect(stateOf(bg)).toEqual(golden.next32.state);
  });

  it("makes doubles from the top 53 bits", () => {
    const bg = new PCG64(42);
    expect(golden.next_double.values.map(() => hex(bg.nextDouble()))).toEqual(golden.next_double.values);
  });
});

describe("Generator", () => {
  it("random", () => {
    for (const c of golden.random) {
      const g = defaultRng(c.seed);
      expect(hex(g.random())).toBe(c.one);
      expect(g.random(25).map(hex)).toEqual(c.many);
      expect(g.random([2, 3]).map(hex)).toEqual(c.shaped);
      expect(stateOf(g)).toEqual(c.state);
    }
  });

  it("integers over small, 32-bit, 64-bit and negative ranges", () => {
    expect(golden.integers.length).toBeGreaterThan(50);
    for (const c of golden.integers) {
      const label = `seed ${c.seed} [${c.low}, ${c.high}${c.endpoint ? "]" : ")"}`;
      const low = BigInt(c.low);
      const high = c.high === null ? null : BigInt(c.high);
      const g = defaultRng(c.seed);
      expect(String(g.integers(low, high, undefined, c.endpoint)), label).toBe(c.one);
      expect(g.integers(low, high, 37, c.endpoint).map(String), label).toEqual(c.many);
      expect(stateOf(g), label).toEqual(c.state);
      // The number overloads must agree wherever the bounds are safe integers.
      const safe = (v: bigint | null) => v === null || (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER));
      if (safe(low) && safe(high)) {
        const h = defaultRng(c.seed);
        const hi = high === null ? null : Number(high);
        expect(String(h.integers(Number(low), hi, undefined, c.endpoint)), label).toBe(c.one);
        expect(h.integers(Number(low), hi, 37, c.endpoint).map(String), label).toEqual(c.many);
      }
    }
  });

  it("keeps the 32-bit buffer across calls", () => {
    const { seed, steps, state } = golden.interleaved;
    const g = defaultRng(seed);
    for (const [kind, arg, want] of steps) {
      if (kind === "random") expect(hex(g.random())).toBe(arg);
      else expect(String(g.integers(Number(arg)))).toBe(want);
    }
    expect(stateOf(g)).toEqual(state);
  });

  it("rejects empty and out-of-range bounds", () => {
    const g = defaultRng(0);
    expect(() => g.integers(5, 5)).toThrow("low >= high");
    expect(() => g.integers(5, 4, undefined, true)).toThrow("low > high");
    expect(() => g.integers(0n, 1n << 63n, undefined, true)).toThrow();
    expect(() => g.integers(0.5)).toThrow();
  });

  it("permutation of n = 0..1000", () => {
    let g = defaultRng(0);
    for (const c of golden.permutation) {
      if ("n" in c) {
        if (c.n === 0) g = defaultRng(c.seed);
        expect(g.permutation(c.n), `seed ${c.seed} n ${c.n}`).toEqual(c.perm);
      } else {
        expect(stateOf(g)).toEqual(c.state);
      }
    }
  });

  it("permutation of 1e6 elements, fast", () => {
    const c = golden.permutation_1e6;
    const g = defaultRng(c.seed);
    const t0 = performance.now();
    const perm = g.permutation(1_000_000);
    const ms = performance.now() - t0;
    expect(perm.slice(0, 20)).toEqual(c.head);
    expect(perm.slice(-20)).toEqual(c.tail);
    const bytes = new BigInt64Array(perm.map((v) => BigInt(v)));
    expect(createHash("sha256").update(new Uint8Array(bytes.buffer)).digest("hex")).toBe(c.sha256_int64le);
    expect(stateOf(g)).toEqual(c.state);
    expect(ms).toBeLessThan(2000);
  });

  it("shuffle of lists and typed arrays, permutation of a list", () => {
    for (const c of golden.shuffle) {
      const g = defaultRng(c.seed);
      expect(g.shuffle([..."abcdefghijklmnopqrstuvwxyz"])).toEqual(c.letters);
      const arr = new Int32Array(50).map((_, i) => 100 + i);
      g.shuffle(arr);
      expect([...arr]).toEqual(c.arr);
      const src = ["x", "y", "z", "w", "v"];
      expect(g.permutation(src)).toEqual(c.perm_list);
      expect(src).toEqual(["x", "y", "z", "w", "v"]);
      expect(stateOf(g)).toEqual(c.state);
    }
  });

  it("choice: replacement, p, Floyd and tail-shuffle paths", () => {
    expect(golden.choice.length).toBeGreaterThan(40);
    for (const c of golden.choice) {
      const label = JSON.stringify({ ...c, state: undefined, result: undefined });
      const g = defaultRng(c.seed);
      const size = c.size ?? undefined;
      const got = (g.choice as (...args: unknown[]) => unknown)(c.a, size, c.replace, c.p, c.shuffle);
      expect(Array.isArray(got), label).toBe(!c.scalar);
      const res = (Array.isArray(got) ? got : [got]).map(String);
      if (c.result) expect(res, label).toEqual(c.result);
      else {
        expect(res.slice(0, 10), label).toEqual(c.head);
        expect(createHash("sha256").update(res.join(",")).digest("hex"), label).toBe(c.sha256);
      }
      expect(stateOf(g), label).toEqual(c.state);
    }
  });

  it("standard_normal by ziggurat, tail draws included", () => {
    for (const c of golden.standard_normal) {
      const g = defaultRng(c.seed);
      expect(hex(g.standardNormal())).toBe(c.one);
      const xs = g.standardNormal(c.n);
      const hexes = xs.map(hex);
      expect(hexes.slice(0, 20)).toEqual(c.head);
      expect(c.beyond_r).toBeGreaterThan(10);
      expect(xs.filter((x) => Math.abs(x) > 3.6541528853610088).length).toBe(c.beyond_r);
      expect(createHash("sha256").update(hexes.join(",")).digest("hex")).toBe(c.sha256);
      expect(stateOf(g)).toEqual(c.state);
    }
  });

  it("choice rejects impossible requests", () => {
    const g = defaultRng(0);
    expect(() => g.choice(3, 4, false)).toThrow("larger sample");
    expect(() => g.choice(3, 1, true, [0.5, 0.6, 0])).toThrow("sum to 1");
    expect(() => g.choice(3, 1, true, [0.5, 0.5])).toThrow("same size");
    expect(() => g.choice(3, 3, false, [1, 0, 0])).toThrow("non-zero");
    expect(() => g.choice([])).toThrow();
  });
});
