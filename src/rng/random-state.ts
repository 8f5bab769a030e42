/**
 * numpy's legacy `numpy.random.RandomState` (as of numpy 1.24), draw for draw.
 *
 * Upstream MLE-bench preparers split data through scikit-learn and pandas, which both sample
 * from a legacy RandomState; reproducing their splits needs the same seeding, the same
 * rejection loops and the same order of 32-bit draws, so every routine below follows numpy's
 * C/Cython code path rather than a "nicer" algorithm. Only scalar parameters are supported
 * (no broadcasting of array-valued `low`, `loc` ...). A `size` that is a shape tuple gives the
 * same draws as numpy; the result is returned flattened in row-major (C) order.
 */
import { productError } from "../core/exact-float.js";
import { MT19937 } from "./mt19937.js";
import { kahanSum, normalisedCdf, searchRight, weightedUniqueDraws } from "./weighted.js";

/** numpy's `size`: a count, or a shape whose product is the count (results come back flat). */
export type Size = number | readonly number[];

/** The integer dtypes randint accepts; "int" is numpy's default `np.int_`, int64 on Linux. */
export type IntDtype = "int64" | "int32" | "int";

const TWO_32 = 4294967296;
const UINT32_MAX = 0xffffffff;
// sqrt(float64 eps): the tolerance numpy's choice allows on sum(p).
const P_SUM_ATOL = Math.sqrt(2.220446049250313e-16);

function sizeCount(size: Size, what: string): number {
  const dims = typeof size === "number" ? [size] : size;
  let n = 1;
  for (const d of dims) {
    if (!Number.isSafeInteger(d)) throw new TypeError(`${what}: size must hold integers, got ${d}`);
    if (d < 0) throw new RangeError(`${what}: negative dimensions are not allowed`);
    n *= d;
  }
  return n;
}

function toBigInt(v: number | bigint, what: string): bigint {
  if (typeof v === "bigint") return v;
  if (!Number.isInteger(v)) throw new TypeError(`${what} must be an integer, got ${v}`);
  if (!Number.isSafeInteger(v)) throw new RangeError(`${what} = ${v} is not exactly representable; pass a bigint`);
  return BigInt(v);
}

// Smallest 2^k - 1 >= v for v above 32 bits; a loop because log2 rounds near 2^53.
function wideMask(v: number): number {
  let mask = UINT32_MAX;
  while (mask < v) mask = mask * 2 + 1;
  return mask;
}


