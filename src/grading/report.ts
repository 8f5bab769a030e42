import type { CompetitionReport, GradingSummary } from "./report-schema.js";

export type { CompetitionReport, GradingSummary } from "./report-schema.js";

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
