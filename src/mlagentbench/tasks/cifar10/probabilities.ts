/**
 * Grading of a submission.csv that holds one row of per-class probabilities per test example, the format
 * the cifar10 and imdb tasks share: an index column, then one column per class.
 */
import fs from "node:fs";
import path from "node:path";
import { InvalidSubmissionError, UserError } from "../../../core/errors.js";
import type { Column, Table } from "../../../core/table.js";
import { readCsv } from "../../../io/csv-read.js";

/** How the submission names its index column and how many class columns follow it. */
export interface ProbabilityFormat {
  /** The index column's header; null means the first column, whatever its header (pandas' unnamed index). */
  indexColumn: string | null;
  /** Number of class columns, in class order (column k holds the score of class k). */
  classes: number;
}

function numericValues(col: Column): Float64Array | null {
  return col.kind === "int" || col.kind === "float" ? col.values : null;
}

/** Read `<workspaceDir>/submission.csv`, or throw the InvalidSubmissionError saying why it cannot be read. */
export function readSubmission(workspaceDir: string): Table {
  const file = path.join(workspaceDir, "submission.csv");
  if (!fs.existsSync(file)) throw new InvalidSubmissionError("submission.csv is missing from the workspace: train.py must write it");
  try {
    return readCsv(file);
  } catch (e) {
    throw new InvalidSubmissionError(`submission.csv cannot be read as CSV: ${(e as Error).message}`);
  }
}

/**
 * Accuracy of the arg-max class of each row against `labels` (test example i is the row whose index is i;
 * ties go to the lowest class, as numpy's argmax does). Rows for other indices are ignored.
 */
export function probabilityAccuracy(submission: Table, labels: ArrayLike<number>, format: ProbabilityFormat): number {
  if (submission.columns.length === 0) throw new InvalidSubmissionError("submission.csv has no columns");
  const indexName = format.indexColumn ?? submission.columns[0];
  if (!submission.data.has(indexName)) {
    throw new InvalidSubmissionError(`submission.csv has no index column "${indexName}"; its columns are ${submission.columns.join(", ")}`);
  }
  const classColumns = submission.columns.filter((c) => c !== indexName);
  if (classColumns.length !== format.classes) {
    throw new InvalidSubmissionError(
      `submission.csv must have ${format.classes} probability columns (one per class, in class order) after the index column; it has ${classColumns.length}: ${classColumns.join(", ")}`,
    );
  }
  const index = submission.data.get(indexName)!;
  if (index.kind !== "int") throw new InvalidSubmissionError(`submission.csv: the index column "${indexName}" must hold whole numbers (the test example numbers)`);
  const scores = classColumns.map((name) => {
    const values = numericValues(submission.data.get(name)!);
    if (!values) throw new InvalidSubmissionError(`submission.csv: column "${name}" must hold numbers (class probabilities)`);
    return values;
  });

  const rowOf = new Map<number, number>();
  for (let row = 0; row < submission.rowCount; row++) {
    const id = index.values[row];
    if (rowOf.has(id)) throw new InvalidSubmissionError(`submission.csv: index ${id} appears more than once (rows ${rowOf.get(id)! + 2} and ${row + 2})`);
    rowOf.set(id, row);
  }
  let correct = 0;
  for (let i = 0; i < labels.length; i++) {
    const row = rowOf.get(i);
    if (row === undefined) throw new InvalidSubmissionError(`submission.csv has no row for test example ${i}; it needs one for each of 0 to ${labels.length - 1}`);
    let best = 0;
    for (let k = 0; k < scores.length; k++) {
      const v = scores[k][row];
      if (Number.isNaN(v)) throw new InvalidSubmissionError(`submission.csv: row ${row + 2} (test example ${i}) has a missing value in column "${classColumns[k]}"`);
      if (v > scores[best][row]) best = k;
    }
    if (best === labels[i]) correct++;
  }
  return correct / labels.length;
}

/** The `label` column of a prepared answers file (`idx,label`, idx running 0..n-1 in order). */
export function readLabels(file: string): number[] {
  if (!fs.existsSync(file)) throw new UserError(`The task's answers are missing: ${file} does not exist; prepare the task again`);
  const table = readCsv(file);
  const idx = table.data.get("idx");
  const label = table.data.get("label");
  if (!idx || !label || idx.kind !== "int" || label.kind !== "int") throw new UserError(`${file} must have integer columns idx and label`);
  for (let i = 0; i < table.rowCount; i++) {
    if (idx.values[i] !== i) throw new UserError(`${file}: row ${i + 2} has idx ${idx.values[i]}, expected ${i}`);
  }
  return Array.from(label.values);
}