// ---------------------------------------------------------------------------------------------
// glibc's log(), bit for bit. numpy's legacy_gauss calls the C library's log, and glibc's
// (>= 2.28, the Arm optimized-routines algorithm) is not correctly rounded (~1 result in 1000
// differs from the exact rounding) and differs from V8's Math.log too, so normal deviates would
// drift in the last bit. On x86-64 with FMA, glibc picks its FMA build (GCC contracts every
// a * b + c into one fused op), which is what this reproduces. The constants below are glibc's
// __log_data (128-entry table, polynomial orders 6 and 12), read out of Debian's libm.so.6; the
// tables originate in Arm's optimized-routines (Apache-2.0 / MIT).
// ---------------------------------------------------------------------------------------------
const LN2HI = 0.6931471805598903;
const LN2LO = 5.497923018708371e-14;
const A = [-0.5000000000000001, 0.33333333331825593, -0.2499999999622955, 0.20000304511814496, -0.16667054827627667];
const B = [-0.5, 0.3333333333333352, -0.24999999999998432, 0.19999999999320328, -0.16666666669929706, 0.14285715076560868, -0.12499997863982555, 0.11110712032936046, -0.10000486757818193, 0.09181994006195467, -0.08328363062289341];
const LOG_TAB = new Float64Array([
  1.4504249240398293, -0.3718565645633589, 1.442253508327276, -0.36620682668944937,
  1.4341736174350004, -0.3605888069791945, 1.426183816329995, -0.3550022171419869,
  1.4182825527052965, -0.34944666968829097, 1.4104682921759335, -0.3439217713603284,
  1.4027396147468003, -0.3384271921261188, 1.3950954438932313, -0.332962831494342,
  1.3875338232485754, -0.32752794345742586, 1.3800539211058593, -0.32212257167088865,
  1.3726542695419708, -0.3167462884799761, 1.3653332798446802, -0.3113985598928366,
  1.358090204587874, -0.3060794515165526, 1.3509234892132138, -0.300788424667644,
  1.3438320840699889, -0.2955252968476998, 1.3368146974742003, -0.29028969275850613,
  1.329870114677736, -0.2850812793277555, 1.322997339161106, -0.27989987391470095,
  1.316195352741367, -0.27474526621870154, 1.3094628125672239, -0.2696169863701243,
  1.3027990455471041, -0.26451506180308115, 1.2962024229438942, -0.2594387762767383,
  1.2896726275815547, -0.2543884090981692, 1.2832080305745537, -0.24936321635129843,
  1.276807885983376, -0.24436312405975968, 1.2704714060687552, -0.23938801747897287,
  1.2641976054949482, -0.23443761696705678, 1.257985357514882, -0.22951151871518505,
  1.2518337750655457, -0.2246094963439873, 1.2457421919097305, -0.21973149037705753,
  1.2397094966625508, -0.2148770752847895, 1.2337348463589233, -0.210046029103637,
  1.2278176973028803, -0.20523836373934046, 1.2219570190618474, -0.20045368751368642,
  1.2161519732977757, -0.1956917537758045, 1.2104018095009725, -0.19095237845203883,
  1.204705805718973, -0.18623539250290833, 1.1990631185441964, -0.18154051731551135,
  1.1934733004462308, -0.1768677957431919, 1.1879350812847385, -0.17221657406412305,
  1.1824481322833125, -0.16758697765942543, 1.1770114976921955, -0.16297859687290384,
  1.1716248121809465, -0.15839151377804228, 1.1662869231674715, -0.15382513241456763,
  1.1609977486762766, -0.14927976358922024, 1.1557563220795803, -0.14475495398119165,
  1.1505619105480347, -0.14025044090817573, 1.1454138888505974, -0.1357660466685502,
  1.140311877374656, -0.1313018016355727, 1.1352550225747513, -0.12685731518763532,
  1.1302429094831266, -0.1224325737671279, 1.1252747693068048, -0.11802724521862729,
  1.1203501571039876, -0.11364127671663482, 1.1154683327680124, -0.10927434611278386,
  1.1106291463292157, -0.10492665324943573, 1.1058315813301596, -0.10059761422644442,
  1.1010752177696026, -0.09628717309055901, 1.0963597137952512, -0.09199534069557558,
  1.0916844827550398, -0.08772190036688698, 1.0870487291277784, -0.08346643613867855,
  1.082452357388312, -0.07922916827544668, 1.0778948225025884, -0.0750099004750382,
  1.0733751731601076, -0.07080805133352897, 1.068893585073351, -0.06662408085151128,
  1.0644491706655506, -0.06245745471915143, 1.0600414846328305, -0.0583080438042316,
  1.0556701316181605, -0.05417576112313327, 1.051334750556926, -0.050060547896805474,
  1.0470347288442157, -0.045962101199052086, 1.0427699229652954, -0.04188056008865715,
  1.0385395013738175, -0.03781540056183985, 1.034343418940345, -0.03376684757915882,
  1.0301811073173315, -0.029734619131772888, 1.026052043621297, -0.025718470239212365,
  1.0219561082336197, -0.021718543925430822, 1.0178926505784922, -0.01773446126981071,
  1.0138614436244586, -0.013766252464051831, 1.0098620186501341, -0.009813706322574944,
  1.0058938559734134, -0.005876555150052809, 1.00195696235014, -0.0019550499938532084,
  0.9961089923088509, 0.0038985973556009412, 0.9884170338185201, 0.011650571286395461,
  0.9808429191005297, 0.019342955478919066, 0.9733840169987446, 0.0269766014846482,
  0.9660377568876556, 0.034552359728422744, 0.9588014945307369, 0.04207121767183253,
  0.9516728569073111, 0.049533940950141186, 0.9446494635965822, 0.056941358295944156,
  0.9377288993026223, 0.06429439168346107, 0.9309091073790681, 0.0715936354946507,
  0.924187681612722, 0.07884010933776153, 0.9175626765599192, 0.08603438905970506,
  0.9110320403624034, 0.09317721180013905, 0.9045935839762024, 0.10026951462748457,
  0.8982456375922825, 0.10731170956330516, 0.8919860966782501, 0.11430473320717738,
  0.8858131121185129, 0.12124928503033061, 0.879725075760676, 0.12814583422959913,
  0.8737201372634685, 0.1349951636851756, 0.8677966405782273, 0.1417978768189414,
  0.8619528050060739, 0.14855476039031146, 0.8561872354420692, 0.1552661937658968,
  0.8504983927816893, 0.16193275688146969, 0.8448844572790304, 0.16855539792220497,
  0.8393442741575965, 0.1751343179947753, 0.8338762249349438, 0.1816702989864325,
  0.8284789320557778, 0.18816387146023317, 0.8231510800065832, 0.1946155228479256,
  0.8178913903778707, 0.20102572579389744, 0.8126984007245374, 0.2073952090795501,
  0.8075710029460227, 0.21372429840596396, 0.8025078881160415, 0.2200135945981856,
  0.7975077379364331, 0.22626374162859975, 0.792569604966373, 0.23247494747693054,
  0.7876923641254114, 0.23864766620658884, 0.7828746724940998, 0.24478265647405806,
  0.7781155388790811, 0.25088025827324145, 0.7734139557869777, 0.2569408552510595,
  0.7687687179914933, 0.26296511155101143, 0.7641790698041854, 0.2689531327189343,
  0.7596438763692399, 0.27490553924610595, 0.7551621951078668, 0.2808227248478943,
  0.7507331780216866, 0.286704979267256, 0.7463557196361751, 0.29255295645509705,
  0.7420289364869653, 0.2983670386142876, 0.7377521537065876, 0.30414734587282055,
  0.7335242966002608, 0.30989455774829366, 0.729344777457841, 0.31560871301871884,
]);

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer); // U32[0] low word, U32[1] high word (little-endian hosts)

