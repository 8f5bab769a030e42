/**
 * Decimal text to double without building strings: Clinger's fast path, then a correctly rounded
 * step with an exact residual (error-free transformations), then Number() for what is left.
 */
import { productError } from "../../core/exact-float.js";

const POW10 = new Float64Array(23);
for (let k = 0; k <= 22; k++) POW10[k] = Number(`1e${k}`);

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** ulp(q) for a positive normal double q (every q this module asks about is far from subnormal). */
function ulpOf(q: number): number {
  f64[0] = q;
  const e = (u32[HI] >>> 20) & 0x7ff;
  u32[HI] = (e - 52) << 20;
  u32[1 - HI] = 0;
  return f64[0];
}

/** Whether the positive normal double q is a power of two (its lower neighbour is half an ulp away). */
function isPow2(q: number): boolean {
  f64[0] = q;
  return u32[1 - HI] === 0 && (u32[HI] & 0xfffff) === 0;
}

/**
 * The double nearest to w·10^e10 where w = m1·10^n2 + m2 (m1 < 10^15, m2 < 10^n2, n2 <= 4), for
 * -44 <= e10 <= 22: round, then check the residual, computed exactly with error-free
 * transformations, against half an ulp and step to the neighbour if needed. NaN when the value is
 * too close to halfway between two doubles to decide this way (the caller then uses Number()).
 */
function roundDecimal(m1: number, n2: number, m2: number, e10: number): number {
  // w = s + wl exactly: s = fl(w); wl, the rounding errors, are integers below 2^12.
  const scale = POW10[n2];
  const p = m1 * scale;
  const pe = productError(m1, scale, p);
  const s = p + m2;
  const bv = s - p;
  const wl = p - (s - bv) + (m2 - bv) + pe;
  let q: number;
  if (e10 < 0) {
    const k = -e10;
    const d1 = k <= 22 ? POW10[k] : 1e22;
    const d2 = k <= 22 ? 1 : POW10[k - 22];
    q = (s + wl) / d1 / d2;
    for (let iter = 0; iter < 4; iter++) {
      // R = w - q·d1·d2, with q·d1·d2 expanded into exact terms; s - (q·d1·d2) is exact (Sterbenz).
      const a = q * d1;
      const ae = productError(q, d1, a);
      let r: number;
      if (d2 === 1) r = s - a + (wl - ae);
      else {
        const bb = a * d2;
        const be = productError(a, d2, bb);
        const c = ae * d2;
        r = s - bb + (wl - be - c - productError(ae, d2, c));
      }
      // Half an ulp of q is more than q·2^-54: below that (with room for error) q is right, no ulp needed.
      const ar = r < 0 ? -r : r;
      if (ar < q * d1 * d2 * 5.551115123125783e-17 * 0.999999) return q;
      const ulp = ulpOf(q);
      const half = (r < 0 && isPow2(q) ? ulp / 4 : ulp / 2) * d1 * d2;
      const dist = Math.abs(r) - half;
      if (Math.abs(dist) <= half * 1e-6) return NaN;
      if (dist < 0) return q;
      q = r > 0 ? q + ulp : q - (isPow2(q) ? ulp / 2 : ulp);
    }
    return NaN;
  }
  const mul = POW10[e10];
  q = (s + wl) * mul;
  const a = s * mul;
  const ae = productError(s, mul, a);
  const c = wl * mul;
  const ce = productError(wl, mul, c);
  for (let iter = 0; iter < 4; iter++) {
    // R = (s + wl)·mul - q; a - q is exact (Sterbenz).
    const r = a - q + (ae + c + ce);
    const ar = r < 0 ? -r : r;
    if (ar < q * 5.551115123125783e-17 * 0.999999) return q;
    const ulp = ulpOf(q);
    const half = r < 0 && isPow2(q) ? ulp / 4 : ulp / 2;
    const dist = Math.abs(r) - half;
    if (Math.abs(dist) <= half * 1e-6) return NaN;
    if (dist < 0) return q;
    q = r > 0 ? q + ulp : q - (isPow2(q) ? ulp / 2 : ulp);
  }
  return NaN;
}

