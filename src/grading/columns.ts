/**
 * Column helpers that reproduce the pandas/numpy operations upstream graders perform on
 * submissions: column look-up, sorting by id, element-wise id comparison, numeric coercion.
 */
import { type Cell, type Column, type Table, cellAt } from "../core/table.js";
import { InvalidSubmissionError } from "../core/errors.js";
import { pyFloatRepr } from "../io/pyfloat.js";

/** A short list of column names for messages. */
export function describeColumns(table: Table): string {
  const shown = table.columns.slice(0, 12).map((c) => JSON.stringify(c));
  const more = table.columns.length > 12 ? `, … (${table.columns.length} in all)` : "";
  return table.columns.length === 0 ? "no columns" : shown.join(", ") + more;
}

/** The named submission column, or an InvalidSubmissionError listing the columns found. */
export function submissionColumn(table: Table, name: string): Column {
  const col = table.data.get(name);
  if (!col) {
    throw new InvalidSubmissionError(
      `Submission must have a "${name}" column; found ${describeColumns(table)}.`,
    );
  }
  return col;
}

/** The named answers column; its absence is a broken data dir, not a bad submission. */
export function answersColumn(table: Table, name: string): Column {
  const col = table.data.get(name);
  if (!col) throw new Error(`Answers are missing the "${name}" column; found ${describeColumns(table)}.`);
  return col;
}

/** Compare strings by Unicode code point, as Python does (JS `<` compares UTF-16 units). */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800–0xDFFF) encode code points above every BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Whether UTF-16 order could differ from code-point order: some text has units at or above U+D800. */
function needsCodePointOrder(values: (string | null)[]): boolean {
  for (const v of values) {
    if (v === null) continue;
    for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) >= 0xd800) return true;
  }
  return false;
}

/**
 * Row order that sorts a column ascending like `DataFrame.sort_values`: missing values last,
 * numbers numerically, text by code point. Ties keep file order. A column mixing booleans and
 * missing values sorts as pandas does (False < True).
 */
export function sortOrder(col: Column): Uint32Array {
  const n = col.values.length;
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  switch (col.kind) {
    case "int":
    case "float": {
      const v = col.values;
      // NaN last; ties by position keep the sort stable.
      return idx.sort((a, b) => {
        const x = v[a];
        const y = v[b];
        if (x < y) return -1;
        if (x > y) return 1;
        const xn = x !== x;
        const yn = y !== y;
        if (xn !== yn) return xn ? 1 : -1;
        return a - b;
      });
    }
    case "bool":
      return idx.sort((a, b) => col.values[a] - col.values[b] || a - b);
    case "bigint":
      return idx.sort((a, b) => {
        const x = col.values[a];
        const y = col.values[b];
        return x < y ? -1 : x > y ? 1 : a - b;
      });
    case "string": {
      const v = col.values;
      if (needsCodePointOrder(v)) {
        return idx.sort((a, b) => {
          const x = v[a];
          const y = v[b];
          if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
          return compareStrings(x, y) || a - b;
        });
      }
      // Plain arrays sort faster than typed arrays with a comparator in V8.
      const order = Array.from(idx);
      order.sort((a, b) => {
        const x = v[a];
        const y = v[b];
        if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
        return x < y ? -1 : x > y ? 1 : a - b;
      });
      return Uint32Array.from(order);
    }
    case "object": {
      const v = col.values;
      return idx.sort((a, b) => {
        const x = v[a];
        const y = v[b];
        if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
        return Number(x) - Number(y) || a - b;
      });
    }
  }
}

/** numpy's `==` between two cells: numbers and booleans by value, text only with text, NaN never. */
export function cellsEqual(a: Cell, b: Cell): boolean {
  if (a === null || b === null) return false;
  const ta = typeof a;
  const tb = typeof b;
  if (ta === "string" || tb === "string") return a === b;
  if (ta === "bigint" || tb === "bigint") {
    const x = typeof a === "boolean" ? BigInt(a ? 1 : 0) : a;
    const y = typeof b === "boolean" ? BigInt(b ? 1 : 0) : b;
    // Mixed bigint/number comparison is exact in JavaScript.
    return x == y;
  }
  return Number(a) === Number(b);
}

/**
 * Match every answers row (in `ansOrder`) with the submission row holding the same id; returns
 * the submission's rows in that order. This succeeds exactly when upstream's check does (both id
 * columns sorted, then compared element-wise with numpy's `!=`), i.e. when the id multisets are
 * equal, but costs one hash look-up per row instead of a second sort.
 */