// a + b, rounded to odd: the extra-precision step that makes the emulated fma below exact
// (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums", IEEE TC 2008).
function addRoundOdd(a: number, b: number): number {
  const s = a + b;
  const bb = s - a;
  const err = a - (s - bb) + (b - bb);
  if (err === 0) return s;
  F64[0] = s;
  if ((U32[0] & 1) === 1) return s;
  // s is even and inexact: the odd neighbour lies on the side of the error.
  const up = s > 0 === err > 0; // grows the magnitude
  if (up) {
    U32[0] = (U32[0] + 1) >>> 0;
    if (U32[0] === 0) U32[1] = (U32[1] + 1) >>> 0;
  } else {
    if (U32[0] === 0) U32[1] = (U32[1] - 1) >>> 0;
    U32[0] = (U32[0] - 1) >>> 0;
  }
  return F64[0];
}

/** Correctly rounded a * b + c (C's fma), for finite operands far from overflow and underflow. */
export function fma(a: number, b: number, c: number): number {
  const ph = a * b;
  const pl = productError(a, b, ph);
  const th = c + ph;
  const bb = th - c;
  const tl = c - (th - bb) + (ph - bb);
  return th + addRoundOdd(pl, tl);
}

/** glibc 2.28+'s log(x) on x86-64 with FMA, for positive normal x (all legacy_gauss needs). */
export function glibcLog(x: number): number {
  if (!(x > 0) || x < 2.2250738585072014e-308 || x === Infinity) {
    throw new RangeError(`glibcLog: only positive normal arguments are supported, got ${x}`);
  }
  if (x >= 0.9375 && x < 1.064697265625) {
    // Close to 1: a degree-12 polynomial in r = x - 1 with an exactly split leading term.
    if (x === 1) return 0;
    const r = x - 1;
    const r2 = r * r;
    const r3 = r * r2;
    const p3 = fma(r3, B[10], fma(r2, B[9], fma(r, B[8], B[7])));
    const p2 = fma(r3, p3, fma(r2, B[6], fma(r, B[5], B[4])));
    const p1 = fma(r3, p2, fma(r2, B[3], fma(r, B[2], B[1])));
    const w = r * 134217728;
    const rhi = r + w - w;
    const rlo = r - rhi;
    const w2 = rhi * rhi * B[0];
    const hi = r + w2;
    let lo = r - hi + w2;
    lo = fma(B[0] * rlo, rhi + r, lo);
    return fma(r3, p1, lo) + hi;
  }
  F64[0] = x;
  const wordLo = U32[0];
  const wordHi = U32[1];
  // x = 2^k z with z in [0x1.6p-1, 0x1.6p0); i picks the table subinterval holding z.
  const tmpHi = (wordHi - 0x3fe60000) | 0;
  const i = (tmpHi >>> 13) & 127;
  const k = tmpHi >> 20;
  U32[0] = wordLo;
  U32[1] = (wordHi - (tmpHi & 0xfff00000)) >>> 0;
  const z = F64[0];
  const invc = LOG_TAB[2 * i];
  const logc = LOG_TAB[2 * i + 1];
  const r = fma(z, invc, -1);
  const w = fma(k, LN2HI, logc);
  const hi = w + r;
  const lo = fma(k, LN2LO, w - hi + r);
  const r2 = r * r;
  const p = fma(r2, fma(r, A[4], A[3]), fma(r, A[2], A[1]));
  return fma(r * r2, p, fma(r2, A[0], lo)) + hi;
}

