/**
 * Python text-file semantics the MLSP preparer leans on: `open(f).read().splitlines()` and `int(s)`.
 */
import fs from "node:fs";
import { UserError } from "../../core/errors.js";
import { pyInt } from "../../pycompat/pynum.js";

// Python's str.splitlines breaks at these besides \n and \r (\r\n is already one break by then).
const LINE_BREAKS = /[\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** `open(path).read().splitlines()` under a UTF-8 locale: universal newlines, then every Unicode line break. */
export function readLines(path: string): string[] {
  if (!fs.existsSync(path)) throw new UserError(`${path} is missing`);
  let text: string;
  try {
    // ignoreBOM keeps a byte-order mark in the text, as Python's "utf-8" codec does.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(path));
  } catch {
    throw new UserError(`${path} is not valid UTF-8 text`);
  }
  text = text.replace(/\r\n?/g, "\n");
  const lines = text.split(LINE_BREAKS);
  // A break at the very end closes the last line rather than opening an empty one.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Python's `int(s)`, or a UserError naming the file and line when `s` is not an integer. Ids past
 * 2^53 are refused too: they would lose their identity as JavaScript numbers.
 */
export function requireInt(s: string, file: string, line: number, what: string): number {
  const v = pyInt(s);
  if (v === null || v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new UserError(`${file}, line ${line}: ${what} should be an integer, got ${JSON.stringify(s)}`);
  }
  return Number(v);
}