export function alignToAnswers(sub: Column, ans: Column, ansOrder: ArrayLike<number>, idName: string): Uint32Array {
  const n = ansOrder.length;
  if (sub.values.length !== n) {
    throw new InvalidSubmissionError(
      `Submission has ${sub.values.length} rows but the answers have ${n}; ` +
        `there must be exactly one row per "${idName}".`,
    );
  }
  // Each id maps to its first unused submission row; repeats chain through `next`.
  const first = new Map<string | number | bigint, number>();
  const next = new Int32Array(n).fill(-1);
  const last = new Map<string | number | bigint, number>();
  for (let i = 0; i < n; i++) {
    const k = alignKeyAt(sub, i);
    if (k === undefined) continue;
    const tail = last.get(k);
    if (tail === undefined) first.set(k, i);
    else next[tail] = i;
    last.set(k, i);
  }
  const out = new Uint32Array(n);
  let mismatches = 0;
  for (let j = 0; j < n; j++) {
    const k = alignKeyAt(ans, ansOrder[j]);
    const row = k === undefined ? undefined : first.get(k);
    if (row === undefined) {
      mismatches++;
      continue;
    }
    out[j] = row;
    if (next[row] >= 0) first.set(k!, next[row]);
    else first.delete(k!);
  }
  if (mismatches > 0) {
    throw new InvalidSubmissionError(
      `Submission "${idName}" values do not match the answers (${mismatches} of ${n} answer ids have no ` +
        `matching row): ${describeIdDifference(sub, ans)}. ` +
        `Submit exactly one row for every id in the sample submission.`,
    );
  }
  return out;
}

/**
 * A Map key under which two cells are equal exactly when numpy's `==` says so: text as itself,
 * numbers and booleans as numbers, huge integers as bigint; undefined for a missing value.
 */
function alignKeyAt(col: Column, i: number): string | number | bigint | undefined {
  switch (col.kind) {
    case "string":
      return col.values[i] ?? undefined;
    case "int":
    case "bool":
      return col.values[i];
    case "float": {
      const v = col.values[i];
      return v === v ? v : undefined;
    }
    case "bigint": {
      const v = col.values[i];
      const asNumber = Number(v);
      return Number.isSafeInteger(asNumber) ? asNumber : v;
    }
    case "object": {
      const v = col.values[i];
      return v === null ? undefined : Number(v);
    }
  }
}

/** Say how two id columns differ as sets: ids missing, ids unknown, or repeated ids. */
function describeIdDifference(sub: Column, ans: Column): string {
  const s = keySet(sub);
  const a = keySet(ans);
  const firstOutside = (col: Column, keys: Set<string>) => {
    for (let i = 0; i < col.values.length; i++) {
      const k = hashKeyAt(col, i);
      if (k === null || !keys.has(k)) return i;
    }
    return -1;
  };
  const parts: string[] = [];
  let missing = a.missing;
  for (const k of a.keys) if (!s.keys.has(k)) missing++;
  let unknown = s.missing;
  for (const k of s.keys) if (!a.keys.has(k)) unknown++;
  if (missing > 0) parts.push(`${missing} answer id(s) are missing (e.g. ${cellText(cellAt(ans, firstOutside(ans, s.keys)))})`);
  if (unknown > 0) parts.push(`${unknown} id(s) are not in the answers (e.g. ${cellText(cellAt(sub, firstOutside(sub, a.keys)))})`);
  const repeated = sub.values.length - s.keys.size - s.missing;
  if (repeated > 0) parts.push(`${repeated} row(s) repeat an id`);
  return parts.length > 0 ? parts.join("; ") : "the ids differ in type (e.g. numbers versus text)";
}

/** Row `i` of a column as Python's `str()` prints it (pandas `astype(str)`): NaN is "nan", floats use repr. */
export function pyStrAt(col: Column, i: number): string {
  switch (col.kind) {
    case "int":
    case "bigint":
      return String(col.values[i]);
    case "float":
      return pyFloatRepr(col.values[i]);
    case "bool":
      return col.values[i] ? "True" : "False";
    case "string":
      return col.values[i] ?? "nan";
    case "object": {
      const v = col.values[i];
      return v === null ? "nan" : v ? "True" : "False";
    }
  }
}

/** A cell quoted for an error message. */
export function cellText(cell: Cell): string {
  if (cell === null) return "a missing value";
  if (typeof cell === "string") return JSON.stringify(cell.length > 60 ? cell.slice(0, 57) + "..." : cell);
  if (typeof cell === "boolean") return cell ? "True" : "False";
  if (typeof cell === "number") return Number.isInteger(cell) ? String(cell) : pyFloatRepr(cell);
  return String(cell);
}

