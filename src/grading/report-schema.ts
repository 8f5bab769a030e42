// The report formats as zod schemas, for code that reads reports back. Kept apart from report.ts
// so that grading, which only writes them, does not load zod (about 90 ms and 14 MB at start-up).
import { z } from "zod";

/**
 * One competition's grading report: upstream MLE-bench's CompetitionReport keys, in its order,
 * plus our own keys (upstream readers ignore them):
 * - `invalid_reason`: why the submission could not be graded (null when it was);
 * - `score_text`: "NaN", "Infinity" or "-Infinity" when the grader produced a non-finite score,
 *   which JSON cannot carry (`score` is then null while `valid_submission` stays true).
 */
export const competitionReportSchema = z.object({
  competition_id: z.string(),
  score: z.number().nullable(),
  gold_threshold: z.number().nullable(),
  silver_threshold: z.number().nullable(),
  bronze_threshold: z.number().nullable(),
  median_threshold: z.number().nullable(),
  any_medal: z.boolean(),
  gold_medal: z.boolean(),
  silver_medal: z.boolean(),
  bronze_medal: z.boolean(),
  above_median: z.boolean(),
  submission_exists: z.boolean(),
  valid_submission: z.boolean(),
  is_lower_better: z.boolean(),
  created_at: z.string(),
  submission_path: z.string(),
  invalid_reason: z.string().nullable(),
  score_text: z.string().nullable().optional(),
  /** Why an integrity check took the medals away (`mlebench integrity ... --disqualify`), when one did. */
  disqualified_reason: z.string().nullable().optional(),
});

export type CompetitionReport = z.infer<typeof competitionReportSchema>;

/** Summary of many reports, with upstream's `grade` keys. */
export const gradingSummarySchema = z.object({
  total_runs: z.number().int(),
  total_runs_with_submissions: z.number().int(),
  total_valid_submissions: z.number().int(),
  total_medals: z.number().int(),
  total_gold_medals: z.number().int(),
  total_silver_medals: z.number().int(),
  total_bronze_medals: z.number().int(),
  total_above_median: z.number().int(),
  competition_reports: z.array(competitionReportSchema),
});

export type GradingSummary = z.infer<typeof gradingSummarySchema>;

