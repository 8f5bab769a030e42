/** The transparency and cost-normalised tables as cells and notes, shared by the Markdown and HTML reports. */
import { NEAR_IDENTICAL_LINE_FRACTION, NEAR_IDENTICAL_MIN_LINES, PROBING_MIN_NEAR_IDENTICAL } from "../integrity/probing.js";
import { duration, pm } from "../present/format.js";
import type { ReportData } from "./build.js";
import type { Ratio } from "./cost.js";
import type { HardwareConfig, Transparency } from "./transparency.js";

/** What a cell says when the runs have no manifest to say it from. */
export const NOT_RECORDED = "not recorded";

/** A table row: the text of each cell, and a raw value per cell for sorting. */
export interface Row {
  cells: string[];
  sort: (string | number)[];
}

/** The facts of the transparency table, one row each. */
export const TRANSPARENCY_FIELDS = [
  "Runs recorded", "Hardware", "Time limit", "Wall time (total)", "Wall time (mean)", "Models", "LLM calls", "Tokens in",
  "Tokens out", "LLM cost (USD)", "Network (allowed hosts)", "Blocked attempts", "Validation calls per run (mean)",
  "Validation calls per run (max)", "Flagged as probing",
];

/** The columns of the cost-normalised table. */
export const COST_HEADER = [
  "Agent", "Runs", "Any medals", "Run-hours", "Medals per run-hour", "GPU-hours", "Medals per GPU-hour", "LLM cost (USD)",
  "Medals per USD", "Any medal (%) at equal time", "Any medal (%) at equal LLM cost",
];

/** Bytes in GiB, three significant digits. */
function gib(bytes: number): string {
  return `${Number((bytes / 2 ** 30).toPrecision(3))} GiB`;
}

/** Dollars: cents for large sums, four decimals for small ones (a few calls cost fractions of a cent). */
export function usd(x: number): string {
  return x >= 1 ? x.toFixed(2) : x.toFixed(4);
}

/** "AMD EPYC 7763, 8 CPUs, 64 GiB memory, 1× NVIDIA H200 (141 GiB)". */
export function hardwareText(h: HardwareConfig): string {
  const gpus = new Map<string, number>();
  for (const g of h.gpus) {
    const name = `${g.model ?? "unknown GPU"}${g.memory_bytes !== null ? ` (${gib(g.memory_bytes)})` : ""}`;
    gpus.set(name, (gpus.get(name) ?? 0) + 1);
  }
  const gpuText = gpus.size === 0 ? "no GPU" : [...gpus].map(([name, n]) => `${n}× ${name}`).join(", ");
  const memory = h.memory_limit_bytes === null ? "no memory limit" : `${gib(h.memory_limit_bytes)} memory`;
  return `${h.cpu_model ?? "unknown CPU"}, ${h.cpus_given} CPUs, ${memory}, ${gpuText}`;
}

function count(n: number | null): string {
  return n === null ? NOT_RECORDED : String(n);
}

function costText(t: Transparency): string {
  if (t.recorded_runs === 0) return NOT_RECORDED;
  if (t.cost_usd === null) return t.llm_calls === 0 ? "none (no LLM calls)" : "unknown";
  return `${usd(t.cost_usd)}${t.unpriced_calls ? ` (+ ${t.unpriced_calls} unpriced calls)` : ""}`;
}

/** The transparency cells of one agent, in TRANSPARENCY_FIELDS order. */
function transparencyCells(t: Transparency): string[] {
  const none = t.recorded_runs === 0;
  const several = t.hardware.length > 1;
  const hardware = none ? NOT_RECORDED : t.hardware.map((h) => `${hardwareText(h)}${several ? ` (${h.runs} run${h.runs === 1 ? "" : "s"})` : ""}`).join("; ");
  const limits = none ? NOT_RECORDED : t.time_limit_seconds.map((s) => (s === null ? "none" : duration(s))).join(", ");
  const models = none ? NOT_RECORDED : t.models.length === 0 ? "none" : t.models.map((m) => `${m.model} (${m.calls} calls)`).join(", ");
  const network = t.network === null ? NOT_RECORDED : t.network.allowed_hosts.length === 0 ? "none" : t.network.allowed_hosts.join(", ");
  const wallOrNot = (s: number | null) => (s === null ? NOT_RECORDED : duration(s));
  return [
    `${t.recorded_runs} of ${t.runs}`, hardware, limits, wallOrNot(t.wall_seconds_total), wallOrNot(t.wall_seconds_mean), models,
    count(t.llm_calls), count(t.input_tokens), count(t.output_tokens), costText(t), network, count(t.network?.blocked_attempts ?? null),
    t.validation_calls_mean === null ? NOT_RECORDED : t.validation_calls_mean.toFixed(1), count(t.validation_calls_max),
    none ? NOT_RECORDED : `${t.probing.flagged} of ${t.probing.checked}`,
  ];
}

