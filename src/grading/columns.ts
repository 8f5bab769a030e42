/**
 * Column helpers that reproduce the pandas/numpy operations upstream graders perform on
 * submissions: column look-up, sorting by id, element-wise id comparison, numeric coercion.
 */
import { type Cell, type Column, type Table, bytesOf, cellAt, columnLength } from "../core/table.js";
import { InvalidSubmissionError } from "../core/errors.js";
import { pyFloatRepr } from "../pycompat/pyfloat.js";
import { compareStrings } from "./compare-text.js";
import { type Key, KeyIndex } from "./key-index.js";
import { numericSortOrder } from "./numeric-order.js";
import { textSortOrder } from "./sort-text.js";
import { matchTextRows, sameTextSet, textBytesOrder, textMembership } from "./text-keys.js";

export { compareStrings };

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


/**
 * Row order that sorts a column ascending like `DataFrame.sort_values`: missing values last,
 * numbers numerically, text by code point. Ties keep file order. A column mixing booleans and
 * missing values sorts as pandas does (False < True).
 */
export function sortOrder(col: Column): Uint32Array {
  const idx = () => identityOrder(col.values.length);
  switch (col.kind) {
    case "int":
    case "float":
      return numericSortOrder(col.values);
    case "bool":
      return idx().sort((a, b) => col.values[a] - col.values[b] || a - b);
    case "bigint":
      return idx().sort((a, b) => {
        const x = col.values[a];
        const y = col.values[b];
        return x < y ? -1 : x > y ? 1 : a - b;
      });
    case "string":
      return col.text ? textBytesOrder(col.text) : textSortOrder(col.values);
    case "object": {
      const v = col.values;
      return idx().sort((a, b) => {
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
 * Match every answers row (taken in `ansOrder`, or file order when null) with the submission row
 * holding the same id; returns the submission's rows in that order. This succeeds exactly when
 * upstream's check does (both id columns sorted, then compared element-wise with numpy's `!=`),
 * i.e. when the id multisets are equal, without sorting the submission.
 */
export function alignToAnswers(
  sub: Column,
  ans: Column,
  ansOrder: ArrayLike<number> | null,
  idName: string,
): Uint32Array {
  const n = columnLength(ans);
  if (columnLength(sub) !== n) {
    throw new InvalidSubmissionError(
      `Submission has ${columnLength(sub)} rows but the answers have ${n}; ` +
        `there must be exactly one row per "${idName}".`,
    );
  }
  const subText = bytesOf(sub);
  const ansText = bytesOf(ans);
  if (subText && ansText) {
    const { rows, mismatches } = matchTextRows(subText, ansText, ansOrder);
    if (mismatches > 0) throw idMismatch(sub, ans, idName, mismatches, n);
    return rows;
  }
  const subKey = keyReader(sub);
  const ansKey = keyReader(ans);
  const out = new Uint32Array(n);
  for (let j = 0; j < n; j++) out[j] = ansOrder ? ansOrder[j] : j;
  // Agents usually keep the sample submission's row order, which is the answers' order.
  let sameOrder = true;
  for (let j = 0; j < n && sameOrder; j++) {
    const k = ansKey(out[j]);
    sameOrder = k !== undefined && k === subKey(out[j]);
  }
  if (sameOrder) return out;

  const byAnswerRow = isNumberColumn(sub) && isNumberColumn(ans) ? matchUniqueNumbers(sub.values, ans.values) : null;
  let mismatches = 0;
  if (byAnswerRow) {
    for (let j = 0; j < n; j++) {
      const row = byAnswerRow[out[j]];
      if (row < 0) mismatches++;
      else out[j] = row;
    }
  } else {
    const index = new KeyIndex(n, subKey);
    const used = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
      const k = ansKey(out[j]);
      let row = k === undefined ? -1 : index.first(k);
      while (row >= 0 && used[row]) row = index.next(row);
      if (row < 0) {
        mismatches++;
        continue;
      }
      used[row] = 1;
      out[j] = row;
    }
  }
  if (mismatches > 0) throw idMismatch(sub, ans, idName, mismatches, n);
  return out;
}

function idMismatch(sub: Column, ans: Column, idName: string, mismatches: number, n: number): InvalidSubmissionError {
  return new InvalidSubmissionError(
    `Submission "${idName}" values do not match the answers (${mismatches} of ${n} answer ids have no ` +
      `matching row): ${describeIdDifference(sub, ans)}. ` +
      `Submit exactly one row for every id in the sample submission.`,
  );
}

function isNumberColumn(c: Column): c is Column & { values: Float64Array } {
  return c.kind === "int" || c.kind === "float";
}

/**
 * For number ids, the submission row holding each answer row's id (-1 where none does), found by
 * walking both sides in sorted order; null when the answers repeat an id, whose copies the
 * general path pairs in answer order.
 */
function matchUniqueNumbers(sub: Float64Array, ans: Float64Array): Int32Array | null {
  const os = numericSortOrder(sub);
  const oa = numericSortOrder(ans);
  const match = new Int32Array(ans.length).fill(-1);
  let i = 0;
  for (let k = 0; k < oa.length; k++) {
    const x = ans[oa[k]];
    if (k > 0 && x === ans[oa[k - 1]]) return null;
    // NaN never equals anything; both orders put NaNs last, so nothing after one can match.
    if (x !== x) break;
    while (i < os.length && sub[os[i]] < x) i++;
    if (i < os.length && sub[os[i]] === x) match[oa[k]] = os[i++];
  }
  return match;
}

/**
 * A reader of keys under which two cells are equal exactly when numpy's `==` says so: text as
 * itself, numbers and booleans as numbers, huge integers as bigint; undefined for a missing value.
 */
export function keyReader(col: Column): (row: number) => Key | undefined {
  switch (col.kind) {
    case "string": {
      const v = col.values;
      return (i) => v[i] ?? undefined;
    }
    case "int":
    case "bool": {
      const v = col.values;
      return (i) => v[i];
    }
    case "float": {
      const v = col.values;
      return (i) => (v[i] === v[i] ? v[i] : undefined);
    }
    case "bigint": {
      const v = col.values;
      return (i) => {
        const asNumber = Number(v[i]);
        return Number.isSafeInteger(asNumber) ? asNumber : v[i];
      };
    }
    case "object": {
      const v = col.values;
      return (i) => (v[i] === null ? undefined : Number(v[i]));
    }
  }
}

/** Say how two id columns differ as sets: ids missing, ids unknown, or repeated ids. */
function describeIdDifference(sub: Column, ans: Column): string {
  const s = keySet(sub);
  const a = keySet(ans);
  const firstOutside = (col: Column, keys: Set<Key>) => {
    const keyAt = keyReader(col);
    for (let i = 0; i < col.values.length; i++) {
      const k = keyAt(i);
      if (k === undefined || !keys.has(k)) return i;
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

/** A column's values as numbers in file order (numericInOrder's conversions), without a copy for int and float columns. */
export function numericValues(col: Column, name: string): ArrayLike<number> {
  return col.kind === "int" || col.kind === "float" ? col.values : numericInOrder(col, null, name);
}

/** Text pandas' to_numeric would accept as a number (decimal, exponent, inf/nan spellings). */
const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf(inity)?|nan)\s*$/i;

/** Identity row order 0..n-1. */
export function identityOrder(n: number): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx;
}

/**
 * Python's `x in set(members)` for every row of `other`: 1 where it is a member. A missing value
 * never is (each NaN is its own). Text columns read from CSV are matched on their bytes.
 */
export function memberOf(members: Column, other: Column): Uint8Array {
  const a = bytesOf(members);
  const b = bytesOf(other);
  if (a && b) return textMembership(a, b);
  const keys = keySet(members).keys;
  const keyAt = keyReader(other);
  const out = new Uint8Array(columnLength(other));
  for (let j = 0; j < out.length; j++) {
    const k = keyAt(j);
    if (k !== undefined && keys.has(k)) out[j] = 1;
  }
  return out;
}

/** Python `set(column)` as keys; missing values are counted apart, since each NaN is its own member. */
export function keySet(col: Column): { keys: Set<Key>; missing: number } {
  const keyAt = keyReader(col);
  const keys = new Set<Key>();
  let missing = 0;
  for (let i = 0; i < col.values.length; i++) {
    const k = keyAt(i);
    if (k === undefined) missing++;
    else keys.add(k);
  }
  return { keys, missing };
}

function sameKeySet(sub: Column, ans: Column): boolean {
  const subText = bytesOf(sub);
  const ansText = bytesOf(ans);
  if (subText && ansText) return sameTextSet(subText, ansText);
  const s = keySet(sub);
  const a = keySet(ans);
  if (s.missing > 0 || a.missing > 0 || s.keys.size !== a.keys.size) return false;
  for (const k of s.keys) if (!a.keys.has(k)) return false;
  return true;
}

/** Set equality of two number columns through their sorted orders (millions of ids hash slowly). */
function sameNumberSet(a: Float64Array, oa: Uint32Array, b: Float64Array, ob: Uint32Array): boolean {
  let i = 0;
  let j = 0;
  while (i < oa.length || j < ob.length) {
    if (i >= oa.length || j >= ob.length) return false;
    const x = a[oa[i]];
    // Each NaN is its own member of a Python set, so no NaN ever matches.
    if (x !== x || x !== b[ob[j]]) return false;
    while (i < oa.length && a[oa[i]] === x) i++;
    while (j < ob.length && b[ob[j]] === x) j++;
  }
  return true;
}

/**
 * Require `set(submission ids) == set(answer ids)`; repeated ids pass, as upstream. Number ids are compared through
 * both sides' ascending orders, which are returned so callers need not sort again; null for other ids.
 */
export function requireSameIdSet(sub: Column, ans: Column, idName: string): { subOrder: Uint32Array; ansOrder: Uint32Array } | null {
  let orders: { subOrder: Uint32Array; ansOrder: Uint32Array } | null = null;
  let same: boolean;
  if (isNumberColumn(sub) && isNumberColumn(ans)) {
    orders = { subOrder: numericSortOrder(sub.values), ansOrder: numericSortOrder(ans.values) };
    same = sameNumberSet(sub.values, orders.subOrder, ans.values, orders.ansOrder);
  } else {
    same = sameKeySet(sub, ans);
  }
  if (!same) {
    throw new InvalidSubmissionError(`Submission "${idName}" values differ from the answers: ${describeIdDifference(sub, ans)}.`);
  }
  return orders;
}

/** Whether no value repeats, given the values' ascending order. */
export function distinctInOrder(values: Float64Array, order: Uint32Array): boolean {
  for (let k = 1; k < order.length; k++) if (values[order[k]] === values[order[k - 1]]) return false;
  return true;
}
