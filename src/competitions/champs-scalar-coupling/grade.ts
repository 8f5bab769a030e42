import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, keyReader, numericInOrder, requireSameIdSet, submissionColumn } from "../../grading/columns.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import type { Key } from "../../grading/key-index.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { mae } from "../../metrics/regression.js";
import { numpySum } from "../../metrics/sum.js";

const TARGET = "scalar_coupling_constant";

/**
 * Mean over coupling `type`s of log(MAE) of `scalar_coupling_constant`, rows matched by `id`.
 * As upstream, the id *sets* must be equal and rows are then joined on id, so a repeated id
 * counts once per copy; a type predicted exactly scores log(0) = −Infinity overall.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id");
  const ansType = answersColumn(ans, "type");
  const truth = numericInOrder(answersColumn(ans, TARGET), null, TARGET);
  const subPred = submissionColumn(submission, TARGET);
  const subId = submissionColumn(submission, "id");
  requireSameIdSet(subId, ansId, "id");
  const pred = numericInOrder(subPred, null, TARGET);
  for (let i = 0; i < pred.length; i++) {
    if (Number.isFinite(pred[i])) continue;
    const what = Number.isNaN(pred[i]) ? "a missing value (NaN)" : cellText(pred[i]);
    throw new InvalidSubmissionError(`Column "${TARGET}" must hold finite numbers, but data row ${i + 1} holds ${what}.`);
  }

  // Submission rows per id, in file order: the inner join emits every copy, after its answers row.
  const subKey = keyReader(subId);
  const rowsById = new Map<Key, number[]>();
  for (let i = 0; i < submission.rowCount; i++) {
    const k = subKey(i)!;
    const rows = rowsById.get(k);
    if (rows) rows.push(i);
    else rowsById.set(k, [i]);
  }
  const ansKey = keyReader(ansId);
  // groupby sorts the type names; answers' types are text (e.g. "1JHC").
  const groups = new Map<string, { yTrue: number[]; yPred: number[] }>();
  for (let j = 0; j < ans.rowCount; j++) {
    const type = pyStrAt(ansType, j);
    let g = groups.get(type);
    if (!g) groups.set(type, (g = { yTrue: [], yPred: [] }));
    for (const row of rowsById.get(ansKey(j)!) ?? []) {
      g.yTrue.push(truth[j]);
      g.yPred.push(pred[row]);
    }
  }
  const types = [...groups.keys()].sort();
  const logMaes = types.map((t) => Math.log(mae(groups.get(t)!.yTrue, groups.get(t)!.yPred)));
  return numpySum(logMaes) / logMaes.length;
}
