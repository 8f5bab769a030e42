import { InvalidSubmissionError } from "../core/errors.js";
import type { Cell, Table } from "../core/table.js";
import { cellText } from "./columns.js";

/** Rows must sum to one within np.isclose(atol=1e-6) and its default rtol of 1e-5, as upstream checks. */
export const ROW_SUM_TOLERANCE = 1e-6 + 1e-5;

/**
 * Require the named columns of a multi-class submission to form probability rows, in upstream's
 * order of checks: no text, every row sums to one (NaN skipped, as pandas sums), every value in
 * [0, 1] (so NaN fails here). Rows are not renormalised: agents must submit normalised rows.
 */
export function requireProbabilityRows(sub: Table, columns: readonly string[]): void {
  const cols = columns.map((name) => {
    const col = sub.data.get(name);
    if (!col) throw new InvalidSubmissionError(`Submission has no column "${name}".`);
    return { name, col };
  });
  for (const { name, col } of cols) {
    if (col.kind === "string" && col.values.some((v) => v !== null)) {
      throw new InvalidSubmissionError(`Column "${name}" must hold probabilities, but it holds text.`);
    }
  }
  for (let i = 0; i < sub.rowCount; i++) {
    let sum = 0;
    for (const { col } of cols) {
      const v = cellNumber(col.values[i]);
      if (!Number.isNaN(v)) sum += v;
    }
    if (!(Math.abs(sum - 1) <= ROW_SUM_TOLERANCE)) {
      throw new InvalidSubmissionError(
        `Each row's probabilities must sum to one; data row ${i + 1} sums to ${cellText(sum)}.`,
      );
    }
  }
  for (const { name, col } of cols) {
    for (let i = 0; i < sub.rowCount; i++) {
      const v = cellNumber(col.values[i]);
      if (!(v >= 0 && v <= 1)) {
        throw new InvalidSubmissionError(
          `Column "${name}" must hold probabilities between 0 and 1, but data row ${i + 1} holds ${cellText(v)}.`,
        );
      }
    }
  }
}

// Raw column storage: bool columns hold 0/1, object columns booleans, a missing value is null.
function cellNumber(v: Cell): number {
  if (v === null) return NaN;
  return Number(v);
}
