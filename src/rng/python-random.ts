/**
 * A bit-exact port of CPython 3.11's `random.Random`, so that preparers which upstream wrote
 * with `random.seed(...)`/`random.shuffle(...)` reproduce the same splits here.
 */
import { createHash, randomBytes } from "node:crypto";

import { MT19937 } from "./mt19937.js";

/** Seeds `random.Random` accepts here: ints (number or bigint) and strings (version-2 hashing). */
export type PythonSeed = number | bigint | string;

const TWO_32 = 4294967296;

/** Splits |n| into 32-bit words, least significant first, as CPython's random_seed does. */
function intToKey(n: bigint): number[] {
  let a = n < 0n ? -n : n;
  if (a === 0n) return [0];
  const key: number[] = [];
  while (a > 0n) {
    key.push(Number(a & 0xffffffffn));
    a >>= 32n;
  }
  return key;
}

/** Version 2 of random.seed: a str becomes int.from_bytes(utf8 + sha512(utf8), "big"). */
function stringToInt(s: string): bigint {
  const bytes = Buffer.from(s, "utf8");
  const all = Buffer.concat([bytes, createHash("sha512").update(bytes).digest()]);
  return BigInt("0x" + (all.length ? all.toString("hex") : "0"));
}

/** Python's int.bit_length for non-negative safe integers (clz32 only sees 32 bits). */
function bitLength(n: number): number {
  if (n < TWO_32) return 32 - Math.clz32(n);
  return 64 - Math.clz32(Math.floor(n / TWO_32));
}

function checkInt(name: string, v: number): void {
  if (!Number.isSafeInteger(v)) throw new RangeError(`${name} must be a safe integer, got ${v}`);
}

/** Python 3.11's `random.Random`: same seeding, same draws, same order of consumption. */
export class PythonRandom {
  private readonly mt = new MT19937();

  /** Seeds like `random.Random(seed)`; without a seed it draws OS entropy as Python does. */
  constructor(seed?: PythonSeed) {
    this.seed(seed);
  }

  /** Re-seeds like `random.seed(a)` (version 2); non-integer numbers are refused since Python hashes them. */
  seed(seed?: PythonSeed): void {
    if (seed === undefined) {
      const buf = randomBytes(2496);
      const key: number[] = [];
      for (let i = 0; i < buf.length; i += 4) key.push(buf.readUInt32LE(i));
      this.mt.initByArray(key);
      return;
    }
    let big: bigint;
    if (typeof seed === "string") big = stringToInt(seed);
    else if (typeof seed === "bigint") big = seed;
    else {
      checkInt("seed", seed);
      big = BigInt(seed);
    }
    this.mt.initByArray(intToKey(big));
  }

  /** A float in [0, 1) with 53 bits, like `random.random()`. */
  random(): number {
    return this.mt.nextDouble();
  }

  /** `random.getrandbits(k)` for k <= 53, returned as a number since it fits exactly. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0) throw new RangeError("number of bits must be non-negative");
    if (k > 53) throw new RangeError("getrandbits(k) with k > 53 needs getrandbitsBig");
    if (k === 0) return 0;
    if (k <= 32) return this.mt.nextUint32() >>> (32 - k);
    // Words come least significant first; only the last one is truncated (from the top).
    const lo = this.mt.nextUint32();
    const hi = this.mt.nextUint32() >>> (64 - k);
    return hi * TWO_32 + lo;
  }

  /** `random.getrandbits(k)` for any k, as a bigint. */
  getrandbitsBig(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new RangeError("number of bits must be non-negative");
    if (k === 0) return 0n;
    if (k <= 32) return BigInt(this.mt.nextUint32() >>> (32 - k));
    let result = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      let r = this.mt.nextUint32();
      if (left < 32) r >>>= 32 - left;
      result |= BigInt(r) << shift;
      shift += 32n;
    }
    return result;
  }

  /** Python's `_randbelow_with_getrandbits`: rejection sampling on bit_length(n) bits. */
  randbelow(n: number): number {
    checkInt("n", n);
    if (n <= 0) throw new RangeError("randbelow needs n > 0");
    const k = bitLength(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `random.randrange(stop)` or `random.randrange(start, stop, step)`, with Python's errors. */
  randrange(start: number, stop?: number, step = 1): number {
    checkInt("start", start);
    if (stop === undefined) {
      if (step !== 1) throw new TypeError("Missing a non-None stop argument");
      if (start > 0) return this.randbelow(start);
      throw new RangeError("empty range for randrange()");
    }
    checkInt("stop", stop);
    checkInt("step", step);
    const width = stop - start;
    if (step === 1) {
      if (width > 0) return start + this.randbelow(width);
      throw new RangeError(`empty range for randrange() (${start}, ${stop}, ${width})`);
    }
    let n: number;
    if (step > 0) n = Math.floor((width + step - 1) / step);
    else if (step < 0) n = Math.floor((width + step + 1) / step);
    else throw new RangeError("zero step for randrange()");
    if (n <= 0) throw new RangeError("empty range for randrange()");
    return start + step * this.randbelow(n);
  }

  /** `random.randint(a, b)`, both ends included. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  /** `random.choice(seq)`. */
  choice<T>(seq: ArrayLike<T>): T {
    if (seq.length === 0) throw new RangeError("Cannot choose from an empty sequence");
    return seq[this.randbelow(seq.length)];
  }

  /** `random.shuffle(x)` in place (Python 3.11 dropped the `random` argument); returns x for chaining. */
  shuffle<T>(x: T[]): T[] {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
    return x;
  }

  /** `random.sample(population, k)` without `counts`, switching between pool and set strategies as CPython does. */
  sample<T>(population: ArrayLike<T>, k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError("Sample larger than population or is negative");
    const result: T[] = new Array<T>(k);
    let setsize = 21;
    // Python computes ceil(log(3k, 4)) as log(3k)/log(4) in doubles; the strategy choice depends on it.
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = Array.from(population);
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j];
        pool[j] = pool[n - i - 1];
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j];
      }
    }
    return result;
  }

  /** `random.uniform(a, b)`: a + (b - a) * random(), so b may or may not be reachable by rounding. */
  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }
}
