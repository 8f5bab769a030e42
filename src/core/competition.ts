import type { Table } from "./table.js";

/** Answers as a grader receives them: a table for CSV answers, parsed lines for JSONL. */
export type Answers = Table | unknown[];

/** A competition: metadata plus a pure grading function. */
export interface Competition {
  /** Upstream id, e.g. "spaceship-titanic". */
  id: string;
  name: string;
  /** "simple" or "code" as on Kaggle (upstream's competition_type). */
  type: "simple" | "code";
  complexity?: "low" | "medium" | "high";
  category?: string;
  /** Human-readable metric name, e.g. "accuracy" (upstream's grader name). */
  metric: string;
  /** Answers file, relative to `<data>/<id>/prepared/private`. */
  answers: string;
  /** Sample submission, relative to `<data>/<id>/prepared/public`. */
  sampleSubmission: string;
  /** Score a submission; throws InvalidSubmissionError (or any Error) when it cannot be graded. */
  grade(submission: Table, answers: Answers): number;
}
