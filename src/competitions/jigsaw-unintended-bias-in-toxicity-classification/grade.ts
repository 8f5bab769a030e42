import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, describeColumns, numericInOrder, sortOrder, submissionColumn } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";

const IDENTITY_COLUMNS = [
  "male",
  "female",
  "homosexual_gay_or_lesbian",
  "christian",
  "jewish",
  "muslim",
  "black",
  "white",
  "psychiatric_or_mental_illness",
];
const POWER = -5;
const WEIGHT = 0.25;

/**
 * A prediction column binarised as upstream's `1 if x >= 0.5 else 0`: NaN fails the test and
 * becomes 0, booleans compare as 0/1, and any text cell makes Python's comparison fail.
 */
function binarisedPredictions(col: Column, name: string, order: ArrayLike<number>): Uint8Array {
  if (col.kind === "string") {
    const row = col.values.findIndex((v) => v !== null);
    if (row >= 0) {
      throw new InvalidSubmissionError(
        `Column "${name}" must hold numeric toxicity scores, but data row ${row + 1} holds ${cellText(col.values[row])}.`,
      );
    }
  }
  const values = numericInOrder(col, order, name);
  return Uint8Array.from(values, (v) => (v >= 0.5 ? 1 : 0));
}

/** Power mean with upstream's p = -5; a zero AUC makes it 0, as numpy's float arithmetic does. */
function generalizedMean(scores: number[]): number {
  let sum = 0;
  for (const s of scores) sum += Math.pow(s, POWER);
  return Math.pow(sum / scores.length, 1 / POWER);
}

/**
 * The competition's bias-weighted AUC: 0.25 x overall AUC plus 0.25 x the power mean of each of
 * the subgroup, BPSN and BNSP AUCs over nine identities. Upstream thresholds both predictions
 * and labels at 0.5 before every AUC, so only the side of 0.5 a prediction falls on matters.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const subId = submissionColumn(submission, "id");
  const hasPrediction = submission.data.has("prediction");
  const hasToxicity = submission.data.has("toxicity");
  if (!hasPrediction && !hasToxicity) {
    throw new InvalidSubmissionError(`Submission must have a "prediction" column; found ${describeColumns(submission)}.`);
  }
  if (hasPrediction && hasToxicity) {
    // Upstream renames "prediction" to "toxicity", and two columns of that name break its thresholding.
    throw new InvalidSubmissionError('Submission must have a "prediction" column but not also a "toxicity" column; drop one of them.');
  }
  const predName = hasPrediction ? "prediction" : "toxicity";
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id");
  const pred = binarisedPredictions(submission.data.get(predName)!, predName, subOrder);
  const binarise = (name: string) =>
    Uint8Array.from(numericInOrder(answersColumn(ans, name), ansOrder, name), (v) => (v >= 0.5 ? 1 : 0));
  const toxic = binarise("toxicity");

  const aucOn = (keep: (i: number) => boolean): number => {
    const yTrue: number[] = [];
    const yScore: number[] = [];
    for (let i = 0; i < toxic.length; i++) {
      if (!keep(i)) continue;
      yTrue.push(toxic[i]);
      yScore.push(pred[i]);
    }
    return rocAuc(yTrue, yScore);
  };

  const overall = aucOn(() => true);
  const subgroup: number[] = [];
  const bpsn: number[] = [];
  const bnsp: number[] = [];
  for (const name of IDENTITY_COLUMNS) {
    const identity = binarise(name);
    subgroup.push(aucOn((i) => identity[i] === 1));
    bpsn.push(aucOn((i) => (toxic[i] === 0 && identity[i] === 1) || (toxic[i] === 1 && identity[i] !== 1)));
    bnsp.push(aucOn((i) => (toxic[i] === 1 && identity[i] === 1) || (toxic[i] === 0 && identity[i] !== 1)));
  }
  return WEIGHT * overall + (WEIGHT * generalizedMean(subgroup) + WEIGHT * generalizedMean(bpsn) + WEIGHT * generalizedMean(bnsp));
}
