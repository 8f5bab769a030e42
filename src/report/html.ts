import { integrityRows } from "./markdown.js";
import { METRICS, SPLIT_GROUPS } from "./aggregate.js";
import type { ReportData } from "./build.js";
import type { CompetitionRow } from "./aggregate.js";
import { urlSafe } from "../results/url-id.js";
import { COST_HEADER, costNotes, costRows, probingLines, transparencyNotes, transparencyTable, usd } from "./transparency-table.js";
import { METRIC_TITLES, SPLIT_TITLES, duration, pm, scoreText, threshold } from "../present/format.js";
import { barChart, lineChart, stripChart } from "../present/svg.js";

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A table whose columns sort on a click; `sort` holds the raw value of each cell for sorting. */
/** A cell's text, or markup this module made itself (never data's). */
type Cell = string | { html: string };

function table(id: string, header: string[], rows: { cells: Cell[]; sort?: (string | number)[] }[]): string {
  const head = header.map((h) => `<th scope="col">${esc(h)}</th>`).join("");
  const body = rows
    .map(
      (r) =>
        `<tr>${r.cells.map((c, i) => `<td${r.sort?.[i] !== undefined ? ` data-sort="${esc(String(r.sort[i]))}"` : ""}>${typeof c === "string" ? esc(c) : c.html}</td>`).join("")}</tr>`,
    )
    .join("\n");
  return `<table id="${esc(id)}" class="sortable"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1b1b1b;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ddd;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
th{background:#f5f5f5;cursor:pointer;user-select:none}th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
.warn{background:#fff4e0;border-left:4px solid #f0a020;padding:6px 10px;margin:6px 0}
.charts{display:flex;flex-wrap:wrap;gap:16px}svg.chart{max-width:100%;height:auto;border:1px solid #eee}
.note{color:#555;font-size:13px}.scroll{overflow-x:auto}#table-transparency td,#table-transparency th{text-align:left}
@media print{th{cursor:auto}.charts{display:block}svg.chart{page-break-inside:avoid;border:none}body{margin:0}}
`;

// Sorting runs in the page itself: the file must work offline, opened from disk.
const SCRIPT = `
document.querySelectorAll("table.sortable").forEach(function(t){
  t.querySelectorAll("th").forEach(function(th,i){
    th.addEventListener("click",function(){
      var asc=th.getAttribute("aria-sort")!=="ascending";
      t.querySelectorAll("th").forEach(function(o){o.removeAttribute("aria-sort")});
      th.setAttribute("aria-sort",asc?"ascending":"descending");
      var rows=Array.prototype.slice.call(t.tBodies[0].rows);
      var key=function(r){var c=r.cells[i];var v=c.hasAttribute("data-sort")?c.getAttribute("data-sort"):c.textContent;var n=parseFloat(v);return isNaN(n)?v:n};
      rows.sort(function(a,b){var x=key(a),y=key(b);var d=(typeof x==="number"&&typeof y==="number")?x-y:String(x).localeCompare(String(y));return asc?d:-d});
      rows.forEach(function(r){t.tBodies[0].appendChild(r)});
    });
  });
});
`;

/** Options of {@link renderHtml}. */
export interface HtmlOptions {
  /** The address of a running `mlebench view` over the same groups: each run links into it. */
  viewerUrl?: string;
}

/** The run of a row: a link into the viewer when one is given, else its id. */
function runCell(r: CompetitionRow, viewerUrl: string | undefined): Cell {
  if (!r.run) return "-";
  if (!viewerUrl) return r.run.run_id;
  const href = `${viewerUrl.replace(/#.*$/, "")}#/g/${encodeURIComponent(urlSafe(r.run.group))}/r/${encodeURIComponent(r.run.run_id)}`;
  return { html: `<a href="${esc(href)}">${esc(r.run.run_id)}</a>` };
}

/** The report as one self-contained HTML page: charts as inline SVG, sortable tables, no network. */
export function renderHtml(data: ReportData, opts: HtmlOptions = {}): string {
  const agents = data.agents.map((a) => a.agent);
  const parts: string[] = [];
  parts.push(`<h1>MLE-bench report</h1>`);
  parts.push(
    `<p class="note">${data.options.competitions.length} competitions${data.options.split ? ` (split ${esc(data.options.split)})` : ""}; ` +
      `${data.agents.map((a) => `${esc(a.agent)}: ${a.num_seeds} seed(s)`).join("; ")}. Percentages are mean ± SEM over seeds (ddof=1; 0 for one seed). Created ${esc(data.created_at)}.</p>`,
  );
  for (const w of data.warnings) parts.push(`<div class="warn">${esc(w)}</div>`);

  const splits = SPLIT_GROUPS.filter((s) => data.agents.some((a) => a.splits[s] !== null));
  const charts: string[] = [
    barChart({
      id: "chart-medals",
      title: "Any medal (%) by split",
      yLabel: "any medal (%)",
      categories: splits.map((s) => SPLIT_TITLES[s]),
      series: data.agents.map((a) => ({
        name: a.agent,
        values: splits.map((s) => {
          const e = a.splits[s]?.metrics.any_medal;
          return e ? { value: e.mean, err: e.sem } : null;
        }),
      })),
    }),
  ];
  const maxK = Math.max(0, ...data.agents.map((a) => a.pass_at_k.length));
  if (maxK > 0) {
    charts.push(
      lineChart({
        id: "chart-passk",
        title: "pass@k (any medal, %)",
        xLabel: "k (attempts per competition)",
        yLabel: "pass@k (%)",
        xTicks: Array.from({ length: maxK }, (_, i) => ({ x: i + 1, label: String(i + 1) })),
        series: data.agents.map((a) => ({ name: a.agent, points: a.pass_at_k.map((p) => ({ x: p.k, y: p.any_medal })) })),
      }),
    );
  }
  const timed = data.agents.filter((a) => a.time_curve !== null);
  if (timed.length > 0) {
    charts.push(
      lineChart({
        id: "chart-time",
        title: "Any medal (%) over the time limit",
        xLabel: "elapsed (fraction of the time limit, in 24ths)",
        yLabel: "any medal (%)",
        xTicks: [6, 12, 18, 24].map((i) => ({ x: i / 24, label: `${i}/24` })),
        series: timed.map((a) => ({ name: a.agent, points: a.time_curve!.map((p) => ({ x: p.fraction, y: p.any_medal.mean, err: p.any_medal.sem })) })),
      }),
    );
  }
  parts.push(`<div class="charts">${charts.join("\n")}</div>`);

  for (const split of splits) {
    const present = data.agents.filter((a) => a.splits[split] !== null);
    parts.push(`<h2>${SPLIT_TITLES[split]} (${present[0].splits[split]!.competitions} competitions)</h2>`);
    parts.push(
      table(
        `table-split-${split}`,
        ["Agent", ...METRICS.map(([m]) => METRIC_TITLES[m])],
        present.map((a) => ({
          cells: [a.agent, ...METRICS.map(([m]) => pm(a.splits[split]!.metrics[m]))],
          sort: [a.agent, ...METRICS.map(([m]) => a.splits[split]!.metrics[m].mean)],
        })),
      ),
    );
  }
  if (maxK > 0) {
    const ks = Array.from({ length: maxK }, (_, i) => i + 1);
    parts.push(`<h2>pass@k (any medal, %)</h2>`);
    parts.push(table("table-passk", ["Agent", ...ks.map((k) => `k=${k}`)], data.agents.map((a) => ({ cells: [a.agent, ...ks.map((k) => a.pass_at_k[k - 1]?.any_medal.toFixed(1) ?? "-")] }))));
  }
  parts.push(`<h2>Effort</h2>`);
  parts.push(
    table(
      "table-effort",
      ["Agent", "Runs", "Wall time (total)", "Wall time (mean)", "Medals", "Wall time per medal", "Tokens", "Cost (USD)"],
      data.agents.map((a) => ({
        cells: [a.agent, String(a.effort.runs), duration(a.effort.wall_seconds_total), duration(a.effort.wall_seconds_mean), String(a.effort.medals),
          duration(a.effort.wall_seconds_per_medal), a.effort.tokens === null ? "-" : String(a.effort.tokens), a.effort.cost_usd === null ? "-" : usd(a.effort.cost_usd)],
        sort: [a.agent, a.effort.runs, a.effort.wall_seconds_total ?? -1, a.effort.wall_seconds_mean ?? -1, a.effort.medals, a.effort.wall_seconds_per_medal ?? -1, a.effort.tokens ?? -1, a.effort.cost_usd ?? -1],
      })),
    ),
  );

  parts.push(`<h2>Transparency</h2>`);
  const facts = transparencyTable(data);
  // Many agents or long hardware names: the table scrolls on its own rather than widening the page.
  parts.push(`<div class="scroll">${table("table-transparency", facts.header, facts.rows)}</div>`);
  for (const line of [...transparencyNotes(), ...probingLines(data)]) parts.push(`<p class="note">${esc(line)}</p>`);
  parts.push(`<h2>Cost-normalised results</h2>`);
  parts.push(`<div class="scroll">${table("table-cost", COST_HEADER, costRows(data))}</div>`);
  for (const line of costNotes(data)) parts.push(`<p class="note">${esc(line)}</p>`);

  const integrity = integrityRows(data);
  if (integrity.length > 0) {
    parts.push(`<h2>Integrity</h2>`);
    parts.push(
      table(
        "table-integrity",
        ["Agent", "Check", "Flagged", "Checked", "Flagged (%)", "Disqualified"],
        integrity.map((cells) => ({ cells, sort: cells })),
      ),
    );
  }

  const ids = data.options.competitions;
  parts.push(`<h2>Scores against thresholds</h2>`);
  parts.push(
    stripChart({
      id: "chart-strip",
      title: "Scores against each competition's thresholds",
      agents,
      rows: ids.map((id) => {
        const rows = data.agents.flatMap((a) => a.per_competition.filter((r) => r.competition_id === id));
        const t = rows.find((r) => r.gold_threshold !== null) ?? rows[0];
        return {
          competition: id,
          lowerIsBetter: t?.is_lower_better ?? false,
          thresholds: [
            { name: "median", value: t?.median_threshold ?? null },
            { name: "bronze", value: t?.bronze_threshold ?? null },
            { name: "silver", value: t?.silver_threshold ?? null },
            { name: "gold", value: t?.gold_threshold ?? null },
          ],
          scores: data.agents.flatMap((a, ai) =>
            a.per_competition.filter((r) => r.competition_id === id && r.score !== null && Number.isFinite(r.score)).map((r) => ({ agent: ai, value: r.score as number })),
          ),
        };
      }),
    }),
  );
  for (const a of data.agents) {
    parts.push(`<h2>Per competition: ${esc(a.agent)}</h2>`);
    parts.push(
      table(
        `table-competitions-${a.agent}`,
        ["Competition", "Seed", "Run", "Score", "Gold", "Silver", "Bronze", "Median", "Medal", "Valid", "Note"],
        a.per_competition.map((r) => ({
          cells: [r.competition_id, String(r.seed), runCell(r, opts.viewerUrl), scoreText(r.score, r.score_text), threshold(r.gold_threshold), threshold(r.silver_threshold),
            threshold(r.bronze_threshold), threshold(r.median_threshold), r.medal ?? "-", r.valid_submission ? "yes" : "no",
            [r.invalid_reason, r.disqualified_reason ? `disqualified: ${r.disqualified_reason}` : null, r.known_issue ? `known issue: ${r.known_issue}` : null].filter(Boolean).join("; ")],
          sort: [r.competition_id, r.seed, r.run?.run_id ?? "", r.score ?? Number.NEGATIVE_INFINITY],
        })),
      ),
    );
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>MLE-bench report</title><style>${STYLE}</style></head>
<body>
${parts.join("\n")}
<script type="application/json" id="report-data">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
