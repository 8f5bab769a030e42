import { METRICS, SPLIT_GROUPS } from "./aggregate.js";
import type { ReportData } from "./build.js";
import { COST_HEADER, costNotes, costRows, probingLines, transparencyNotes, transparencyTable, usd } from "./transparency-table.js";
import { METRIC_TITLES, SPLIT_TITLES, duration, pm, scoreText, threshold } from "../present/format.js";

function table(header: string[], rows: string[][]): string[] {
  const esc = (c: string) => c.replace(/\|/g, "\\|").replace(/\n/g, " ");
  return [
    `| ${header.map(esc).join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
    "",
  ];
}

/** One row per agent and integrity check (agents with only disqualifications get one row). */
export function integrityRows(data: ReportData): string[][] {
  return data.agents.flatMap((a) => {
    const checks = a.integrity.checks.map((c) => [a.agent, c.check, String(c.flagged), String(c.checked), ((c.flagged / c.checked) * 100).toFixed(1), String(a.integrity.disqualified)]);
    return checks.length === 0 && a.integrity.disqualified > 0 ? [[a.agent, "-", "-", "-", "-", String(a.integrity.disqualified)]] : checks;
  });
}

/** The report as Markdown: the paper's tables, pass@k, the time curve, per-competition results. */
export function renderMarkdown(data: ReportData): string {
  const out: string[] = ["# MLE-bench report", ""];
  const seeds = data.agents.map((a) => `${a.agent}: ${a.num_seeds} seed(s)`).join("; ");
  out.push(`${data.options.competitions.length} competitions${data.options.split ? ` (split ${data.options.split})` : ""}; ${seeds}.`);
  out.push("Percentages are mean ± standard error over seeds (SEM with ddof=1; 0 for one seed).", "");
  for (const w of data.warnings) out.push(`> warning: ${w}`, "");

  for (const split of SPLIT_GROUPS) {
    const present = data.agents.filter((a) => a.splits[split] !== null);
    if (present.length === 0) continue;
    out.push(`## ${SPLIT_TITLES[split]} (${present[0].splits[split]!.competitions} competitions)`, "");
    out.push(...table(["Agent", ...METRICS.map(([m]) => METRIC_TITLES[m])], present.map((a) => [a.agent, ...METRICS.map(([m]) => pm(a.splits[split]!.metrics[m]))])));
  }

  const maxK = Math.max(0, ...data.agents.map((a) => a.pass_at_k.length));
  if (maxK > 0) {
    out.push("## pass@k (any medal, %)", "");
    const ks = Array.from({ length: maxK }, (_, i) => i + 1);
    out.push(...table(["Agent", ...ks.map((k) => `k=${k}`)], data.agents.map((a) => [a.agent, ...ks.map((k) => a.pass_at_k[k - 1]?.any_medal.toFixed(1) ?? "-")])));
  }

  const timed = data.agents.filter((a) => a.time_curve !== null);
  if (timed.length > 0) {
    out.push("## Any medal over time (%)", "", "Each run counted with its latest snapshot at that point of its time limit.", "");
    const idx = [5, 11, 17, 23];
    out.push(...table(["Agent", ...idx.map((i) => `${i + 1}/24 of the limit`)], timed.map((a) => [a.agent, ...idx.map((i) => pm(a.time_curve![i].any_medal))])));
  }

  out.push("## Effort", "");
  out.push(...table(
    ["Agent", "Runs", "Wall time (total)", "Wall time (mean)", "Medals", "Wall time per medal", "Tokens", "Cost (USD)"],
    data.agents.map((a) => [
      a.agent, String(a.effort.runs), duration(a.effort.wall_seconds_total), duration(a.effort.wall_seconds_mean), String(a.effort.medals),
      duration(a.effort.wall_seconds_per_medal), a.effort.tokens === null ? "-" : String(a.effort.tokens), a.effort.cost_usd === null ? "-" : usd(a.effort.cost_usd),
    ]),
  ));

  out.push("## Transparency", "");
  const facts = transparencyTable(data);
  out.push(...table(facts.header, facts.rows.map((r) => r.cells)));
  for (const line of [...transparencyNotes(), ...probingLines(data)]) out.push(line, "");

  out.push("## Cost-normalised results", "");
  out.push(...table(COST_HEADER, costRows(data).map((r) => r.cells)));
  for (const line of costNotes(data)) out.push(line, "");

  const rows = integrityRows(data);
  if (rows.length > 0) {
    out.push("## Integrity", "", "Runs flagged by each check over the runs it checked; disqualified runs keep their score but lose their medal.", "");
    out.push(...table(["Agent", "Check", "Flagged", "Checked", "Flagged (%)", "Disqualified"], rows));
  }

  for (const a of data.agents) {
    out.push(`## Per competition: ${a.agent}`, "");
    out.push(...table(
      ["Competition", "Seed", "Score", "Gold", "Silver", "Bronze", "Median", "Medal", "Valid", "Note"],
      a.per_competition.map((r) => [
        r.competition_id, String(r.seed), scoreText(r.score, r.score_text), threshold(r.gold_threshold), threshold(r.silver_threshold),
        threshold(r.bronze_threshold), threshold(r.median_threshold), r.medal ?? "-", r.valid_submission ? "yes" : "no",
        [r.invalid_reason, r.disqualified_reason ? `disqualified: ${r.disqualified_reason}` : null, r.known_issue ? `known issue: ${r.known_issue}` : null].filter(Boolean).join("; "),
      ]),
    ));
  }
  return out.join("\n");
}
