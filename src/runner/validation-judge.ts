/**
 * The verdict the validation server gives: the real grader decides, so format errors are reported
 * in the grader's own words, but only "valid" or "invalid" comes back; the score, and anything
 * derived from it, never reaches the agent.
 */
import type { Answers, GradableCompetition } from "../core/competition.js";
import { CsvParseError, InvalidSubmissionError } from "../core/errors.js";
import { parseCsv } from "../io/csv-read.js";

/** Upstream's wording, kept verbatim because agents' prompts and parsers expect it. */
export const VALID_MESSAGE = "Submission is valid.";
/** Upstream's prefix of an invalid verdict; the grader's reason follows it. */
export const INVALID_PREFIX =
  "Submission invalid! The attempt to grade the submission has resulted in the following error message:\n";

/** A validation's outcome. */
export type Verdict = { valid: true } | { valid: false; reason: string };

/** Whether a submission passes the grader; the reason is the grader's message, never a score. */
export function judgeSubmission(competition: GradableCompetition, answers: Answers, bytes: Uint8Array): Verdict {
  let table;
  try {
    // A fixed neutral name: error messages must not reveal host paths or echo the upload's name.
    table = parseCsv(bytes, { file: "submission.csv" });
  } catch (e) {
    const msg = e instanceof CsvParseError ? e.message : `could not read it (${errorText(e)})`;
    return { valid: false, reason: `Submission is not a readable CSV: ${msg}` };
  }
  try {
    competition.grade(table, answers);
    return { valid: true };
  } catch (e) {
    if (e instanceof InvalidSubmissionError) return { valid: false, reason: e.message };
    return { valid: false, reason: `Submission could not be scored: ${errorText(e)}` };
  }
}

/** The text the agent receives for a verdict. */
export function verdictText(v: Verdict): string {
  return v.valid ? VALID_MESSAGE : INVALID_PREFIX + v.reason;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
