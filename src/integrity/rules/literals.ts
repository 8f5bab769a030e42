/**
 * Finds predictions typed into code: long bracketed literals of numbers or repeated strings, and
 * string literals holding many CSV rows. A small scanner that knows strings, comments and
 * brackets is enough; it does not need to parse any one language fully.
 */

/** A literal that looks like hand-typed labels or predictions. */
export interface LiteralFinding {
  /** 1-based line where the literal opens. */
  line: number;
  kind: "list" | "csv-string";
  /** Items in the list (numbers and booleans, or strings), or rows of the CSV text. */
  items: number;
  description: string;
}

/** A list needs this many numeric items, or this many strings with repeats, to count. */
export const MIN_LIST_ITEMS = 50;
/** A string needs this many CSV-shaped rows (same field count, at least two fields) to count. */
export const MIN_CSV_ROWS = 20;

interface Frame {
  line: number;
  numbers: number;
  strings: string[];
  /** Something other than literals, commas, colons and signs appeared. */
  other: boolean;
  found: LiteralFinding[];
}

const ATOM_WORDS = new Set(["True", "False", "None", "true", "false", "null", "TRUE", "FALSE", "NA", "nan", "NaN"]);
const OPEN: Record<string, string> = { "[": "]", "(": ")", "{": "}" };

