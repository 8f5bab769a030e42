/**
 * numpy's PCG64 bit generator (XSL-RR output on a 128-bit LCG; numpy/random/src/pcg64).
 * The 128-bit state lives in eight 16-bit limbs held in plain numbers, because BigInt
 * arithmetic per draw would make a million-element permutation take seconds.
 */
import { SeedSequence, type Entropy } from "./seed-sequence.js";

const MASK128 = (1n << 128n) - 1n;
const MULT = 0x2360ed051fc65da44385df649fccf645n;

/** The 128-bit value as eight little-endian 16-bit limbs. */
function toLimbs(v: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) out.push(Number((v >> BigInt(16 * i)) & 0xffffn));
  return out;
}

function fromLimbs(l: ArrayLike<number>): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 16n) | BigInt(l[i]);
  return v;
}

const INV16 = 1 / 65536;
const [M0, M1, M2, M3, M4, M5, M6, M7] = toLimbs(MULT);

/** The same fields as numpy's `PCG64().state["state"]` plus the 32-bit buffer. */
export interface PCG64State {
  state: bigint;
  inc: bigint;
  hasUint32: boolean;
  uinteger: number;
}

export class PCG64 {
  private readonly s = new Float64Array(8);
  private readonly inc = new Float64Array(8);
  /** numpy keeps the unused half of a 64-bit draw for the next 32-bit request, across calls. */
  private hasUint32 = false;
  private uinteger = 0;
  /** High and low 32 bits of the latest `next64Parts()` draw (avoids allocating per draw). */
  hi = 0;
  lo = 0;

  /** Seed like `numpy.random.PCG64(seed)`: state and increment from `generate_state(4, uint64)`. */
  constructor(seed?: SeedSequence | Entropy) {
    const seq = seed instanceof SeedSequence ? seed : new SeedSequence(seed);
    const v = seq.generateState(4, "uint64");
    const initState = (v[0] << 64n) | v[1];
    const initSeq = (v[2] << 64n) | v[3];
    // pcg_setseq_128_srandom_r: state 0, step, add the seed, step again.
    const inc = ((initSeq << 1n) | 1n) & MASK128;
    let state = inc; // 0 * MULT + inc
    state = (state + initState) & MASK128;
    state = (state * MULT + inc) & MASK128;
    this.setState({ state, inc, hasUint32: false, uinteger: 0 });
  }

  /** Snapshot comparable with numpy's `bit_generator.state`. */
  getState(): PCG64State {
    return { state: fromLimbs(this.s), inc: fromLimbs(this.inc), hasUint32: this.hasUint32, uinteger: this.uinteger };
  }

  /** Restore a snapshot taken by `getState()` (or copied from numpy). */
  setState(st: PCG64State): void {
    this.s.set(toLimbs(st.state & MASK128));
    this.inc.set(toLimbs(st.inc & MASK128));
    this.hasUint32 = st.hasUint32;
    this.uinteger = st.uinteger >>> 0;
  }

  /** Advance the LCG and leave the XSL-RR output in `hi`/`lo`; the hot path for all draws. */
  next64Parts(): void {
    const s = this.s;
    const c = this.inc;
    const s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3], s4 = s[4], s5 = s[5], s6 = s[6], s7 = s[7];
    // Schoolbook product mod 2^128 plus increment; each column stays below 2^36, exact in a double,
    // and carries use floor(x * 2^-16) because fmod (%) on doubles is several times slower.
    let acc = c[0] + s0 * M0;
    let carry = Math.floor(acc * INV16);
    s[0] = acc - carry * 65536;
    acc = carry + c[1] + s0 * M1 + s1 * M0;
    carry = Math.floor(acc * INV16);
    s[1] = acc - carry * 65536;
    acc = carry + c[2] + s0 * M2 + s1 * M1 + s2 * M0;
    carry = Math.floor(acc * INV16);
    s[2] = acc - carry * 65536;
    acc = carry + c[3] + s0 * M3 + s1 * M2 + s2 * M1 + s3 * M0;
    carry = Math.floor(acc * INV16);
    s[3] = acc - carry * 65536;
    acc = carry + c[4] + s0 * M4 + s1 * M3 + s2 * M2 + s3 * M1 + s4 * M0;
    carry = Math.floor(acc * INV16);
    s[4] = acc - carry * 65536;
    acc = carry + c[5] + s0 * M5 + s1 * M4 + s2 * M3 + s3 * M2 + s4 * M1 + s5 * M0;
    carry = Math.floor(acc * INV16);
    s[5] = acc - carry * 65536;
    acc = carry + c[6] + s0 * M6 + s1 * M5 + s2 * M4 + s3 * M3 + s4 * M2 + s5 * M1 + s6 * M0;
    carry = Math.floor(acc * INV16);
    s[6] = acc - carry * 65536;
    acc = carry + c[7] + s0 * M7 + s1 * M6 + s2 * M5 + s3 * M4 + s4 * M3 + s5 * M2 + s6 * M1 + s7 * M0;
    s[7] = acc - Math.floor(acc * INV16) * 65536;
    const xl = ((s[1] << 16) | s[0]) ^ ((s[5] << 16) | s[4]);
    const xh = ((s[3] << 16) | s[2]) ^ ((s[7] << 16) | s[6]);
    const rot = s[7] >>> 10;
    let h: number, l: number;
    if (rot === 0) {
      h = xh;
      l = xl;
    } else if (rot < 32) {
      l = (xl >>> rot) | (xh << (32 - rot));
      h = (xh >>> rot) | (xl << (32 - rot));
    } else if (rot === 32) {
      h = xl;
      l = xh;
    } else {
      const r = rot - 32;
      l = (xh >>> r) | (xl << (32 - r));
      h = (xl >>> r) | (xh << (32 - r));
    }
    this.hi = h >>> 0;
    this.lo = l >>> 0;
  }

  /** A uint64 draw as a BigInt, for callers that need the full width. */
  next64(): bigint {
    this.next64Parts();
    return (BigInt(this.hi) << 32n) | BigInt(this.lo);
  }

  /** A uint32 draw: the low half of a fresh 64-bit draw first, its high half on the next call. */
  next32(): number {
    if (this.hasUint32) {
      this.hasUint32 = false;
      return this.uinteger;
    }
    this.next64Parts();
    this.hasUint32 = true;
    this.uinteger = this.hi;
    return this.lo;
  }

  /** A double in [0, 1) from the top 53 bits of a 64-bit draw, numpy's `next_double`. */
  nextDouble(): number {
    this.next64Parts();
    return (this.hi * 2097152 + (this.lo >>> 11)) * 1.1102230246251565e-16;
  }
}
