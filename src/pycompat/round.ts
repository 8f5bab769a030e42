/**
 * Python's `round(x, ndigits)`: the double nearest to x rounded to `ndigits` decimals,
 * with ties broken to even on the exact binary value (JavaScript's toFixed breaks them upwards).
 */
export function pyRound(x: number, ndigits = 5): number {
  if (!Number.isFinite(x) || x === 0) return x;
  // Beyond this magnitude a double has no digits after the requested decimal place.
  if (Math.abs(x) >= 1e15) return x;
  // toFixed prints the exact binary value; 60 extra digits are far below any double's spacing
  // here, so a tail of "5000…" can only come from an exact tie.
  const exact = Math.abs(x).toFixed(Math.min(100, ndigits + 60));
  const dot = exact.indexOf(".");
  const kept = exact.slice(0, dot + 1 + ndigits);
  const tail = exact.slice(dot + 1 + ndigits);
  let up: boolean;
  if (/^50*$/.test(tail)) up = Number(kept[kept.length - 1]) % 2 === 1;
  else up = tail[0] >= "5";
  const digits = up ? incrementDecimal(kept) : kept;
  const value = Number(digits);
  return x < 0 ? -value : value;
}

/** Add one unit in the last place to a non-negative decimal string such as "12.99999". */
function incrementDecimal(s: string): string {
  const chars = s.split("");
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] === ".") continue;
    if (chars[i] === "9") {
      chars[i] = "0";
      continue;
    }
    chars[i] = String(Number(chars[i]) + 1);
    return chars.join("");
  }
  return "1" + chars.join("");
}
