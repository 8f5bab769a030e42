import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { aurocInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, describeColumns } from "../../grading/columns.js";
import { rocAuc } from "../../metrics/roc-auc.js";
import { numpySum } from "../../metrics/sum.js";
import { CLASSES } from "./classes.js";

const ID = "StudyInstanceUID";

/**
 * Mean ROC AUC over the nine label columns of the sample submission, rows matched by
 * `StudyInstanceUID`; the answers' "CVC - Normal" and "Swan Ganz Catheter Present" are not scored.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  for (const cls of CLASSES) answersColumn(ans, cls);
  const missing = CLASSES.filter((cls) => !submission.data.has(cls));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission is missing ${missing.length} label column(s): ${missing.map((c) => JSON.stringify(c)).join(", ")}; ` +
        `found ${describeColumns(submission)}.`,
    );
  }
  const scores = CLASSES.map((cls) => {
    const { yTrue, yScore } = aurocInputs(submission, ans, { id: ID, target: cls });
    return rocAuc(yTrue, yScore);
  });
  // np.average of the per-class scores: numpy's summation order, then one division.
  return numpySum(scores) / scores.length;
}