/** Where floatCore stopped. */
export const SCAN = { end: 0 };

/**
 * A decimal number [sign]digits[.digits][(e|E)[sign]digits] starting at b[p], read no further than
 * z: its correctly rounded value, with SCAN.end set to the byte after it; NaN when there are no
 * digits or the exponent has none.
 */
export function floatCore(b: Buffer, p: number, z: number): number {
  let c = b[p];
  let neg = false;
  if (c === 45 || c === 43) {
    neg = c === 45;
    if (++p >= z) return NaN;
    c = b[p];
  }
  const ns = p;
  // Significant digits: the first 15 exactly in m1, up to 4 more in m2 (n2 of them), then only
  // counted; leading zeros are not significant. `c` is -1 past the end. Separate loops per stage
  // keep the per-digit work to a compare and a multiply-add.
  let m1 = 0;
  let m2 = 0;
  let n2 = 0;
  let sig = 0;
  while (c === 48) c = ++p < z ? b[p] : -1;
  let digits = p - ns;
  let frac = 0;
  let fs = -1;
  for (let part = 0; part < 2; part++) {
    const from = p;
    if (part === 1) {
      if (c !== 46) break;
      c = ++p < z ? b[p] : -1;
      fs = p;
      if (sig === 0) while (c === 48) c = ++p < z ? b[p] : -1;
    }
    while (sig < 15 && c >= 48 && c <= 57) {
      m1 = m1 * 10 + (c - 48);
      sig++;
      c = ++p < z ? b[p] : -1;
    }
    while (sig < 19 && c >= 48 && c <= 57) {
      m2 = m2 * 10 + (c - 48);
      n2++;
      sig++;
      c = ++p < z ? b[p] : -1;
    }
    while (c >= 48 && c <= 57) {
      sig++;
      c = ++p < z ? b[p] : -1;
    }
    digits += part === 1 ? p - fs : p - from;
    if (part === 1) frac = p - fs;
  }
  if (digits === 0) return NaN;
  let exp = 0;
  if (c === 101 || c === 69) {
    c = ++p < z ? b[p] : -1;
    let eneg = false;
    if (c === 45 || c === 43) {
      eneg = c === 45;
      c = ++p < z ? b[p] : -1;
    }
    const es = p;
    while (c >= 48 && c <= 57) {
      if (exp < 100000) exp = exp * 10 + (c - 48);
      c = ++p < z ? b[p] : -1;
    }
    if (p === es) return NaN;
    if (eneg) exp = -exp;
  }
  SCAN.end = p;
  let v: number;
  if (sig === 0) v = 0;
  else {
    // Beyond 19 digits the dropped ones only matter to the slow path, which re-reads the text.
    const e10 = exp - frac + (sig > 19 ? sig - 19 : 0);
    // w, the significant digits as an integer, if it is at most 2^53 (so exact as a double).
    const w =
      sig <= 15
        ? m1
        : sig === 16 && (m1 < 900719925474099 || (m1 === 900719925474099 && m2 <= 2))
          ? m1 * 10 + m2
          : Infinity;
    if (w <= 9007199254740992 && e10 >= -22 && e10 <= 22) {
      // Clinger's fast path: an exact integer below 2^53 and an exact power of ten round once, correctly.
      v = e10 < 0 ? w / POW10[-e10] : w * POW10[e10];
    } else if (sig <= 19 && e10 >= -44 && e10 <= 22) {
      v = roundDecimal(m1, n2, m2, e10);
      if (v !== v) v = Number(b.toString("latin1", ns, p));
    } else v = Number(b.toString("latin1", ns, p));
  }
  return neg ? -v : v;
}