/** A column's cells in the given order, as plain values (NaN floats stay NaN numbers). */
export function valuesInOrder(col: Column, order: ArrayLike<number>): (string | number | boolean | bigint | null)[] {
  const out: (string | number | boolean | bigint | null)[] = new Array(order.length);
  if (col.kind === "float" || col.kind === "int") {
    for (let i = 0; i < order.length; i++) out[i] = col.values[order[i]];
  } else {
    for (let i = 0; i < order.length; i++) out[i] = cellAt(col, order[i]);
  }
  return out;
}

/**
 * A column as float64 in the given row order, like `pd.to_numeric(...).to_numpy()`: numbers and
 * booleans convert, NaN stays NaN, text is rejected with the first offending row.
 */
export function numericInOrder(col: Column, order: ArrayLike<number> | null, name: string): Float64Array {
  const n = order ? order.length : col.values.length;
  const out = new Float64Array(n);
  const at = (i: number) => (order ? order[i] : i);
  switch (col.kind) {
    case "int":
    case "float":
      for (let i = 0; i < n; i++) out[i] = col.values[at(i)];
      return out;
    case "bool":
      for (let i = 0; i < n; i++) out[i] = col.values[at(i)];
      return out;
    case "bigint":
      for (let i = 0; i < n; i++) out[i] = Number(col.values[at(i)]);
      return out;
    case "object":
      for (let i = 0; i < n; i++) {
        const v = col.values[at(i)];
        out[i] = v === null ? NaN : Number(v);
      }
      return out;
    case "string": {
      for (let i = 0; i < col.values.length; i++) {
        const v = col.values[i];
        if (v !== null && !NUMERIC_TEXT.test(v)) {
          throw new InvalidSubmissionError(
            `Column "${name}" must hold numbers, but data row ${i + 1} holds ${cellText(v)}.`,
          );
        }
      }
      out.fill(NaN);
      return out;
    }
  }
}

/** Text pandas' to_numeric would accept as a number (decimal, exponent, inf/nan spellings). */
const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf(inity)?|nan)\s*$/i;

/** Identity row order 0..n-1. */
export function identityOrder(n: number): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx;
}

/** Describe the first non-finite value of a numeric vector, or null when all are finite. */
export function firstNonFinite(values: ArrayLike<number>): { index: number; value: number } | null {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) return { index: i, value: values[i] };
  }
  return null;
}

/**
 * A key under which cells equal in Python compare equal (1, 1.0 and True share one), or null
 * for a missing value, which never equals anything (each NaN is its own set member).
 */
export function hashKeyAt(col: Column, i: number): string | null {
  const cell = cellAt(col, i);
  if (cell === null) return null;
  if (typeof cell === "string") return "s" + cell;
  if (typeof cell === "boolean") return cell ? "n1" : "n0";
  return "n" + String(cell);
}

/** Python `set(column)` as keys; missing values are counted separately since each is distinct. */
export function keySet(col: Column): { keys: Set<string>; missing: number } {
  const keys = new Set<string>();
  let missing = 0;
  for (let i = 0; i < col.values.length; i++) {
    const k = hashKeyAt(col, i);
    if (k === null) missing++;
    else keys.add(k);
  }
  return { keys, missing };
}

/** Require `set(submission ids) == set(answer ids)`; duplicates are not caught, as upstream. */
export function requireSameIdSet(sub: Column, ans: Column, idName: string): void {
  const s = keySet(sub);
  const a = keySet(ans);
  let extra = s.missing;
  let missing = a.missing;
  let firstExtra: number | null = s.missing > 0 ? -1 : null;
  let firstMissing: number | null = null;
  for (let i = 0; i < sub.values.length && firstExtra === null; i++) {
    const k = hashKeyAt(sub, i);
    if (k !== null && !a.keys.has(k)) firstExtra = i;
  }
  for (const k of s.keys) if (!a.keys.has(k)) extra++;
  for (let i = 0; i < ans.values.length; i++) {
    const k = hashKeyAt(ans, i);
    if (k !== null && !s.keys.has(k)) {
      if (firstMissing === null) firstMissing = i;
    }
  }
  for (const k of a.keys) if (!s.keys.has(k)) missing++;
  if (extra === 0 && missing === 0) return;
  const parts: string[] = [];
  if (missing > 0) {
    const example = firstMissing !== null && firstMissing >= 0 ? ` (e.g. ${cellText(cellAt(ans, firstMissing))})` : "";
    parts.push(`${missing} answer id(s) are missing${example}`);
  }
  if (extra > 0) {
    const example =
      firstExtra !== null && firstExtra >= 0 ? ` (e.g. ${cellText(cellAt(sub, firstExtra))})` : " (missing values)";
    parts.push(`${extra} id(s) are not in the answers${example}`);
  }
  throw new InvalidSubmissionError(`Submission "${idName}" values differ from the answers: ${parts.join("; ")}.`);
}
