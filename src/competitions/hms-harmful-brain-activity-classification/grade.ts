import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, numericInOrder, requireSameIdSet, submissionColumn } from "../../grading/columns.js";
import { pyRound } from "../../pycompat/round.js";
import { klDivergence } from "../../metrics/kl-divergence.js";
import { numpyQuickArgsort } from "../../pycompat/numpy-argsort.js";

const ID = "eeg_id";
const VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"];

/**
 * Every submission column but eeg_id as float64. Kaggle's metric checks the dtype of the whole
 * frame, extra columns included: text, or booleans beside numbers, make it non-numeric; an
 * all-boolean frame passes that check but then fails inside the metric (numpy cannot take the
 * log of the object column pandas' clip returns), so booleans are refused outright.
 */
function submittedValues(submission: Table): { names: string[]; values: Float64Array[] } {
  const names = submission.columns.filter((c) => c !== ID);
  const values = names.map((name) => {
    const col = submission.data.get(name)!;
    if (col.kind === "int" || col.kind === "float" || col.kind === "bigint") return numericInOrder(col, null, name);
    const what = col.kind === "string" ? "text" : "True/False values";
    throw new InvalidSubmissionError(
      `Column "${name}" must hold probabilities as numbers, but it holds ${what}; every column besides "${ID}" is checked, extra ones included.`,
    );
  });
  return { names, values };
}

// numpy.allclose(rowSum, 1) with its default rtol and atol.
const ROW_SUM_TOLERANCE = 1e-8 + 1e-5;

/**
 * Kaggle's probability checks on every submitted column (missing cells skipped, as pandas'
 * min, max and sum skip them), run here in file order so the message can name the row.
 */
function checkProbabilities(names: string[], values: Float64Array[], n: number): void {
  for (let k = 0; k < names.length; k++) {
    for (let i = 0; i < n; i++) {
      const v = values[k][i];
      if (v < 0 || v > 1) {
        throw new InvalidSubmissionError(
          `Column "${names[k]}" must hold probabilities between 0 and 1, but data row ${i + 1} holds ${cellText(v)}` +
            ` (every column besides "${ID}" is checked, extra ones included).`,
        );
      }
    }
  }
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (const col of values) if (!Number.isNaN(col[i])) sum += col[i];
    if (!(Math.abs(sum - 1) <= ROW_SUM_TOLERANCE)) {
      throw new InvalidSubmissionError(
        `The columns besides "${ID}" must add up to 1 in every row, extra columns included, but in data row ${i + 1} they add up to ${cellText(sum)}.`,
      );
    }
  }
}

/** eeg_id as numbers for sorting; the id-set check has already ruled out text and missing ids. */
function idKeys(col: Column, side: string): Float64Array {
  if (col.kind === "string") throw new Error(`${side} "${ID}" must hold numbers.`);
  return numericInOrder(col, null, ID);
}

/**
 * KL divergence of the submitted class probabilities from the experts' vote shares, averaged
 * over rows. Rows are paired the way upstream pairs them: both files sorted by eeg_id with
 * numpy's unstable quicksort, then matched by position. eeg_id repeats in the answers (one row
 * per labelled window), so which submitted row meets which answer row within an eeg_id depends
 * on each file's own row order, and only the set of eeg_ids (not their counts) must agree.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, ID);
  const ansVotes = VOTES.map((c) => numericInOrder(answersColumn(ans, c), null, c));
  const subId = submissionColumn(submission, ID);
  const missing = VOTES.filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission is missing ${missing.map((c) => `"${c}"`).join(", ")}; it needs "${ID}" and all of ${VOTES.join(", ")}.`,
    );
  }
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per row of the sample submission.`,
    );
  }
  const { names, values } = submittedValues(submission);
  const voteValues = VOTES.map((c) => values[names.indexOf(c)]);
  const n = submission.rowCount;
  for (let i = 0; i < n; i++) {
    // pandas' row sum skips missing cells.
    let sum = 0;
    for (const col of voteValues) if (!Number.isNaN(col[i])) sum += col[i];
    if (pyRound(sum, 5) !== 1) {
      throw new InvalidSubmissionError(
        `The six probabilities of each row must add up to 1 (to 5 decimals), but data row ${i + 1} adds up to ${cellText(sum)}.`,
      );
    }
  }
  requireSameIdSet(subId, ansId, ID);
  checkProbabilities(names, values, n);

  const subOrder = numpyQuickArgsort(idKeys(subId, "Submission"));
  const ansOrder = numpyQuickArgsort(idKeys(ansId, "Answers"));
  const solution: number[][] = new Array(n);
  const predicted: number[][] = new Array(n);
  // Scored columns first, then any extra ones, which Kaggle's metric validates but does not score.
  const columnOrder = [...voteValues, ...values.filter((_, k) => !VOTES.includes(names[k]))];
  for (let r = 0; r < n; r++) {
    const a = ansOrder[r];
    let total = 0;
    for (const v of ansVotes) total += v[a];
    solution[r] = ansVotes.map((v) => v[a] / total);
    const s = subOrder[r];
    predicted[r] = columnOrder.map((v) => v[s]);
  }
  // pandas 1.5 clips an integer column and casts it back, so its 0s stay 0 (and cost infinity
  // where the experts voted); upstream's score depends on that.
  const unclipped = VOTES.map((c) => submission.data.get(c)!.kind === "int");
  return klDivergence(solution, predicted, { unclipped });
}
