import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, compareStrings, numericInOrder, submissionColumn } from "../../grading/columns.js";
import { LABELS, weightedMultiLabelLogLoss } from "./weighted-log-loss.js";

const ID = "row_id";
const TARGET = "fractured";

/**
 * Weighted multi-label log loss over studies. Each row_id is "<StudyInstanceUID>_<label>"; the
 * rows are regrouped into one row of eight labels per study, as upstream unmelts them, and the
 * studies are averaged in StudyInstanceUID order.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, ID);
  const ansTarget = answersColumn(ans, TARGET);
  const subId = submissionColumn(submission, ID);
  const subTarget = submissionColumn(submission, TARGET);
  if (subTarget.kind === "string") {
    const row = subTarget.values.findIndex((v) => v !== null);
    throw new InvalidSubmissionError(
      `Column "${TARGET}" must hold probabilities between 0 and 1, but data row ${row + 1} holds ${cellText(subTarget.values[row] ?? null)}.`,
    );
  }
  const predicted = numericInOrder(subTarget, null, TARGET);
  for (let i = 0; i < predicted.length; i++) {
    const v = predicted[i];
    if (!(v >= 0 && v <= 1)) {
      const what = Number.isNaN(v) ? "a missing value" : cellText(v);
      throw new InvalidSubmissionError(`Column "${TARGET}" must hold probabilities between 0 and 1, but data row ${i + 1} holds ${what}.`);
    }
  }
  if (ansId.kind !== "string") throw new Error(`Answers "${ID}" must hold "<StudyInstanceUID>_<label>" text.`);
  const truthValues = numericInOrder(ansTarget, null, TARGET);
  const subRows = alignToAnswers(subId, ansId, null, ID);

  // Unmelt: one slot per (study, label), studies in sorted order as pandas' pivot gives them.
  const studyOf: string[] = new Array(ans.rowCount);
  const labelOf = new Int32Array(ans.rowCount);
  const studies = new Set<string>();
  for (let j = 0; j < ans.rowCount; j++) {
    const id = ansId.values[j] ?? "";
    const cut = id.indexOf("_");
    studyOf[j] = cut < 0 ? id : id.slice(0, cut);
    // Labels other than the eight scored ones become pivot columns that are never read.
    labelOf[j] = cut < 0 ? -1 : LABELS.indexOf(id.slice(cut + 1));
    if (labelOf[j] >= 0) studies.add(studyOf[j]);
  }
  const sortedStudies = [...studies].sort(compareStrings);
  const slotOf = new Map(sortedStudies.map((s, k) => [s, k]));
  const truth = new Float64Array(sortedStudies.length * LABELS.length).fill(NaN);
  const prediction = new Float64Array(truth.length).fill(NaN);
  for (let j = 0; j < ans.rowCount; j++) {
    if (labelOf[j] < 0) continue;
    const slot = slotOf.get(studyOf[j])! * LABELS.length + labelOf[j];
    const t = truthValues[j];
    if (t !== 0 && t !== 1) throw new Error(`Answers "${TARGET}" must be 0 or 1, but data row ${j + 1} holds ${cellText(t)}.`);
    truth[slot] = t;
    prediction[slot] = predicted[subRows[j]];
  }
  const gap = truth.findIndex((t) => Number.isNaN(t));
  if (gap >= 0) {
    throw new Error(`Answers lack the row "${sortedStudies[Math.floor(gap / LABELS.length)]}_${LABELS[gap % LABELS.length]}".`);
  }
  return weightedMultiLabelLogLoss(truth, prediction);
}
