/**
 * Number syntax on bytes: pandas' cell parsers (str_to_int64, str_to_uint64, the round_trip float
 * converter, bool and missing-value tokens), and spellings that need no parsing: plain integers
 * and decimals (the dtype inference's shortcuts) and cells already spelled the way Python prints
 * their value (which the streaming splitter copies instead of parsing and printing them).
 */
import { SCAN, floatCore } from "./decimal.js";

// Bytes, declared here rather than imported: Node 20 re-reads an imported binding on every use
// (a TDZ check), which slows the byte loops measurably.
const SP = 32;
const MINUS_SIGN = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

// Cell parsers, following pandas' C helpers. The common outcome is the return value; the rare
// ones are reported through `R`, so the hot loops make no allocations and few stores.

/** Not an integer (pandas' ERROR_NO_DIGITS / ERROR_INVALID_CHARS). */
export const INVALID = 1;
/** Out of range while reading the digits (ERROR_OVERFLOW). */
export const OVERFLOW = 2;
/** str_to_uint64 saw a leading '-': it records a signed value and does not look further. */
export const MINUS = 3;
/** A valid integer of more than 15 digits: exact value in R.big, nearest double in R.val. */
export const BIG = 4;

/** Side results of the integer parsers when they return NaN. */
export const R = { status: 0, val: 0, big: 0n };

const INT64_MAX_DIGITS = "9223372036854775807";
const INT64_MIN_DIGITS = "9223372036854775808";
const UINT64_MAX_DIGITS = "18446744073709551615";
/** The largest int64. */
export const INT64_MAX = 9223372036854775807n;
/** 2^53: integers beyond ±2^53 are not all doubles, so an int column holding one needs bigints. */
export const TWO_53_BIG = 9007199254740992n;

/** pandas 2.2's default missing-value tokens, grouped by byte length. */
const NA_BY_LEN: Uint8Array[][] = [];
for (const t of [
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]) {
  (NA_BY_LEN[t.length] ??= []).push(Buffer.from(t, "latin1"));
}

/** Whether b[a, z) is a missing-value token ("" or one of pandas' list; whole field, unstripped). */
export function isNa(b: Uint8Array, a: number, z: number): boolean {
  const len = z - a;
  if (len === 0) return true;
  if (len > 8) return false;
  const c = b[a];
  // Cheap rejections first: numbers are the common case and only a few tokens start with a digit or '-'.
  if (c === 49 /* 1 */) {
    if (len < 6 || b[a + 1] !== 46) return false;
  } else if (c === 45 /* - */) {
    const d = b[a + 1];
    if (d !== 78 && d !== 110 && !(d === 49 && b[a + 2] === 46)) return false;
  } else if (c !== 78 /* N */ && c !== 110 /* n */ && c !== 35 /* # */ && c !== 60 /* < */) return false;
  const cands = NA_BY_LEN[len];
  if (cands === undefined) return false;
  outer: for (const t of cands) {
    for (let k = 0; k < len; k++) if (b[a + k] !== t[k]) continue outer;
    return true;
  }
  return false;
}

/** Integers of more than 15 digits: the exact value and its range check, the slow path. */
function longInteger(b: Buffer, ds: number, de: number, neg: boolean, unsigned: boolean): number {
  let lz = ds;
  while (lz < de && b[lz] === 48) lz++;
  const nd = de - lz;
  const digits = b.toString("latin1", lz, de);
  const limit = unsigned ? UINT64_MAX_DIGITS : neg ? INT64_MIN_DIGITS : INT64_MAX_DIGITS;
  if (nd > limit.length || (nd === limit.length && digits > limit)) return OVERFLOW;
  R.big = nd === 0 ? 0n : neg ? -BigInt(digits) : BigInt(digits);
  // Number(bigint) rounds to nearest-even like numpy's int64 -> float64 cast, for columns that end up float.
  R.val = Number(R.big);
  return BIG;
}

/**
 * pandas' str_to_int64 (and, with `unsigned`, str_to_uint64, tried only after int64 overflowed):
 * optional spaces, sign, digits, optional spaces. Returns the value, or NaN with R.status set.
 * Overflow is detected while reading digits, before trailing junk, so "99999999999999999999.5"
 * overflows rather than being invalid — which decides whether pandas tries uint64 next. "-0"
 * returns -0, so callers can see the sign pandas' uint64 pass looks for; the uint64 pass itself
 * rejects any minus sign.
 */
export function parseInteger(b: Buffer, a: number, z: number, unsigned: boolean): number {
  let p = a;
  let c = b[p];
  while (c === SP || (c >= 9 && c <= 13)) {
    if (++p >= z) return invalid();
    c = b[p];
  }
  let neg = false;
  if (unsigned && c === 45) {
    R.status = MINUS;
    return NaN;
  }
  if (c === 45 || c === 43) {
    neg = c === 45;
    if (++p >= z) return invalid();
    c = b[p];
  }
  const ds = p;
  let v = 0;
  while (c >= 48 && c <= 57) {
    v = v * 10 + (c - 48);
    if (++p >= z) break;
    c = b[p];
  }
  const de = p;
  if (de === ds) return invalid();
  let status = 0;
  if (de - ds > 15) {
    status = longInteger(b, ds, de, neg, unsigned);
    if (status === OVERFLOW) {
      R.status = OVERFLOW;
      return NaN;
    }
  }
  while (p < z) {
    c = b[p];
    if (!(c === SP || (c >= 9 && c <= 13))) return invalid();
    p++;
  }
  if (status === BIG) {
    R.status = BIG;
    return NaN;
  }
  return neg ? -v : v;
}

function invalid(): number {
  R.status = INVALID;
  return NaN;
}

