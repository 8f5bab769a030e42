import { UserError } from "../core/errors.js";
import type { CompetitionReport } from "../grading/report.js";

/** A report that stands for a missing run when seeds are padded: nothing submitted, nothing won. */
export function missingReport(competitionId: string): CompetitionReport {
  return {
    competition_id: competitionId,
    score: null,
    gold_threshold: null,
    silver_threshold: null,
    bronze_threshold: null,
    median_threshold: null,
    any_medal: false,
    gold_medal: false,
    silver_medal: false,
    bronze_medal: false,
    above_median: false,
    submission_exists: false,
    valid_submission: false,
    is_lower_better: false,
    created_at: "",
    submission_path: "",
    invalid_reason: "no run for this seed (padded as a failure)",
    score_text: null,
  };
}

/**
 * Group reports into seeds as upstream's aggregation does: the i-th report of each competition
 * (in input order) belongs to seed i. Without padding, every competition must have a report and
 * the number of seeds is the smallest count; with padding it is the largest, and the gaps count
 * as failures. `numSeeds` caps the count (null: all).
 */
export function buildSeeds(
  reports: CompetitionReport[],
  competitionIds: string[],
  opts: { padMissing: boolean; numSeeds: number | null },
): CompetitionReport[][] {
  if (competitionIds.length === 0) throw new UserError("No competitions to report on.");
  const byId = new Map<string, CompetitionReport[]>(competitionIds.map((id) => [id, []]));
  for (const r of reports) byId.get(r.competition_id)?.push(r);
  const counts = competitionIds.map((id) => byId.get(id)!.length);
  const missing = competitionIds.filter((_id, i) => counts[i] === 0);
  if (missing.length > 0 && !opts.padMissing) {
    throw new UserError(
      `No reports for ${missing.length} competition(s): ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""}; ` +
        "report on a --split that matches the runs, or pass --pad-missing to count them as failures.",
    );
  }
  const available = opts.padMissing ? Math.max(...counts) : Math.min(...counts);
  if (available === 0) throw new UserError("No reports to form a seed from.");
  const n = opts.numSeeds === null ? available : Math.min(opts.numSeeds, available);
  const seeds: CompetitionReport[][] = [];
  for (let i = 0; i < n; i++) seeds.push(competitionIds.map((id) => byId.get(id)![i] ?? missingReport(id)));
  return seeds;
}
