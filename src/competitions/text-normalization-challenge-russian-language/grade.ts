import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
// Upstream's Russian grader is the English one with the same columns; only the data differ.
import { gradeNormalization } from "../_shared/normalization-accuracy.js";

/** Accuracy of the normalised Russian tokens (`after`, compared as text), rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  return gradeNormalization(submission, answers);
}
