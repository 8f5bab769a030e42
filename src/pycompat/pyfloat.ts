/**
 * Python's `repr(float)`, which is also what pandas' `to_csv` writes for float64 cells
 * (numpy's `astype(str)` uses the same shortest round-trip digits and the same layout).
 */

/**
 * The shortest decimal digits that round-trip to `x` (|x| finite, non-zero) and the decimal
 * exponent of the first digit, so that |x| = 0.d1d2d3... × 10^(exp + 1).
 *
 * `Number.prototype.toString` is specified to give the shortest digits and, among equally short
 * candidates, the one closest to the value: the same choice as Python's `repr` (David Gay's
 * dtoa, mode 0). Only its layout differs, so it is re-parsed here.
 */
function shortestDigits(ax: number): { digits: string; exp: number } {
  const s = String(ax);
  const e = s.indexOf("e");
  const mant = e < 0 ? s : s.slice(0, e);
  let exp = e < 0 ? 0 : Number(s.slice(e + 1));
  const dot = mant.indexOf(".");
  const intPart = dot < 0 ? mant : mant.slice(0, dot);
  const frac = dot < 0 ? "" : mant.slice(dot + 1);
  // exp so far is relative to the decimal point after intPart; normalise to the first digit.
  let digits = intPart + frac;
  exp += intPart.length - 1;
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  exp -= lead;
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  digits = digits.slice(0, end);
  return { digits, exp };
}

/** Python's `repr(x)` for a float: "0.1", "1e-05", "1e+16", "100.0", "nan", "inf", "-0.0". */
export function pyFloatRepr(x: number): string {
  if (x !== x) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const { digits, exp } = shortestDigits(Math.abs(x));
  // Python's float_repr_style 'short' switches to exponent notation outside 1e-4 <= |x| < 1e16.
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    const intLen = exp + 1;
    if (digits.length <= intLen) return `${sign}${digits}${"0".repeat(intLen - digits.length)}.0`;
    return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
  }
  const mant = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const absExp = Math.abs(exp);
  return `${sign}${mant}e${exp < 0 ? "-" : "+"}${absExp < 10 ? "0" : ""}${absExp}`;
}

/** {@link pyFloatRepr}, with a shortcut for the common case where JavaScript's own text already agrees. */
export function pyFloatReprFast(x: number): string {
  const s = String(x);
  const a = x < 0 ? -x : x;
  // Below 1e-4 Python switches to exponent notation earlier than JavaScript; above 2^53 no double has a fraction.
  if (a >= 1e-4 && s.indexOf("e") < 0) {
    if (s.indexOf(".") >= 0) return s;
    if (a < 1e16) return `${s}.0`;
  }
  return pyFloatRepr(x);
}
