import fs from "node:fs";
import path from "node:path";
import type { Answers, Competition, GradableCompetition } from "../core/competition.js";
import { CsvParseError, InvalidSubmissionError, UserError } from "../core/errors.js";
import { competitionPaths, gradingPaths } from "../core/paths.js";
import { NO_CSV_LIMITS, readCsv } from "../io/csv-read.js";
import { decodeLine, readRawLines } from "../io/lines.js";
import { numericInOrder } from "./columns.js";
import { rankScore } from "./leaderboard.js";
import { type CompetitionReport, jsonNumber, nonFiniteText, pythonIsoNow } from "./report.js";
import { pyRound } from "../pycompat/round.js";

/** What grading needs from the data dir: parsed answers and the leaderboard's scores. */
export interface GradingInputs {
  answers: Answers;
  leaderboard: Float64Array;
}

/**
 * Load the answers and leaderboard, or throw a UserError that says how to fix a data dir
 * that lacks them (these are setup problems, not bad submissions).
 */
export function loadGradingInputs(competition: Competition, dataDir: string): GradingInputs {
  const paths = gradingPaths(competition, dataDir);
  if (!fs.existsSync(paths.answers)) {
    throw new UserError(
      `Answers for "${competition.id}" not found at ${paths.answers}. ` +
        `Prepare the competition first (mlebench prepare -c ${competition.id} --data-dir ${dataDir}), ` +
        `or point --data-dir / MLEBENCH_DATA_DIR at a data dir where it is prepared.`,
    );
  }
  if (!fs.existsSync(paths.leaderboard)) {
    throw new UserError(
      `Leaderboard for "${competition.id}" not found at ${paths.leaderboard}. ` +
        `It is written when the competition is prepared (mlebench prepare -c ${competition.id}); ` +
        `a leaderboard.csv with a "score" column, best row first, also works.`,
    );
  }
  return { answers: loadAnswers(paths.answers, competition.answersFields), leaderboard: loadLeaderboard(paths.leaderboard) };
}

/**
 * Parse an answers file: CSV into a table, JSONL into one value per line. For JSONL, `fields`
 * (the competition's answersFields) keeps only those keys of each object, so answers of many
 * gigabytes load in the memory their graded fields need.
 */
export function loadAnswers(file: string, fields?: readonly string[]): Answers {
  try {
    if (file.toLowerCase().endsWith(".jsonl")) return readJsonl(file, fields);
    // Answers are prepared, not uploaded: the reader's guards against hostile shapes are for submissions.
    return readCsv(file, { file, ...NO_CSV_LIMITS });
  } catch (e) {
    throw new UserError(`Cannot read answers file ${file}: ${(e as Error).message}`);
  }
}

/**
 * Parse a JSON-lines file line by line, skipping blank lines and lines commented out with # or
 * //; with `fields`, objects keep only those keys.
 */
export function readJsonl(file: string, fields?: readonly string[]): unknown[] {
  const out: unknown[] = [];
  let lineNo = 0;
  for (const { bytes } of readRawLines(file)) {
    lineNo++;
    const line = decodeLine(bytes, file, lineNo).trim();
    if (!line || line.startsWith("#") || line.startsWith("//")) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new Error(`${file}, line ${lineNo}: not valid JSON (${(e as Error).message})`);
    }
    out.push(fields && isPlainObject(value) ? pick(value, fields) : value);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function pick(obj: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(obj, f)) out[f] = obj[f];
  return out;
}

/** The `score` column of a leaderboard CSV, best row first. */
export function loadLeaderboard(file: string): Float64Array {
  let table;
  try {
    table = readCsv(file, { file });
  } catch (e) {
    throw new UserError(`Cannot read leaderboard ${file}: ${(e as Error).message}`);
  }
  const col = table.data.get("score");
  if (!col) {
    throw new UserError(`Leaderboard ${file} has no "score" column (columns: ${table.columns.join(", ")}).`);
  }
  if (table.rowCount === 0) throw new UserError(`Leaderboard ${file} has no rows.`);
  try {
    return numericInOrder(col, null, "score");
  } catch (e) {
    throw new UserError(`Leaderboard ${file}: ${(e as Error).message}`);
  }
}

/** Whether upstream would look at this path at all: an existing file with a .csv suffix. */
export function submissionExists(file: string): boolean {
  try {
    return fs.statSync(file).isFile() && path.extname(file).toLowerCase() === ".csv";
  } catch {
    return false;
  }
}

/** Outcome of running a grader: a rounded score, or the reason it could not be graded. */
export type GradeOutcome = { score: number; reason: null } | { score: null; reason: string };

/**
 * Read and grade a submission file. Every failure (unreadable file, bad CSV, a grader that
 * rejects it, or any other error while grading) becomes a reason, never an exception, because
 * upstream counts all of them as invalid submissions.
 */
export function scoreSubmission(competition: GradableCompetition, file: string, answers: Answers): GradeOutcome {
  if (!submissionExists(file)) {
    let reason = `Submission file ${file} does not exist.`;
    if (fs.existsSync(file)) {
      reason = fs.statSync(file).isFile()
        ? `Submission file ${file} must be a CSV file with a .csv suffix.`
        : `Submission path ${file} is not a regular file.`;
    }
    return { score: null, reason };
  }
  let submission;
  try {
    submission = readCsv(file, { file });
  } catch (e) {
    const msg = e instanceof CsvParseError ? e.message : `could not read it (${(e as Error).message})`;
    return { score: null, reason: `Submission is not a readable CSV: ${msg}` };
  }
  try {
    const raw = competition.grade(submission, answers);
    return { score: pyRound(raw, 5), reason: null };
  } catch (e) {
    if (e instanceof InvalidSubmissionError) return { score: null, reason: e.message };
    return { score: null, reason: `Submission could not be scored: ${(e as Error).message}` };
  }
}

/** Grade one submission into a full report (thresholds, medals, validity and reason). */
export function gradeToReport(
  competition: GradableCompetition,
  file: string,
  inputs: GradingInputs,
): CompetitionReport {
  const outcome = scoreSubmission(competition, file, inputs.answers);
  const rank = rankScore(outcome.score, inputs.leaderboard);
  const anyMedal = rank.goldMedal || rank.silverMedal || rank.bronzeMedal;
  return {
    competition_id: competition.id,
    score: jsonNumber(outcome.score),
    gold_threshold: jsonNumber(rank.thresholds.gold),
    silver_threshold: jsonNumber(rank.thresholds.silver),
    bronze_threshold: jsonNumber(rank.thresholds.bronze),
    median_threshold: jsonNumber(rank.thresholds.median),
    any_medal: anyMedal,
    gold_medal: rank.goldMedal,
    silver_medal: rank.silverMedal,
    bronze_medal: rank.bronzeMedal,
    above_median: rank.aboveMedian,
    submission_exists: submissionExists(file),
    valid_submission: outcome.score !== null,
    is_lower_better: rank.isLowerBetter,
    created_at: pythonIsoNow(),
    submission_path: file,
    invalid_reason: outcome.reason,
    score_text: nonFiniteText(outcome.score),
  };
}

/** Grade a submission for a competition whose data is prepared in `dataDir`. */
export function gradeSubmission(competition: GradableCompetition, file: string, dataDir: string): CompetitionReport {
  return gradeToReport(competition, file, loadGradingInputs(competition, dataDir));
}
