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

/** Count submissions, valid ones and medals over reports, exactly as upstream aggregates them. */
export function summarize(reports: CompetitionReport[]): GradingSummary {
  const count = (pick: (r: CompetitionReport) => boolean) => reports.filter(pick).length;
  const gold = count((r) => r.gold_medal);
  const silver = count((r) => r.silver_medal);
  const bronze = count((r) => r.bronze_medal);
  return {
    total_runs: reports.length,
    total_runs_with_submissions: count((r) => r.submission_exists),
    total_valid_submissions: count((r) => r.valid_submission),
    total_medals: gold + silver + bronze,
    total_gold_medals: gold,
    total_silver_medals: silver,
    total_bronze_medals: bronze,
    total_above_median: count((r) => r.above_median),
    competition_reports: reports,
  };
}

/** A JSON number for a float, or null where JSON has none (NaN, ±Infinity). */
export function jsonNumber(x: number | null): number | null {
  return x !== null && Number.isFinite(x) ? x : null;
}

/** Python's text for a non-finite float as JSON writers use it, or null for finite ones. */
export function nonFiniteText(x: number | null): string | null {
  if (x === null || Number.isFinite(x)) return null;
  if (Number.isNaN(x)) return "NaN";
  return x > 0 ? "Infinity" : "-Infinity";
}

/** Local time as Python's `datetime.now().isoformat()` writes it (microseconds, no offset). */
export function pythonIsoNow(now = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const date = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
  const time = `${p(now.getHours())}:${p(now.getMinutes())}:${p(now.getSeconds())}`;
  const ms = now.getMilliseconds();
  return ms === 0 ? `${date}T${time}` : `${date}T${time}.${p(ms * 1000, 6)}`;
}

/** UTC timestamp for report file names, as upstream: 2024-01-31T12-00-00-UTC. */
export function fileTimestamp(now = new Date()): string {
  return now.toISOString().slice(0, 19).replace(/:/g, "-") + "-UTC";
}
