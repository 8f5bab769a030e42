import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, cellText, requireSameIdSet, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { pySplit } from "../../pycompat/pystr.js";

/** Pairs i < j with ranks[i] > ranks[j], for ranks in [0, ranks.length), via a Fenwick tree. */
function countInversions(ranks: Int32Array): number {
  const n = ranks.length;
  const tree = new Int32Array(n + 1);
  let inversions = 0;
  for (let i = 0; i < n; i++) {
    let atMost = 0;
    for (let p = ranks[i] + 1; p > 0; p -= p & -p) atMost += tree[p];
    inversions += i - atMost;
    for (let p = ranks[i] + 1; p <= n; p += p & -p) tree[p]++;
  }
  return inversions;
}

/**
 * Kendall tau over cell orders, pooled across notebooks: 1 - 4·(inversions) / Σ n(n-1), rows
 * matched by notebook `id`. Each submitted `cell_order` must hold exactly the notebook's cell ids,
 * space-separated; a missing or unknown cell id makes the submission invalid, as upstream fails
 * looking it up. Upstream swaps which side it calls the truth, which leaves the score unchanged
 * (a permutation and its inverse have the same number of inversions).
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansOrder = answersColumn(ans, "cell_order");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per notebook id.`,
    );
  }
  const subId = submissionColumn(submission, "id");
  const subOrder = submissionColumn(submission, "cell_order");
  requireSameIdSet(subId, ansId, "id");
  const rows = alignToAnswers(subId, ansId, null, "id");

  const submitted: string[][] = [];
  const truth: string[][] = [];
  for (let k = 0; k < ans.rowCount; k++) {
    const sub = pySplit(pyStrAt(subOrder, rows[k]));
    const tru = pySplit(pyStrAt(ansOrder, k));
    if (sub.length !== tru.length) {
      throw new InvalidSubmissionError(
        `Notebook ${cellText(pyStrAt(ansId, k))} (data row ${rows[k] + 1}) lists ${sub.length} cell id(s) in cell_order, ` +
          `but the notebook has ${tru.length} cells; list every cell id exactly once, separated by spaces.`,
      );
    }
    submitted.push(sub);
    truth.push(tru);
  }

  let inversions = 0;
  let maxTwice = 0;
  for (let k = 0; k < truth.length; k++) {
    const position = new Map<string, number>();
    submitted[k].forEach((cell, i) => {
      if (!position.has(cell)) position.set(cell, i);
    });
    const ranks = new Int32Array(truth[k].length);
    for (let i = 0; i < ranks.length; i++) {
      const at = position.get(truth[k][i]);
      if (at === undefined) {
        const held = pyStrAt(subOrder, rows[k]);
        throw new InvalidSubmissionError(
          `Notebook ${cellText(pyStrAt(ansId, k))} (data row ${rows[k] + 1}): cell_order lacks the notebook's cell ` +
            `${cellText(truth[k][i])} (it holds ${cellText(held)}${held === "nan" ? ", as an empty cell reads" : ""}); ` +
            `list every cell id exactly once, separated by spaces.`,
        );
      }
      ranks[i] = at;
    }
    inversions += countInversions(ranks);
    const n = submitted[k].length;
    maxTwice += n * (n - 1);
  }
  if (maxTwice === 0) {
    throw new InvalidSubmissionError("Every notebook has at most one cell, so Kendall tau is undefined (division by zero).");
  }
  return 1 - (4 * inversions) / maxTwice;
}
