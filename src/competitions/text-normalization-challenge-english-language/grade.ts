import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { gradeNormalization } from "../_shared/normalization-accuracy.js";

/** Accuracy of the normalised English tokens (`after`, compared as text), rows matched by `id`. */
export function grade(submission: Table, answers: Answers): number {
  return gradeNormalization(submission, answers);
}
