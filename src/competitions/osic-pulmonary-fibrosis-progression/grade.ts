import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { numpySum } from "../../metrics/sum.js";
import { answersColumn, cellText, compareStrings, numericInOrder, submissionColumn } from "../../grading/columns.js";

/** pandas' is_numeric_dtype: integer, float and all-boolean columns count; text and gappy booleans do not. */
function isNumericColumn(col: Column): boolean {
  return col.kind === "int" || col.kind === "float" || col.kind === "bool" || col.kind === "bigint";
}

/** The per-row metric: confidence clipped below at 70, error capped at 1000. */
function laplaceLogLikelihood(actual: number, predicted: number, confidence: number): number {
  const sd = Math.max(confidence, 70);
  const delta = Math.min(Math.abs(actual - predicted), 1000);
  return (-Math.SQRT2 * delta) / sd - Math.log(Math.SQRT2 * sd);
}

/**
 * Mean modified Laplace log-likelihood over each patient's three latest weeks with a known FVC.
 * Like upstream, any subset of the answers' Patient_Weeks is accepted (only graded weeks the
 * submission contains are scored), and a missing Confidence counts as 0 (so as 70).
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansPw = answersColumn(ans, "Patient_Week");
  const ansFvc = numericInOrder(answersColumn(ans, "FVC"), null, "FVC");
  const ansPatient = answersColumn(ans, "Patient");
  const subPw = submissionColumn(submission, "Patient_Week");
  const subFvcCol = submissionColumn(submission, "FVC");
  const subConfCol = submissionColumn(submission, "Confidence");
  if (ansPw.kind !== "string" || ansPatient.kind !== "string") throw new Error("Answers must hold Patient and Patient_Week as text.");

  const known = new Set<string>();
  for (const v of ansPw.values) if (v !== null) known.add(v);
  for (let i = 0; i < submission.rowCount; i++) {
    const cell = cellAt(subPw, i);
    // numpy's `in` compares a non-text cell with the text ids and never finds it.
    if (typeof cell !== "string" || !known.has(cell)) {
      throw new InvalidSubmissionError(
        `Patient_Week ${cellText(cell)} in data row ${i + 1} is not a test Patient_Week; ids look like "<Patient>_<week>" as in the sample submission.`,
      );
    }
  }
  for (const [name, col] of [["FVC", subFvcCol], ["Confidence", subConfCol]] as const) {
    if (!isNumericColumn(col)) {
      throw new InvalidSubmissionError(`Column "${name}" must hold only numbers (blank cells allowed), but it holds text.`);
    }
  }
  const subFvc = numericInOrder(subFvcCol, null, "FVC");
  const subConf = numericInOrder(subConfCol, null, "Confidence");

  // Each patient's three latest weeks among rows with a known FVC (the others are dummy rows).
  const byPatient = new Map<string, { week: number; row: number }[]>();
  for (let i = 0; i < ans.rowCount; i++) {
    if (Number.isNaN(ansFvc[i])) continue;
    const pw = ansPw.values[i]!;
    const week = Number.parseInt(pw.slice(pw.lastIndexOf("_") + 1), 10);
    const patient = ansPatient.values[i] ?? "";
    let list = byPatient.get(patient);
    if (!list) byPatient.set(patient, (list = []));
    list.push({ week, row: i });
  }
  // Answer rows graded, by Patient_Week; a week recorded twice for a patient (real data has a
  // few) is two graded rows.
  const graded = new Map<string, number[]>();
  for (const list of byPatient.values()) {
    list.sort((a, b) => a.week - b.week);
    for (const { row } of list.slice(-3)) {
      const pw = ansPw.values[row]!;
      const rows = graded.get(pw);
      if (rows) rows.push(row);
      else graded.set(pw, [row]);
    }
  }

  const subRowsOf = new Map<string, number[]>();
  for (let i = 0; i < submission.rowCount; i++) {
    const pw = subPw.values[i] as string;
    if (!graded.has(pw)) continue;
    const rows = subRowsOf.get(pw);
    if (rows) rows.push(i);
    else subRowsOf.set(pw, [i]);
  }
  // Upstream pairs the two sides' graded rows after sorting each by Patient_Week, so they pair
  // up only when each week has as many submitted rows as graded answer rows; otherwise its
  // arrays differ in length and it fails.
  const ids = [...subRowsOf.keys()].sort(compareStrings);
  const truthRows = ids.flatMap((pw) => graded.get(pw)!);
  const subRows = ids.flatMap((pw) => subRowsOf.get(pw)!);
  if (truthRows.length !== subRows.length) {
    const pw = ids.find((id) => graded.get(id)!.length !== subRowsOf.get(id)!.length)!;
    const [want, got] = [graded.get(pw)!.length, subRowsOf.get(pw)!];
    throw new InvalidSubmissionError(
      `Patient_Week "${pw}" is graded ${want === 1 ? "once" : `${want} times`} but the submission has ${got.length} rows for it ` +
        `(data rows ${got.map((r) => r + 1).join(", ")}); submit one row per row of the sample submission.`,
    );
  }
  const values = new Float64Array(subRows.length);
  subRows.forEach((s, k) => {
    const conf = Number.isNaN(subConf[s]) ? 0 : subConf[s];
    values[k] = laplaceLogLikelihood(ansFvc[truthRows[k]], subFvc[s], conf);
  });
  // np.mean of nothing is NaN, which upstream reports as the score.
  return values.length === 0 ? NaN : numpySum(values) / values.length;
}