/** A legacy numpy RandomState: MT19937 plus the cached second Box–Muller value. */
export class RandomState {
  private readonly mt = new MT19937();
  private hasGauss = false;
  private gauss = 0;

  /** Seeds like `np.random.RandomState(seed)`: an int in [0, 2^32) or a non-empty array of them. */
  constructor(seed: number | bigint | readonly (number | bigint)[]) {
    this.seed(seed);
  }

  /** Reseeds in place, as `RandomState.seed` does, also dropping any cached normal deviate. */
  seed(seed: number | bigint | readonly (number | bigint)[]): void {
    if (typeof seed === "number" || typeof seed === "bigint") {
      // numpy's _legacy_seeding: a scalar goes through init_genrand, not init_by_array.
      const s = toBigInt(seed, "seed");
      if (s < 0n || s > 0xffffffffn) throw new RangeError("Seed must be between 0 and 2**32 - 1");
      this.mt.initGenrand(Number(s));
    } else {
      if (seed.length === 0) throw new RangeError("Seed must be non-empty");
      const key = seed.map((v) => {
        const s = toBigInt(v, "seed");
        if (s < 0n || s > 0xffffffffn) throw new RangeError("Seed must be between 0 and 2**32 - 1");
        return Number(s);
      });
      this.mt.initByArray(key);
    }
    this.hasGauss = false;
    this.gauss = 0;
  }

  // numpy's next_uint64 for MT19937: the first word is the high half.
  private nextUint64Masked(mask: number): number {
    const hi = this.mt.nextUint32();
    const lo = this.mt.nextUint32();
    // mask >= 2^32 - 1 here, so its low word is all ones and the result stays exact below 2^53.
    return (hi & Math.floor(mask / TWO_32)) * TWO_32 + lo;
  }

  /** A draw in [0, max] by masked rejection: numpy's random_interval, the step of shuffle. */
  private interval(max: number): number {
    if (max === 0) return 0;
    if (max <= UINT32_MAX) {
      const mask = UINT32_MAX >>> Math.clz32(max);
      let v: number;
      do v = (this.mt.nextUint32() & mask) >>> 0;
      while (v > max);
      return v;
    }
    const mask = wideMask(max);
    let v: number;
    do v = this.nextUint64Masked(mask);
    while (v > max);
    return v;
  }

  /** Uniform doubles in [0, 1) with 53 random bits; `random_sample` in numpy. */
  randomSample(): number;
  randomSample(size: Size): number[];
  randomSample(size?: Size): number | number[] {
    if (size === undefined) return this.mt.nextDouble();
    const n = sizeCount(size, "random_sample");
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.mt.nextDouble();
    return out;
  }

  /** numpy's `rand(d0, d1, ...)`: random_sample with the shape given as arguments. */
  rand(): number;
  rand(...dims: number[]): number[];
  rand(...dims: number[]): number | number[] {
    return dims.length === 0 ? this.randomSample() : this.randomSample(dims);
  }