/** Scan source text; `comment` is the line-comment marker of its language ("#" or "//"). */
export function findLiterals(text: string, comment: "#" | "//" = "#"): LiteralFinding[] {
  const top: Frame = { line: 0, numbers: 0, strings: [], other: true, found: [] };
  const stack: Frame[] = [top];
  let line = 1;
  let i = 0;
  const cur = () => stack[stack.length - 1];
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "," || c === ":" || c === ";") {
      i++;
      continue;
    }
    if (text.startsWith(comment, i) || (comment === "//" && text.startsWith("/*", i))) {
      const block = comment === "//" && text.startsWith("/*", i);
      const end = block ? text.indexOf("*/", i + 2) : text.indexOf("\n", i);
      const stop = end < 0 ? text.length : block ? end + 2 : end;
      line += count(text, "\n", i, stop);
      i = stop;
      continue;
    }
    const str = /^(?:[rRbBuUfF]{0,2})("""|'''|"|'|`)/.exec(text.slice(i, i + 5));
    if (str && (str[0].length === str[1].length || !/[\w]/.test(text[i - 1] ?? ""))) {
      const quote = str[1];
      const startLine = line;
      const bodyStart = i + str[0].length;
      let j = bodyStart;
      while (j < text.length && !text.startsWith(quote, j)) {
        if (text[j] === "\\") j++;
        // An unclosed one-line string ends at the line's end rather than swallowing the file.
        else if (text[j] === "\n" && quote.length === 1 && quote !== "`") break;
        j++;
      }
      const body = text.slice(bodyStart, Math.min(j, text.length));
      line += count(text, "\n", i, Math.min(j, text.length));
      // An unclosed string stops before its line's end, which is still to be counted.
      i = j < text.length && text.startsWith(quote, j) ? j + quote.length : Math.min(j, text.length);
      const csv = csvRows(body);
      if (csv >= MIN_CSV_ROWS) cur().found.push({ line: startLine, kind: "csv-string", items: csv, description: `string literal holding ${csv} CSV rows` });
      if (/[fF]/.test(str[0].slice(0, str[0].length - quote.length)) && body.includes("{")) cur().other = true;
      else cur().strings.push(body);
      continue;
    }
    const num = /^[-+]?(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[jJLlfF]?/.exec(text.slice(i, i + 64));
    if (num && !/[\w.]/.test(text[i - 1] ?? "")) {
      cur().numbers++;
      i += num[0].length;
      continue;
    }
    const word = /^[A-Za-z_][\w.]*/.exec(text.slice(i, i + 128));
    if (word) {
      if (ATOM_WORDS.has(word[0])) cur().numbers++;
      else cur().other = true;
      i += word[0].length;
      continue;
    }
    if (OPEN[c]) {
      stack.push({ line, numbers: 0, strings: [], other: false, found: [] });
      i++;
      continue;
    }
    if ((c === "]" || c === ")" || c === "}") && stack.length > 1) {
      const f = stack.pop()!;
      closeFrame(f, cur());
      i++;
      continue;
    }
    if (c === "-" || c === "+") {
      i++;
      continue;
    }
    cur().other = true;
    i++;
  }
  while (stack.length > 1) closeFrame(stack.pop()!, cur());
  return top.found.sort((a, b) => a.line - b.line);
}

/** Hand a closed bracket's findings to its parent: itself when it is a pure literal long enough (it then replaces what it contains), else what it contains. */
function closeFrame(f: Frame, parent: Frame): void {
  // Loops, not push(...list): a literal of a million items would overflow the call stack.
  const adopt = (list: LiteralFinding[]) => {
    for (const x of list) parent.found.push(x);
  };
  if (f.other) {
    parent.other = true;
    adopt(f.found);
    return;
  }
  // A pure literal inside a pure literal adds its items to the outer one.
  parent.numbers += f.numbers;
  for (const x of f.strings) parent.strings.push(x);
  const distinct = f.strings.length >= MIN_LIST_ITEMS ? new Set(f.strings).size : 0;
  const repeated = f.strings.length >= MIN_LIST_ITEMS && distinct <= f.strings.length / 2;
  if (f.numbers >= MIN_LIST_ITEMS) {
    adopt(f.found.filter((x) => x.kind === "csv-string"));
    parent.found.push({ line: f.line, kind: "list", items: f.numbers, description: `literal of ${f.numbers} numbers` });
  } else if (repeated) {
    adopt(f.found.filter((x) => x.kind === "csv-string"));
    parent.found.push({ line: f.line, kind: "list", items: f.strings.length, description: `literal of ${f.strings.length} strings with only ${distinct} distinct` });
  } else {
    adopt(f.found);
  }
}

/** The longest run of rows with the same field count (at least two) in a string, counting escaped "\n" as line breaks. */
function csvRows(body: string): number {
  const rows = body.split(/\r?\n|\\n/).filter((r) => r.trim() !== "");
  let best = 0;
  let run = 0;
  let fields = -1;
  for (const r of rows) {
    const n = r.split(r.includes("\t") ? /\t|\\t/ : ",").length;
    if (n >= 2 && n === fields) run++;
    else run = n >= 2 ? 1 : 0;
    fields = n;
    best = Math.max(best, run);
  }
  return best;
}

function count(text: string, ch: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (text[k] === ch) n++;
  return n;
}

/**
 * Lines that write literal data rows into a submission file: `.write("...")` of a plain string
 * (no placeholders) holding a comma and a digit, `print("...", file=...)`, or a shell echo/printf
 * into a file named submission. Only checked in files that mention "submission".
 */
export function literalSubmissionWrites(text: string): number[] {
  if (!/submission/i.test(text)) return [];
  const out: number[] = [];
  text.split("\n").forEach((l, k) => {
    if (pyLiteralCall(l, /\.write(?:lines)?\(\s*[rRbB]?(["'])([^"'{}%]*)\1\s*\)/g) || pyLiteralCall(l, /\bprint\(\s*[rRbB]?(["'])([^"'{}%]*)\1\s*,\s*file\s*=/g) || shellLiteralWrite(l)) {
      out.push(k + 1);
    }
  });
  return out;
}

// The string's body is matched as one run of characters that cannot hold its quotes, and what it
// must contain is tested afterwards: a pattern that placed a digit and a comma inside the body
// itself backtracks for minutes on one long line of an agent's file.
function pyLiteralCall(line: string, call: RegExp): boolean {
  for (const m of line.matchAll(call)) {
    const body = m[2]!;
    if (/\d/.test(body) && body.includes(",")) return true;
  }
  return false;
}

const SHELL_BODY = /[^>"']*/y;

/** `echo`/`printf` of text with a digit before a comma, redirected into a file whose name holds "submission"; scanned by hand, in linear time. */
function shellLiteralWrite(line: string): boolean {
  for (const m of line.matchAll(/\b(?:echo|printf)\s+/g)) {
    const start = m.index! + m[0].length;
    const flags = /-[a-z]+\s+/y;
    flags.lastIndex = start;
    const afterFlags = flags.exec(line) ? flags.lastIndex : start;
    if (shellWriteAt(line, afterFlags) || (afterFlags !== start && shellWriteAt(line, start))) return true;
  }
  return false;
}

function shellWriteAt(line: string, at: number): boolean {
  const q = line[at] === '"' || line[at] === "'" ? line[at]! : "";
  SHELL_BODY.lastIndex = at + q.length;
  const body = SHELL_BODY.exec(line)![0];
  let i = at + q.length + body.length;
  if (q) {
    if (line[i] !== q) return false;
    i++;
  }
  const digit = body.search(/\d/);
  if (digit < 0 || body.indexOf(",", digit) < 0) return false;
  const redirect = /\s*>>?\s*(\S*)/y;
  redirect.lastIndex = i;
  const r = redirect.exec(line);
  return r !== null && r[1]!.includes("submission");
}
