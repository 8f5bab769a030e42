import { CsvParseError } from "../core/errors.js";

/** An ARFF attribute: its name and declared type (numeric, string, date or a nominal set). */
export interface ArffAttribute {
  name: string;
  type: "numeric" | "string" | "date" | "nominal";
  values?: string[];
}

/** A parsed ARFF file: attributes in order and rows of raw cells (null for "?"). */
export interface Arff {
  relation: string;
  attributes: ArffAttribute[];
  rows: (string | null)[][];
}

/** Parse the text of an ARFF file (dense data section; quoted values with ' or "). */
export function parseArff(text: string, file = "<arff>"): Arff {
  const lines = text.split(/\r?\n/);
  const attributes: ArffAttribute[] = [];
  let relation = "";
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith("%")) continue;
    const lower = line.toLowerCase();
    if (lower.startsWith("@relation")) relation = unquote(line.slice(9).trim());
    else if (lower.startsWith("@attribute")) attributes.push(parseAttribute(line.slice(10).trim(), file, i + 1));
    else if (lower.startsWith("@data")) {
      i++;
      break;
    } else throw new CsvParseError(`${file}: line ${i + 1}: expected @relation, @attribute or @data`, file, i + 1);
  }
  if (attributes.length === 0) throw new CsvParseError(`${file}: no @attribute declarations`, file, undefined);
  const rows: (string | null)[][] = [];
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith("%")) continue;
    if (line.startsWith("{")) throw new CsvParseError(`${file}: line ${i + 1}: sparse ARFF rows are not supported`, file, i + 1);
    const cells = splitRow(line, file, i + 1);
    if (cells.length !== attributes.length) {
      throw new CsvParseError(
        `${file}: line ${i + 1}: expected ${attributes.length} values, found ${cells.length}`,
        file,
        i + 1,
      );
    }
    rows.push(cells);
  }
  return { relation, attributes, rows };
}

function parseAttribute(rest: string, file: string, line: number): ArffAttribute {
  const [name, after] = takeToken(rest);
  const spec = after.trim();
  if (spec.startsWith("{")) {
    const inner = spec.slice(1, spec.lastIndexOf("}"));
    return { name, type: "nominal", values: splitRow(inner, file, line).map((v) => v ?? "?") };
  }
  const kind = spec.split(/\s+/)[0].toLowerCase();
  if (kind === "numeric" || kind === "real" || kind === "integer") return { name, type: "numeric" };
  if (kind === "string") return { name, type: "string" };
  if (kind === "date") return { name, type: "date" };
  throw new CsvParseError(`${file}: line ${line}: unknown attribute type "${spec}"`, file, line);
}

/** The first (possibly quoted) token of a declaration and the text after it. */
function takeToken(s: string): [string, string] {
  const q = s[0];
  if (q === "'" || q === '"') {
    const end = s.indexOf(q, 1);
    return [s.slice(1, end), s.slice(end + 1)];
  }
  const m = /^(\S+)(.*)$/s.exec(s)!;
  return [m[1], m[2]];
}

function unquote(s: string): string {
  const q = s[0];
  return (q === "'" || q === '"') && s.endsWith(q) ? s.slice(1, -1) : s;
}

/** Split one comma-separated row; quotes may be ' or ", backslash escapes inside quotes; ? is missing. */
function splitRow(line: string, file: string, lineNo: number): (string | null)[] {
  const cells: (string | null)[] = [];
  let k = 0;
  const n = line.length;
  while (k <= n) {
    while (k < n && (line[k] === " " || line[k] === "\t")) k++;
    const q = line[k];
    if (q === "'" || q === '"') {
      let value = "";
      k++;
      for (;;) {
        if (k >= n) throw new CsvParseError(`${file}: line ${lineNo}: unterminated quoted value`, file, lineNo);
        const c = line[k];
        if (c === "\\" && k + 1 < n) {
          value += line[k + 1];
          k += 2;
        } else if (c === q) {
          k++;
          break;
        } else {
          value += c;
          k++;
        }
      }
      cells.push(value);
      while (k < n && line[k] !== ",") k++;
    } else {
      let end = line.indexOf(",", k);
      if (end < 0) end = n;
      const raw = line.slice(k, end).trim();
      cells.push(raw === "?" ? null : raw);
      k = end;
    }
    k++;
  }
  return cells;
}