  /**
   * Integers in [low, high) (or [0, low) when high is omitted), with numpy's legacy masked
   * rejection: 32-bit draws when high - 1 - low fits in 32 bits, 64-bit draws otherwise.
   */
  randint(low: number | bigint, high?: number | bigint | null): number;
  randint(low: number | bigint, high: number | bigint | null | undefined, size: Size, dtype?: IntDtype): number[];
  randint(low: number | bigint, high: number | bigint | null | undefined, size: undefined, dtype?: IntDtype): number;
  randint(
    low: number | bigint,
    high?: number | bigint | null,
    size?: Size,
    dtype: IntDtype = "int64",
  ): number | number[] {
    let lo = toBigInt(low, "low");
    let hi: bigint;
    if (high === undefined || high === null) {
      hi = lo;
      lo = 0n;
    } else {
      hi = toBigInt(high, "high");
    }
    const n = size === undefined ? 1 : sizeCount(size, "randint");
    // numpy returns an empty array before checking the bounds when nothing is drawn.
    if (size !== undefined && n === 0) return [];
    const [minV, maxV] = dtype === "int32" ? [-(2n ** 31n), 2n ** 31n - 1n] : [-(2n ** 63n), 2n ** 63n - 1n];
    const top = hi - 1n; // numpy draws on the closed interval [low, high - 1]
    if (lo < minV) throw new RangeError(`low is out of bounds for ${dtype === "int32" ? "int32" : "int64"}`);
    if (top > maxV) throw new RangeError(`high is out of bounds for ${dtype === "int32" ? "int32" : "int64"}`);
    if (lo > top) throw new RangeError("low >= high");
    const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);
    if (lo < -maxSafe || top > maxSafe) {
      throw new RangeError("randint: bounds beyond ±(2^53 - 1) are unsupported, results would not be exact JS numbers");
    }
    const rng = Number(top - lo);
    const off = Number(lo);
    const out = new Array<number>(n);
    if (rng === 0) {
      out.fill(off);
    } else if (rng === UINT32_MAX) {
      for (let i = 0; i < n; i++) out[i] = off + this.mt.nextUint32();
    } else if (rng < UINT32_MAX) {
      const mask = UINT32_MAX >>> Math.clz32(rng);
      for (let i = 0; i < n; i++) {
        let v: number;
        do v = (this.mt.nextUint32() & mask) >>> 0;
        while (v > rng);
        out[i] = off + v;
      }
    } else {
      const mask = wideMask(rng);
      for (let i = 0; i < n; i++) {
        let v: number;
        do v = this.nextUint64Masked(mask);
        while (v > rng);
        out[i] = off + v;
      }
    }
    return size === undefined ? out[0] : out;
  }

  /** Shuffles in place like numpy's legacy shuffle: Fisher–Yates from the end, j = random_interval(i). Typed arrays too. */
  shuffle<T>(x: { length: number; [index: number]: T }): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.interval(i);
      const t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }

  /** A shuffled `arange(n)`, or a shuffled copy of an array (rows of a 2-D array shuffle as units). */
  permutation(x: number): number[];
  permutation<T>(x: readonly T[]): T[];
  permutation<T>(x: number | readonly T[]): number[] | T[] {
    if (typeof x === "number") {
      if (!Number.isSafeInteger(x)) throw new TypeError("x must be an integer or at least 1-dimensional");
      const arr = Array.from({ length: Math.max(0, x) }, (_, i) => i);
      this.shuffle(arr);
      return arr;
    }
    const arr = x.slice();
    this.shuffle(arr);
    return arr;
  }

  /**
   * numpy's legacy `choice(a, size, replace, p)`: `a` is a population size or an array. With
   * replacement, randint (no p) or inverse-CDF lookups of random_sample (with p); without, a
   * truncated permutation (no p) or numpy's redraw-until-unique loop (with p).
   */
  choice(a: number, size?: undefined, replace?: boolean, p?: readonly number[] | null): number;
  choice(a: number, size: Size, replace?: boolean, p?: readonly number[] | null): number[];
  choice<T>(a: readonly T[], size?: undefined, replace?: boolean, p?: readonly number[] | null): T;
  choice<T>(a: readonly T[], size: Size, replace?: boolean, p?: readonly number[] | null): T[];
  choice<T>(
    a: number | readonly T[],
    size?: Size,
    replace = true,
    p?: readonly number[] | null,
  ): number | T | (number | T)[] {
    const n = size === undefined ? 1 : sizeCount(size, "choice");
    let popSize: number;
    if (typeof a === "number") {
      if (!Number.isSafeInteger(a)) throw new TypeError("a must be 1-dimensional or an integer");
      popSize = a;
      if (popSize <= 0 && n !== 0) throw new RangeError("a must be greater than 0 unless no samples are taken");
    } else {
      popSize = a.length;
      if (popSize === 0 && n !== 0) throw new RangeError("'a' cannot be empty unless no samples are taken");
    }
    if (p !== undefined && p !== null) {
      if (p.length !== popSize) throw new RangeError("'a' and 'p' must have same size");
      const pSum = kahanSum(p);
      if (Number.isNaN(pSum)) throw new RangeError("probabilities contain NaN");
      if (p.some((v) => v < 0)) throw new RangeError("probabilities are not non-negative");
      if (Math.abs(pSum - 1) > P_SUM_ATOL) throw new RangeError("probabilities do not sum to 1");
    }

    let idx: number[];
    if (replace) {
      if (p !== undefined && p !== null) {
        const cdf = normalisedCdf(p);
        idx = new Array<number>(n);
        for (let i = 0; i < n; i++) idx[i] = searchRight(cdf, this.mt.nextDouble());
      } else {
        idx = this.randint(0, popSize, n);
      }
    } else {
      if (n > popSize) throw new RangeError("Cannot take a larger sample than population when 'replace=False'");
      if (p !== undefined && p !== null) {
        // np.unique(..., return_index=True) then sorting the indices: first occurrences, in draw order.
        idx = weightedUniqueDraws(p, n, (k) => this.randomSample(k) as number[]);
      } else {
        idx = this.permutation(popSize).slice(0, n);
      }
    }
    const out = typeof a === "number" ? idx : idx.map((i) => a[i]);
    return size === undefined ? out[0] : out;
  }

  /** Uniform doubles in [low, high): `low + (high - low) * u`, as numpy's random_uniform. */
  uniform(low?: number, high?: number): number;
  uniform(low: number | undefined, high: number | undefined, size: Size): number[];
  uniform(low = 0, high = 1, size?: Size): number | number[] {
    const range = high - low;
    if (!Number.isFinite(range)) throw new RangeError("Range exceeds valid bounds");
    if (size === undefined) return low + range * this.mt.nextDouble();
    const n = sizeCount(size, "uniform");
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = low + range * this.mt.nextDouble();
    return out;
  }

  // numpy's legacy_gauss: the polar method yields two deviates; the second is cached for the
  // next call, so the stream depends on how many normals were drawn before, across methods.
  private nextGauss(): number {
    if (this.hasGauss) {
      const t = this.gauss;
      this.hasGauss = false;
      this.gauss = 0;
      return t;
    }
    let x1: number;
    let x2: number;
    let r2: number;
    do {
      x1 = 2 * this.mt.nextDouble() - 1;
      x2 = 2 * this.mt.nextDouble() - 1;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1 || r2 === 0);
    const f = Math.sqrt((-2 * glibcLog(r2)) / r2);
    this.gauss = f * x1;
    this.hasGauss = true;
    return f * x2;
  }

  /** Standard normal deviates by legacy polar Box–Muller (numpy's `standard_normal`). */
  standardNormal(): number;
  standardNormal(size: Size): number[];
  standardNormal(size?: Size): number | number[] {
    if (size === undefined) return this.nextGauss();
    const n = sizeCount(size, "standard_normal");
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.nextGauss();
    return out;
  }

  /** numpy's `randn(d0, d1, ...)`: standard_normal with the shape given as arguments. */
  randn(): number;
  randn(...dims: number[]): number[];
  randn(...dims: number[]): number | number[] {
    return dims.length === 0 ? this.standardNormal() : this.standardNormal(dims);
  }

  /** Normal deviates `loc + scale * gauss`; like numpy, a scale with its sign bit set (even -0) is refused. */
  normal(loc?: number, scale?: number): number;
  normal(loc: number | undefined, scale: number | undefined, size: Size): number[];
  normal(loc = 0, scale = 1, size?: Size): number | number[] {
    if (!Number.isNaN(scale) && (scale < 0 || Object.is(scale, -0))) throw new RangeError("scale < 0");
    if (size === undefined) return loc + scale * this.nextGauss();
    const n = sizeCount(size, "normal");
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = loc + scale * this.nextGauss();
    return out;
  }
}
