import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { cellAt, type Table } from "../../core/table.js";
import { accuracyInputs } from "../../grading/align.js";
import { requireTable } from "../../grading/answers.js";
import { cellText } from "../../grading/columns.js";
import { meanCost } from "../../metrics/cost-matrix.js";

/** The run-time classes, shortest first: very fast, fast, moderate, long. */
export const CLASSES = ["VF", "F", "M", "L"] as const;

/**
 * Kuhn & Johnson's costs for this data ("Applied Predictive Modeling", ch. 17, and the
 * `costMatrix` of the book's chapter code): row = true class, column = predicted class. A long
 * job predicted very fast costs 10; a long job predicted fast, or a moderate one predicted very
 * fast or fast, costs 5; every other mistake costs 1.
 */
export const COSTS: readonly (readonly number[])[] = [
  [0, 1, 1, 1],
  [1, 0, 1, 1],
  [5, 5, 0, 1],
  [10, 5, 1, 0],
];

/** Mean misclassification cost of the predicted `class` under COSTS, rows matched by `id`; lower is better. */
export function grade(submission: Table, answers: Answers): number {
  const { yTrue, yPred } = accuracyInputs(submission, requireTable(answers), { id: "id", target: "class" });
  // meanCost would refuse an unknown label too, but only the file's own row helps its author.
  const col = submission.data.get("class")!;
  for (let i = 0; i < submission.rowCount; i++) {
    const v = cellAt(col, i);
    if (typeof v === "string" && (CLASSES as readonly string[]).includes(v)) continue;
    throw new InvalidSubmissionError(
      `Column "class" must hold one of ${CLASSES.join(", ")} on every row, but data row ${i + 1} ` +
        `(id ${cellText(cellAt(submission.data.get("id")!, i))}) holds ${v === null ? "nothing" : cellText(v)}.`,
    );
  }
  return meanCost(yTrue, yPred, CLASSES, COSTS);
}
