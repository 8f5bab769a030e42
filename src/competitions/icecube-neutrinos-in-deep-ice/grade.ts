import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { alignByIdSet } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, describeColumns, distinctInOrder, numericInOrder } from "../../grading/columns.js";
import { meanAngularError } from "./angular-error.js";
import { numericSortOrder } from "../../grading/numeric-order.js";
import { describeIdMismatch, wholeIds } from "./event-order.js";

const COLUMNS = ["event_id", "azimuth", "zenith"] as const;
const ANGLES = ["azimuth", "zenith"] as const;
/** A decimal number as text, to point at the first cell of a text column that is not one. */
const PLAIN_NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** numpy's issubdtype(dtype, np.number): integers and floats count, booleans and text do not. */
function isNumberColumn(col: Column): boolean {
  return col.kind === "int" || col.kind === "float" || col.kind === "bigint";
}

/** Exactly the three columns, in any order; anything else is refused, as upstream does. */
function requireExactColumns(submission: Table): void {
  const missing = COLUMNS.filter((c) => !submission.data.has(c));
  const extra = submission.columns.filter((c) => !(COLUMNS as readonly string[]).includes(c));
  if (missing.length === 0 && extra.length === 0) return;
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`missing ${missing.map((c) => JSON.stringify(c)).join(", ")}`);
  if (extra.length > 0) parts.push(`unexpected ${extra.map((c) => JSON.stringify(c)).join(", ")}`);
  throw new InvalidSubmissionError(
    `Submission must have exactly the columns "event_id", "azimuth" and "zenith" (${parts.join("; ")}); ` +
      `found ${describeColumns(submission)}.`,
  );
}

/** The angle column as float64, refusing text, booleans, NaN and infinities with the offending row. */
function angleColumn(submission: Table, name: string): Float64Array {
  const col = submission.data.get(name)!;
  if (!isNumberColumn(col)) {
    let what = "booleans (True/False)";
    if (col.kind === "string") {
      const row = col.values.findIndex((v) => v !== null && !PLAIN_NUMBER.test(v));
      what = row >= 0 ? `${cellText(col.values[row])} in data row ${row + 1}` : "text";
    }
    throw new InvalidSubmissionError(`Column "${name}" must hold only numbers (radians), but it holds ${what}.`);
  }
  const values = numericInOrder(col, null, name);
  for (let i = 0; i < values.length; i++) {
    if (Number.isFinite(values[i])) continue;
    const what = Number.isNaN(values[i]) ? "a missing value (NaN)" : cellText(values[i]);
    throw new InvalidSubmissionError(
      `Column "${name}" must hold finite numbers (radians), but data row ${i + 1} ` +
        `(event_id ${cellText(cellAt(submission.data.get("event_id")!, i))}) holds ${what}.`,
    );
  }
  return values;
}

/**
 * Both sides' rows in ascending event_id order. Upstream compares the id *sets* (with equal row
 * counts and unique answer ids, that means the same ids), then sorts both sides by event_id and
 * pairs them row by row. Whole-number ids, the real format, take a linear-time path.
 */
function matchEvents(submission: Table, ans: Table): { subOrder: Uint32Array; ansOrder: Uint32Array } {
  const ansIds = wholeIds(ans.data.get("event_id")!);
  const subIds = wholeIds(submission.data.get("event_id")!);
  if (ansIds && subIds) {
    const ansOrder = numericSortOrder(ansIds);
    if (distinctInOrder(ansIds, ansOrder)) {
      const subOrder = numericSortOrder(subIds);
      const mismatch = describeIdMismatch(subIds, subOrder, ansIds, ansOrder);
      if (mismatch) throw new InvalidSubmissionError(`Submission "event_id" values differ from the answers: ${mismatch}.`);
      return { subOrder, ansOrder };
    }
  }
  return alignByIdSet(submission, ans, "event_id");
}

/**
 * Mean angular error (radians) between the predicted and true neutrino directions, rows matched
 * by `event_id`. Any finite angle is accepted: no range check, as upstream.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  for (const c of COLUMNS) answersColumn(ans, c);
  requireExactColumns(submission);
  const [azimuth, zenith] = ANGLES.map((name) => angleColumn(submission, name));
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test event_id.`,
    );
  }
  const { subOrder, ansOrder } = matchEvents(submission, ans);
  const azTrue = numericInOrder(ans.data.get("azimuth")!, ansOrder, "azimuth");
  const zenTrue = numericInOrder(ans.data.get("zenith")!, ansOrder, "zenith");
  const azPred = new Float64Array(subOrder.length);
  const zenPred = new Float64Array(subOrder.length);
  for (let j = 0; j < subOrder.length; j++) {
    azPred[j] = azimuth[subOrder[j]];
    zenPred[j] = zenith[subOrder[j]];
  }
  return meanAngularError(azTrue, zenTrue, azPred, zenPred);
}
