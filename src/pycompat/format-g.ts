/**
 * Python's `"%.<p>g" % x`, the text pandas writes for float cells under `to_csv(float_format=...)`.
 * Digits are rounded half-to-even on the exact binary value (as CPython's dtoa and glibc do);
 * JavaScript's toExponential rounds exact ties away from zero, so ties are settled here.
 */

// Significant digits of a decimal numeral ("1.25e-7" -> "125"), without leading/trailing zeros.
function significantDigits(s: string): string {
  const mant = s.split("e")[0].replace("-", "").replace(".", "");
  return mant.replace(/^0+/, "").replace(/0+$/, "");
}

// Exact decimal expansion of a positive finite double: digits (no leading zeros) and the power of
// ten of the last digit, from its binary mantissa and exponent.
function exactDecimal(a: number): { digits: string; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp2 = biased - 1075;
  if (biased === 0) exp2 = -1074;
  else mant |= 1n << 52n;
  if (exp2 >= 0) return { digits: (mant << BigInt(exp2)).toString(), scale: 0 };
  return { digits: (mant * 5n ** BigInt(-exp2)).toString(), scale: exp2 };
}

/** `p` significant digits of |x| > 0 rounded half-to-even, and the decimal exponent of the first. */
function roundSignificant(a: number, p: number): { digits: string; exp: number } {
  const e = a.toExponential(p - 1);
  const [m, x] = e.split("e");
  let digits = m.replace(".", "");
  let exp = Number(x);
  // Below 15 digits only a value whose shortest numeral has p+1 digits ending in 5 can be an exact
  // tie (any decimal of at most 15 digits is its own shortest numeral); beyond, check exactly.
  const shortest = significantDigits(String(a));
  if (p >= 15 || (shortest.length === p + 1 && shortest.endsWith("5"))) {
    const exact = exactDecimal(a);
    const sig = exact.digits.replace(/0+$/, "");
    if (sig.length === p + 1 && sig.endsWith("5")) {
      const kept = sig.slice(0, p);
      const even = Number(kept[p - 1]) % 2 === 0;
      const pow = exact.digits.length - 1 + exact.scale;
      if (even) {
        digits = kept;
        exp = pow;
      } else {
        const up = (BigInt(kept) + 1n).toString();
        digits = up.slice(0, p);
        exp = pow + (up.length > p ? 1 : 0);
      }
    }
  }
  return { digits, exp };
}

/** Python's `"%.<precision>g" % x`. */
export function formatG(x: number, precision: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const p = precision === 0 ? 1 : precision;
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0`;
  const { digits, exp } = roundSignificant(Math.abs(x), p);
  const trimmed = digits.replace(/0+$/, "") || "0";
  if (exp < -4 || exp >= p) {
    const frac = trimmed.slice(1);
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
    return `${sign}${trimmed[0]}${frac ? `.${frac}` : ""}e${exp < 0 ? "-" : "+"}${e}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${trimmed}`;
  const intPart = trimmed.length > exp + 1 ? trimmed.slice(0, exp + 1) : trimmed + "0".repeat(exp + 1 - trimmed.length);
  const frac = trimmed.slice(exp + 1);
  return `${sign}${intPart}${frac ? `.${frac}` : ""}`;
}
