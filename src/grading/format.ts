import type { CompetitionReport } from "./report.js";

/**
 * A report as a few aligned lines for people; scripts should use --json. With
 * `referencePopulation`, the medal lines say the leaderboard is a population of standard
 * pipelines (the offline benchmark's), not human teams.
 */
export function formatReport(r: CompetitionReport, opts: { referencePopulation?: boolean } = {}): string {
  const cmp = r.is_lower_better ? "≤" : "≥";
  const num = (x: number | null) => (x === null ? "n/a" : String(x));
  const medal = r.gold_medal ? "gold" : r.silver_medal ? "silver" : r.bronze_medal ? "bronze" : "none";
  const score = r.score !== null ? String(r.score) : (r.score_text ?? "none");
  const rows: [string, string][] = [
    ["competition", r.competition_id],
    ["submission", r.submission_path + (r.submission_exists ? "" : " (not found or not a .csv file)")],
    ["valid", r.valid_submission ? "yes" : `no: ${r.invalid_reason ?? "unknown reason"}`],
    ["score", score + (r.valid_submission ? (r.is_lower_better ? "  (lower is better)" : "  (higher is better)") : "")],
    ["medal", medal + (r.above_median ? "  (above median)" : "")],
    [
      "thresholds",
      `gold ${cmp} ${num(r.gold_threshold)}, silver ${cmp} ${num(r.silver_threshold)}, ` +
        `bronze ${cmp} ${num(r.bronze_threshold)}, median ${num(r.median_threshold)}`,
    ],
  ];
  if (opts.referencePopulation) {
    rows.push(["leaderboard", "a reference population of standard pipelines, not human teams"]);
  }
  return rows.map(([k, v]) => `${k.padEnd(12)} ${v}`).join("\n") + "\n";
}
