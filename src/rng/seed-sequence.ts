/**
 * numpy's `SeedSequence` (numpy/random/bit_generator.pyx, numpy 1.24): turns a user seed into
 * well-mixed state words. Ported word for word so `default_rng(seed)` starts from the same
 * PCG64 state as numpy does; every uint32 product goes through Math.imul to keep C's wraparound.
 */
import { randomBytes } from "node:crypto";

const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const XSHIFT = 16;
const POOL_SIZE = 4;

/** Anything numpy accepts as integer entropy: one non-negative integer or a list of them. */
export type Entropy = number | bigint | readonly (number | bigint)[];

/** Split a non-negative integer into little-endian uint32 words, as numpy's `_int_to_uint32_array`. */
function intToWords(v: number | bigint): number[] {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) throw new TypeError(`SeedSequence expects integers, got ${v}`);
    v = BigInt(v);
  }
  if (v < 0n) throw new RangeError("expected non-negative integer");
  if (v === 0n) return [0];
  const out: number[] = [];
  while (v > 0n) {
    out.push(Number(v & 0xffffffffn));
    v >>= 32n;
  }
  return out;
}

/** numpy's `_coerce_to_uint32_array`: list elements are each expanded, then concatenated. */
function coerce(x: Entropy): number[] {
  if (typeof x === "number" || typeof x === "bigint") return intToWords(x);
  return x.flatMap((v) => intToWords(v));
}

export class SeedSequence {
  /** The entropy as given (or drawn from the OS when omitted), kept for reproducibility reports. */
  readonly entropy: Entropy;
  readonly spawnKey: readonly number[];
  /** The mixed pool of four uint32 words every generated state is derived from. */
  readonly pool: Uint32Array;

  /** Mix `entropy` (OS randomness when undefined, like numpy's `SeedSequence(None)`) into the pool. */
  constructor(entropy?: Entropy, options: { spawnKey?: readonly number[] } = {}) {
    if (entropy === undefined) {
      // numpy draws 128 bits from the OS: same width here, so unseeded use is equally strong.
      entropy = BigInt("0x" + randomBytes(16).toString("hex"));
    }
    this.entropy = entropy;
    this.spawnKey = options.spawnKey ?? [];
    this.pool = new Uint32Array(POOL_SIZE);
    this.mixEntropy(this.assembledEntropy());
  }

  private assembledEntropy(): number[] {
    const run = coerce(this.entropy);
    const spawn = coerce(this.spawnKey);
    // Padding keeps a spawned child from colliding with a parent whose entropy is shorter.
    if (spawn.length > 0 && run.length < POOL_SIZE) while (run.length < POOL_SIZE) run.push(0);
    return run.concat(spawn);
  }

  private mixEntropy(entropy: number[]): void {
    const mixer = this.pool;
    let hashConst = INIT_A;
    const hashmix = (value: number): number => {
      value = (value ^ hashConst) >>> 0;
      hashConst = Math.imul(hashConst, MULT_A) >>> 0;
      value = Math.imul(value, hashConst) >>> 0;
      return (value ^ (value >>> XSHIFT)) >>> 0;
    };
    const mix = (x: number, y: number): number => {
      const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
      return (r ^ (r >>> XSHIFT)) >>> 0;
    };
    for (let i = 0; i < POOL_SIZE; i++) mixer[i] = hashmix(i < entropy.length ? entropy[i] : 0);
    for (let src = 0; src < POOL_SIZE; src++) {
      for (let dst = 0; dst < POOL_SIZE; dst++) {
        if (src !== dst) mixer[dst] = mix(mixer[dst], hashmix(mixer[src]));
      }
    }
    for (let src = POOL_SIZE; src < entropy.length; src++) {
      for (let dst = 0; dst < POOL_SIZE; dst++) mixer[dst] = mix(mixer[dst], hashmix(entropy[src]));
    }
  }

  /** `n` uint32 words of state, numpy's `generate_state(n, np.uint32)`. */
  generateState(n: number, dtype?: "uint32"): number[];
  /** `n` uint64 words: pairs of uint32 words read little-endian, as numpy views them. */
  generateState(n: number, dtype: "uint64"): bigint[];
  generateState(n: number, dtype: "uint32" | "uint64" = "uint32"): number[] | bigint[] {
    const nWords = dtype === "uint64" ? 2 * n : n;
    const words: number[] = [];
    let hashConst = INIT_B;
    for (let i = 0; i < nWords; i++) {
      let v = (this.pool[i % POOL_SIZE] ^ hashConst) >>> 0;
      hashConst = Math.imul(hashConst, MULT_B) >>> 0;
      v = Math.imul(v, hashConst) >>> 0;
      words.push((v ^ (v >>> XSHIFT)) >>> 0);
    }
    if (dtype === "uint32") return words;
    const out: bigint[] = [];
    for (let i = 0; i < n; i++) out.push((BigInt(words[2 * i + 1]) << 32n) | BigInt(words[2 * i]));
    return out;
  }
}