/** The transparency table: one row per fact, one column per agent (facts are too many and too long for columns). */
export function transparencyTable(data: ReportData): { header: string[]; rows: { cells: string[] }[] } {
  const perAgent = data.agents.map((a) => transparencyCells(a.transparency));
  return {
    header: ["", ...data.agents.map((a) => a.agent)],
    rows: TRANSPARENCY_FIELDS.map((field, i) => ({ cells: [field, ...perAgent.map((cells) => cells[i])] })),
  };
}

function ratioText(r: Ratio): string {
  return r.value === null ? r.reason : r.value.toFixed(3);
}

/** One row per agent of the cost-normalised table. */
export function costRows(data: ReportData): Row[] {
  return data.agents.map((a) => {
    const c = a.cost_normalised;
    const hours = (h: number | null) => (h === null ? NOT_RECORDED : h.toFixed(2));
    const eq = c.equal_budget;
    const ec = c.equal_cost;
    const equalCost =
      ec !== null ? `${pm(ec.any_medal)} (at ${usd(ec.budget_usd)} a run)` : data.equal_cost_usd === null && a.transparency.recorded_runs === c.runs ? "n/a" : NOT_RECORDED;
    return {
      cells: [
        a.agent, String(c.runs), String(c.medals), hours(c.run_hours), ratioText(c.medals_per_run_hour), hours(c.gpu_hours),
        ratioText(c.medals_per_gpu_hour), c.cost_usd !== null ? usd(c.cost_usd) : a.transparency.recorded_runs === c.runs ? costText(a.transparency) : NOT_RECORDED,
        ratioText(c.medals_per_usd), eq === null ? NOT_RECORDED : `${pm(eq.any_medal)} (at ${duration(eq.elapsed_seconds)})`, equalCost,
      ],
      sort: [
        a.agent, c.runs, c.medals, c.run_hours ?? -1, c.medals_per_run_hour.value ?? -1, c.gpu_hours ?? -1, c.medals_per_gpu_hour.value ?? -1,
        c.cost_usd ?? -1, c.medals_per_usd.value ?? -1, eq?.any_medal.mean ?? -1, ec?.any_medal.mean ?? -1,
      ],
    };
  });
}

/** What the transparency table is made from, and what flags probing. */
export function transparencyNotes(): string[] {
  return [
    "From each run's manifest.json, written by the harness from its own records; totals are over the runs that have one " +
      `("${NOT_RECORDED}": older run groups and upstream grading reports have none). LLM cost sums the calls with a known price.`,
    `Probing is advisory and never changes a medal: a run is flagged when ${PROBING_MIN_NEAR_IDENTICAL} or more of its validation uploads ` +
      `edit the previous upload by at most max(${NEAR_IDENTICAL_MIN_LINES}, ${NEAR_IDENTICAL_LINE_FRACTION * 100}% of its lines) ` +
      "(re-uploads of the same file do not count).",
  ];
}

/** The runs flagged as probing, one line per agent that has any. */
export function probingLines(data: ReportData): string[] {
  return data.agents
    .filter((a) => a.transparency.probing.flagged > 0)
    .map((a) => `Flagged as probing, ${a.agent}: ${a.transparency.probing.runs.map((r) => `${r.run_id} (${r.near_identical_calls} near-identical uploads of ${r.calls} calls)`).join(", ")}.`);
}

/** How the cost-normalised numbers are defined. */
export function costNotes(data: ReportData): string[] {
  const budget = data.equal_budget_seconds;
  return [
    "Any medals: runs with a medal (a disqualified run has none). Medals per run-hour: over the runs' summed wall-clock hours. " +
      "Medals per GPU-hour: over the summed GPU-hours (wall time × GPUs given); n/a when no GPU was used. Medals per USD: over the " +
      `summed LLM cost of priced calls; n/a when no cost is known. "${NOT_RECORDED}": some run lacks the figure, and a total over the others would flatter the rate.`,
    "Equal time: the any-medal rate (mean ± SEM over seeds) from the time curve at the largest time budget every agent's runs " +
      `reached, the smallest of the agents' time-curve horizons${budget === null ? " (no agent has a time curve here)" : ` (${duration(budget)})`}; ` +
      "each agent is read at its last curve point not past it.",
    "Equal LLM cost: every run is held to the same LLM spend, the smallest of the agents' largest run costs" +
      `${data.equal_cost_usd === null ? " (no agent's runs spent anything priced here, so n/a)" : ` (${usd(data.equal_cost_usd)} a run)`}; ` +
      "a run whose cumulative cost went past it counts with its latest snapshot taken before then (graded now), the others with " +
      "their final report; the any-medal rate is the mean ± SEM over seeds.",
  ];
}
