/** The group evaluation as Markdown and as one self-contained HTML page. */
import { duration, pm } from "../../present/format.js";
import type { Estimate } from "../../present/stats.js";
import { barChart, lineChart } from "../../present/svg.js";
import type { EvalSummary, TaskSummary } from "./records.js";

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A fraction's estimate in percent, as the tables print them. */
function percent(e: Estimate | null): Estimate | undefined {
  return e ? { ...e, mean: e.mean * 100, sem: e.sem * 100, ci_lower: e.ci_lower * 100, ci_upper: e.ci_upper * 100, per_seed: e.per_seed.map((v) => v * 100) } : undefined;
}

const num = (x: number | null): string => (x === null ? "-" : String(Number(x.toPrecision(6))));
const pct = (x: number | null): string => (x === null ? "-" : (x * 100).toFixed(1));

function taskHeader(summary: EvalSummary): string[] {
  return ["Task", "Better", "Improvement of", "Baseline", "Runs", ...summary.thresholds.map((t) => `Success@${t}% (%)`), "Final improvement (%)", "Best improvement (%)", "Final answer (%)", "Tokens", "Cost (USD)", "Wall time", "Errors", "Unscored"];
}

function taskCells(t: TaskSummary, summary: EvalSummary): string[] {
  return [
    t.task,
    t.direction ?? "-",
    t.improvement_of === "error" ? "error (1 − score)" : "score",
    t.baseline === null ? "-" : `${num(t.baseline)} (${t.baseline_source})`,
    String(t.runs),
    ...summary.thresholds.map((th) => pm(percent(t.success[th]))),
    pm(percent(t.improvement)),
    pm(percent(t.best_improvement)),
    (t.final_answer_share * 100).toFixed(1),
    t.mean_tokens === null ? "-" : String(Math.round(t.mean_tokens)),
    t.mean_cost_usd === null ? "-" : t.mean_cost_usd.toFixed(2),
    duration(t.mean_wall_seconds),
    String(t.errors),
    String(t.unscored),
  ];
}

const RUN_HEADER = ["Run", "Task", "Seed", "Status", "Final score", "Best score", "Improvement (%)", "Steps", "Tokens", "Note"];

function runCells(r: EvalSummary["runs"][number]): string[] {
  return [r.run, r.task, r.seed === null ? "-" : String(r.seed), r.status, num(r.final_score), num(r.best_score), pct(r.improvement), String(r.num_steps), r.tokens === null ? "-" : String(r.tokens), r.note ?? ""];
}

/** Steps shown for a curve in text: the first, quarter points and the last. */
function curveSamples(t: TaskSummary): TaskSummary["curve"] {
  const c = t.curve;
  if (c.length <= 5) return c;
  const idx = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * (c.length - 1)));
  return [...new Set(idx)].map((i) => c[i]);
}

function mdTable(header: string[], rows: string[][]): string[] {
  const cell = (c: string) => c.replace(/\|/g, "\\|").replace(/\n/g, " ");
  return [`| ${header.map(cell).join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`), ""];
}

function intro(summary: EvalSummary): string {
  const g = summary.group;
  const who = g ? `Group ${g.id}: agent ${g.agent}${g.model ? `, model ${g.model}` : ""}` : `Group ${summary.group_dir}`;
  return `${who}; ${summary.runs.length} run(s) over ${summary.tasks.length} task(s). A run succeeds at a threshold when its final score improves on the baseline by at least that much; rates are the percentage of runs ± SEM over runs.`;
}

/** The group evaluation as Markdown: the per-task table, the best-score curves in brief, and every run. */
export function renderEvalMarkdown(summary: EvalSummary): string {
  const out = ["# Research task evaluation", "", intro(summary), ""];
  if (summary.group_error) out.push(`> warning: ${summary.group_error}`, "");
  out.push("## Tasks", "", ...mdTable(taskHeader(summary), summary.tasks.map((t) => taskCells(t, summary))));
  out.push("## Best score so far", "", "Mean over runs of the best score reached by the end of each step (± SEM).", "");
  for (const t of summary.tasks) {
    const points = curveSamples(t);
    out.push(`- ${t.task}: ${points.length ? points.map((p) => `step ${p.step}: ${num(p.mean)} ± ${num(p.sem)}`).join("; ") : "no scored step"}`);
  }
  out.push("", "## Runs", "", ...mdTable(RUN_HEADER, summary.runs.map(runCells)));
  return out.join("\n");
}

function htmlTable(id: string, header: string[], rows: string[][]): string {
  const head = header.map((h) => `<th scope="col">${esc(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("\n");
  return `<table id="${esc(id)}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1b1b1b;line-height:1.4}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ddd;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}th{background:#f5f5f5}
.warn{background:#fff4e0;border-left:4px solid #f0a020;padding:6px 10px}.charts{display:flex;flex-wrap:wrap;gap:16px}svg.chart{max-width:100%;height:auto;border:1px solid #eee}`;

function curveChart(t: TaskSummary, i: number): string {
  const last = t.curve[t.curve.length - 1]?.step ?? 0;
  const ticks = [...new Set([0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * last)))].map((x) => ({ x, label: String(x) }));
  return lineChart({
    id: `chart-curve-${i}`,
    title: `${t.task}: best score so far (${t.direction === "lower" ? "lower" : "higher"} is better)`,
    xLabel: "step",
    yLabel: "score",
    xTicks: ticks,
    series: [{ name: t.task, points: t.curve.map((p) => ({ x: p.step, y: p.mean, err: p.sem })) }],
  });
}

/** The group evaluation as one HTML page with inline SVG charts (success@10% per task, best-score curves) and no network. */
export function renderEvalHtml(summary: EvalSummary): string {
  const charts = [
    barChart({
      id: "chart-success-10",
      title: "Success at a 10% improvement (% of runs)",
      yLabel: "success@10% (%)",
      categories: summary.tasks.map((t) => t.task),
      series: [{ name: summary.group?.agent ?? "runs", values: summary.tasks.map((t) => ({ value: t.success["10"].mean * 100, err: t.success["10"].sem * 100 })) }],
    }),
    ...summary.tasks.filter((t) => t.curve.length > 0).map(curveChart),
  ];
  const parts = [`<h1>Research task evaluation</h1>`, `<p>${esc(intro(summary))}</p>`];
  if (summary.group_error) parts.push(`<div class="warn">${esc(summary.group_error)}</div>`);
  parts.push(`<div class="charts">${charts.join("\n")}</div>`);
  parts.push(`<h2>Tasks</h2>`, htmlTable("table-tasks", taskHeader(summary), summary.tasks.map((t) => taskCells(t, summary))));
  parts.push(`<h2>Runs</h2>`, htmlTable("table-runs", RUN_HEADER, summary.runs.map(runCells)));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Research task evaluation</title><style>${STYLE}</style></head>
<body>
${parts.join("\n")}
<script type="application/json" id="eval-data">${JSON.stringify(summary).replace(/</g, "\\u003c")}</script>
</body></html>
`;
}