/** The inf spellings pandas accepts, any case, nothing around them: inf, +inf, -inf, infinity, +infinity, -infinity. */
function parseInfWord(b: Buffer, a: number, z: number): number {
  let p = a;
  let neg = false;
  if (b[p] === 45 || b[p] === 43) neg = b[p++] === 45;
  const len = z - p;
  if (len !== 3 && len !== 8) return NaN;
  const word = "infinity";
  for (let k = 0; k < len; k++) if ((b[p + k] | 32) !== word.charCodeAt(k)) return NaN;
  return neg ? -Infinity : Infinity;
}

/**
 * pandas' round_trip converter, returning NaN if the word is not a float: the word must be
 * [spaces][sign]digits[.digits][e[sign]digits][spaces] with at least one mantissa digit, and is then
 * parsed by Python's correctly rounded PyOS_string_to_double. A result of +inf (overflow) counts
 * as a failure in pandas (it compares with HUGE_VAL), so "1e400" is text while "-1e400" is -inf.
 * Failing that, the word may be one of the inf spellings pandas checks for afterwards.
 */
export function parseFloat64(b: Buffer, a: number, z: number): number {
  let p = a;
  let c = b[p];
  while (c === SP || (c >= 9 && c <= 13)) {
    if (++p >= z) return NaN;
    c = b[p];
  }
  const v = floatCore(b, p, z);
  if (v !== v || v === Infinity) return parseInfWord(b, a, z);
  for (p = SCAN.end; p < z; p++) {
    c = b[p];
    if (!(c === SP || (c >= 9 && c <= 13))) return parseInfWord(b, a, z);
  }
  return v;
}

/** pandas' bool parsing: True/TRUE/true, False/FALSE/false and (to_boolean) any other casing. 1, 0 or -1. */
export function parseBool(b: Buffer, a: number, z: number): number {
  const len = z - a;
  if (len === 4) {
    if ((b[a] | 32) === 116 && (b[a + 1] | 32) === 114 && (b[a + 2] | 32) === 117 && (b[a + 3] | 32) === 101) {
      return 1;
    }
  } else if (len === 5) {
    if (
      (b[a] | 32) === 102 &&
      (b[a + 1] | 32) === 97 &&
      (b[a + 2] | 32) === 108 &&
      (b[a + 3] | 32) === 115 &&
      (b[a + 4] | 32) === 101
    ) {
      return 0;
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Shortcuts: spellings that need no parsing to be classified or printed.

/**
 * Whether b[a, z) is [-]digits with at most 15 digits, which every integer pass accepts as is:
 * 0 when not, 1 when so without a sign, 2 with a '-' ("-0" included, which pandas' uint64 pass
 * counts as signed).
 */
export function plainInteger(b: Uint8Array, a: number, z: number): number {
  let p = a;
  const neg = b[p] === MINUS_SIGN;
  if (neg) p++;
  const ds = p;
  while (p < z && b[p] >= ZERO && b[p] <= NINE) p++;
  if (p !== z || p === ds || p - ds > 15) return 0;
  return neg ? 2 : 1;
}

/** [-]digits[.digits] with no exponent and under 300 bytes: a finite float64 whatever the digits. */
export function plainDecimal(b: Uint8Array, a: number, z: number): boolean {
  if (z - a >= 300) return false;
  let p = a;
  if (b[p] === MINUS_SIGN) p++;
  let digits = 0;
  while (p < z && b[p] >= ZERO && b[p] <= NINE) {
    p++;
    digits++;
  }
  if (p < z && b[p] === DOT) {
    p++;
    while (p < z && b[p] >= ZERO && b[p] <= NINE) {
      p++;
      digits++;
    }
  }
  return p === z && digits > 0;
}

/** Whether b[a, z) is exactly how Python prints its int: [-]digits, no leading zero, not "-0". */
export function canonicalInt(b: Uint8Array, a: number, z: number): boolean {
  let p = a;
  if (b[p] === MINUS_SIGN) p++;
  if (p >= z) return false;
  if (b[p] === ZERO) return z - p === 1 && p === a;
  for (; p < z; p++) if (b[p] < ZERO || b[p] > NINE) return false;
  return true;
}

/**
 * Whether b[a, z) is already the repr of the float it parses to: repr's fixed layout
 * ([-]int.frac, no superfluous zeros, 1e-4 <= |x| < 1e16) with at most 15 significant digits.
 * Any decimal of at most 15 significant digits survives the round trip through a double, so its
 * shortest round-tripping digits are its own.
 */
export function canonicalFloat(b: Uint8Array, a: number, z: number): boolean {
  let p = a;
  if (b[p] === MINUS_SIGN) p++;
  const is = p;
  while (p < z && b[p] >= ZERO && b[p] <= NINE) p++;
  const intLen = p - is;
  if (intLen === 0 || intLen > 16 || (intLen > 1 && b[is] === ZERO) || p >= z || b[p] !== DOT) return false;
  const fs = ++p;
  while (p < z && b[p] >= ZERO && b[p] <= NINE) p++;
  const fracLen = p - fs;
  if (p !== z || fracLen === 0) return false;
  const intZero = b[is] === ZERO;
  if (fracLen === 1 && b[fs] === ZERO) {
    // "x.0": integral; its significant digits are the integer's without trailing zeros.
    if (intZero) return true;
    let t = p - 2;
    while (t > is && b[t] === ZERO) t--;
    return t - is + 1 <= 15;
  }
  if (b[z - 1] === ZERO) return false;
  if (intZero) {
    let lz = fs;
    while (b[lz] === ZERO) lz++;
    // More than three zeros after the point and repr switches to exponent notation.
    return lz - fs <= 3 && z - lz <= 15;
  }
  return intLen + fracLen <= 15;
}
