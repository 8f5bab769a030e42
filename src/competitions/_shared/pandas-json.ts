/**
 * JSON text as pandas' `DataFrame.to_json(orient="records", lines=True)` writes it (its bundled
 * ujson, force_ascii on): no spaces, "/" escaped as "\/", everything outside printable ASCII as
 * a lowercase \uXXXX escape except the short escapes \b \f \n \r \t and DEL, which stays raw.
 */
import { UserError } from "../../core/errors.js";
import type { PyJson } from "../../pycompat/pyjson.js";

const SHORT: Record<number, string> = { 0x22: '\\"', 0x5c: "\\\\", 0x2f: "\\/", 0x08: "\\b", 0x0c: "\\f", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t" };

/** A string as ujson quotes it; `where` names the record for the one thing it cannot write. */
export function ujsonQuote(s: string, where: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7f && c !== 0x22 && c !== 0x5c && c !== 0x2f) continue;
    out += s.slice(chunk, i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff ? s.charCodeAt(i + 1) : NaN;
      // pandas encodes through UTF-8, which has no room for half a surrogate pair.
      if (!(pair >= 0xdc00 && pair <= 0xdfff)) throw new UserError(`${where}: text holds a lone UTF-16 surrogate (\\u${c.toString(16)}), which pandas cannot write`);
      out += `\\u${c.toString(16)}\\u${pair.toString(16)}`;
      i++;
    } else out += SHORT[c] ?? `\\u${c.toString(16).padStart(4, "0")}`;
    chunk = i + 1;
  }
  return out + s.slice(chunk) + '"';
}

// pandas prints floats with 10 significant digits of its own; records that should hold none refuse them.
function refuseFloat(v: number, where: string): string {
  throw new UserError(`${where}: holds the number ${v}; only integers are expected in these records`);
}

/**
 * A parsed JSON value written back as pandas writes a cell holding it; floats go through
 * `formatFloat` (by default they are refused).
 */
export function ujsonValue(v: PyJson, where: string, formatFloat: (v: number, where: string) => string = refuseFloat): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string") return ujsonQuote(v, where);
  if (typeof v === "number") return formatFloat(v, where);
  if (Array.isArray(v)) return `[${v.map((x) => ujsonValue(x, where, formatFloat)).join(",")}]`;
  const parts: string[] = [];
  for (const [k, x] of v) parts.push(`${ujsonQuote(k, where)}:${ujsonValue(x, where, formatFloat)}`);
  return `{${parts.join(",")}}`;
}
