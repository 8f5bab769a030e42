import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { Competition } from "../core/competition.js";
import { loadLeaderboard } from "../grading/grade.js";
import { isLowerBetter, rankScore, thresholds, type Ranking } from "../grading/leaderboard.js";
import { estimate, type Estimate } from "../present/stats.js";
import type { DemoReport } from "./demo.js";

/** One measured run: an agent's score on an offline competition with one seed. */
const CalibrationRun = z.object({
  competition_id: z.string(),
  agent: z.string(),
  seed: z.number().int(),
  score: z.number().nullable(),
  valid: z.boolean(),
});

/** One demo run that measured some of the competitions: when, where, how, and which. */
const Measurement = z.object({
  measured_at: z.string(),
  machine: z.string(),
  command: z.string(),
  competitions: z.array(z.string()),
});
export type Measurement = z.infer<typeof Measurement>;

const SCHEMA = "mlebench-offline-calibration/2";

/**
 * The record of how the demo's agents score on the offline benchmark (docs/offline-calibration.json):
 * raw scores only, each competition's from the measurement that lists it. Medals are recomputed
 * from the committed reference populations whenever the table is made, so a population that
 * changes can never leave stale medals behind. A record of the first schema (one measurement
 * for every run) reads as one measurement of the competitions its runs name.
 */
export const Calibration = z.preprocess(
  (raw) => {
    const r = raw as Record<string, unknown> | null;
    if (r === null || typeof r !== "object" || r.schema !== "mlebench-offline-calibration/1" || !Array.isArray(r.runs)) return raw;
    const competitions = [...new Set((r.runs as { competition_id?: unknown }[]).map((x) => String(x.competition_id)))].sort();
    return { schema: SCHEMA, measurements: [{ measured_at: r.measured_at, machine: r.machine, command: r.command, competitions }], runs: r.runs };
  },
  z.object({
    schema: z.literal(SCHEMA),
    measurements: z.array(Measurement),
    runs: z.array(CalibrationRun),
  }),
);
export type Calibration = z.infer<typeof Calibration>;

/** This machine in a few words: CPUs, memory, kernel. */
function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The calibration record of a demo report: every run's score, where and how it was measured.
 * With `previous`, the report replaces only the competitions it ran; the others keep their
 * runs and their measurement, so the benchmark can be calibrated a few competitions at a time.
 */
export function calibrationFromDemo(report: DemoReport, command: string, previous?: Calibration): Calibration {
  const ran = new Set(report.rows.map((r) => r.competition_id));
  const kept = previous?.runs.filter((r) => !ran.has(r.competition_id)) ?? [];
  const fresh = report.rows.map((r) => ({ competition_id: r.competition_id, agent: r.agent, seed: r.seed, score: r.valid ? r.score : null, valid: r.valid }));
  const measurements = (previous?.measurements ?? [])
    .map((m) => ({ ...m, competitions: m.competitions.filter((id) => !ran.has(id)) }))
    .filter((m) => m.competitions.length > 0);
  measurements.push({ measured_at: report.created_at, machine: machine(), command, competitions: [...ran].sort(byId) });
  return {
    schema: SCHEMA,
    measurements,
    runs: [...kept, ...fresh].sort((a, b) => byId(a.competition_id, b.competition_id) || byId(a.agent, b.agent) || a.seed - b.seed),
  };
}

/** What a competition's reference population looks like: its size, best entry and thresholds. */
export interface BoardStats {
  entries: number;
  best: number;
  gold: number;
  bronze: number;
  median: number;
  lowerIsBetter: boolean;
}

/** The scores of the population in an offline competition's folder (leaderboard.csv), best first. */
function population(c: Competition): Float64Array {
  if (!c.offline) throw new Error(`${c.id} is not an offline competition`);
  return loadLeaderboard(path.join(c.offline.assets, "leaderboard.csv"));
}

/** Statistics of a population's scores (best first). */
function boardStats(scores: Float64Array): BoardStats {
  const t = thresholds(scores);
  return { entries: scores.length, best: scores[0], gold: t.gold, bronze: t.bronze, median: t.median, lowerIsBetter: isLowerBetter(scores) };
}

/** Whether a ranking is a gold, silver or bronze medal. */
const medalled = (k: Ranking) => k.goldMedal || k.silverMedal || k.bronzeMedal;

/** An agent's runs on one competition, ranked against the committed population. */
export interface AgentResult {
  scores: (number | null)[];
  mean: number | null;
  medals: number;
  aboveMedian: number;
}

/** One competition's row of the calibration table. */
export interface CalibrationRow {
  competition: Competition;
  board: BoardStats;
  agents: Record<string, AgentResult | null>;
}

/** The whole table: a row per competition and, per agent, the split's any-medal and above-median rates over seeds (%). */
export interface CalibrationSummary {
  rows: CalibrationRow[];
  /** `partial`: measured competitions that lack a run for some of the seeds (those count as no medal). */
  rates: Record<string, { anyMedal: Estimate; aboveMedian: Estimate; seeds: number; competitions: number; partial: number } | null>;
}

/** Rank every calibrated run against its competition's population and total the rates per agent. */
export function summarizeCalibration(cal: Calibration, competitions: Competition[], agents: readonly string[]): CalibrationSummary {
  const boards = new Map(competitions.map((c) => [c.id, population(c)]));
  const rows = competitions.map((c) => {
    const board = boards.get(c.id)!;
    const result = (agent: string): AgentResult | null => {
      const runs = cal.runs.filter((r) => r.competition_id === c.id && r.agent === agent).sort((a, b) => a.seed - b.seed);
      if (runs.length === 0) return null;
      const ranks = runs.map((r) => rankScore(r.valid ? r.score : null, board));
      const valid = runs.flatMap((r) => (r.valid && r.score !== null ? [r.score] : []));
      return {
        scores: runs.map((r) => (r.valid ? r.score : null)),
        mean: valid.length === runs.length ? valid.reduce((a, b) => a + b, 0) / valid.length : null,
        medals: ranks.filter(medalled).length,
        aboveMedian: ranks.filter((k) => k.aboveMedian).length,
      };
    };
    return { competition: c, board: boardStats(board), agents: Object.fromEntries(agents.map((a) => [a, result(a)])) };
  });
  const rates: CalibrationSummary["rates"] = {};
  for (const agent of agents) {
    const seeds = [...new Set(cal.runs.filter((r) => r.agent === agent).map((r) => r.seed))].sort((a, b) => a - b);
    const measured = competitions.filter((c) => cal.runs.some((r) => r.agent === agent && r.competition_id === c.id));
    if (seeds.length === 0 || measured.length === 0) {
      rates[agent] = null;
      continue;
    }
    // Per seed, the share of the measured competitions with a medal (above the median); a missing run counts as none.
    const perSeed = (hit: (score: number | null, board: Float64Array) => boolean) =>
      seeds.map((seed) => {
        const hits = measured.filter((c) => {
          const run = cal.runs.find((r) => r.agent === agent && r.competition_id === c.id && r.seed === seed);
          return run !== undefined && hit(run.valid ? run.score : null, boards.get(c.id)!);
        }).length;
        return (hits / measured.length) * 100;
      });
    rates[agent] = {
      anyMedal: estimate(perSeed((s, b) => medalled(rankScore(s, b)))),
      aboveMedian: estimate(perSeed((s, b) => rankScore(s, b).aboveMedian)),
      seeds: seeds.length,
      competitions: measured.length,
      partial: measured.filter((c) => seeds.some((seed) => !cal.runs.some((r) => r.agent === agent && r.competition_id === c.id && r.seed === seed))).length,
    };
  }
  return { rows, rates };
}

/** A score as the table shows it: five significant decimals at most, no trailing zeros. */
function num(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return "–";
  return String(Number(x.toPrecision(5)));
}

/** The Debian and npm packages an offline competition's data comes from. */
function packagesOf(c: Competition): string {
  const names = Object.values(c.offline?.sources ?? {}).map((s) => (s.kind === "npm" ? `npm ${s.package}` : s.package));
  return [...new Set(names)].join(", ");
}

/** The README's offline table (Markdown), from the summary: data, task, population and how the demo's agents do. */
export function calibrationTable(summary: CalibrationSummary, baseline = "baseline", dummy = "dummy"): string {
  const header = ["id", "task", "data (package)", "category", "complexity", "metric", "entries", "best", "gold", "median", `${baseline} (mean)`, `${baseline} medals`, `${dummy} medals`];
  const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  for (const r of summary.rows) {
    const c = r.competition;
    const b = r.agents[baseline];
    const d = r.agents[dummy];
    const direction = r.board.lowerIsBetter ? " ↓" : " ↑";
    const cells = [
      c.id,
      c.name,
      packagesOf(c),
      c.category ?? "–",
      c.complexity ?? "–",
      c.metric + direction,
      String(r.board.entries),
      num(r.board.best),
      num(r.board.gold),
      num(r.board.median),
      b ? num(b.mean) : "not measured",
      b ? `${b.medals}/${b.scores.length}` : "–",
      d ? `${d.medals}/${d.scores.length}` : "–",
    ];
    lines.push(`| ${cells.map((x) => x.replace(/\|/g, "\\|")).join(" | ")} |`);
  }
  lines.push("");
  for (const agent of [baseline, dummy]) {
    const rate = summary.rates[agent];
    if (!rate) continue;
    const pm = (e: Estimate) => `${e.mean.toFixed(1)}% ± ${e.sem.toFixed(1)}`;
    const partial = rate.partial > 0 ? `; ${rate.partial} of them not measured with every seed, a missing run counting as none` : "";
    lines.push(
      `- \`${agent}\`: any medal ${pm(rate.anyMedal)}, above median ${pm(rate.aboveMedian)} ` +
        `(${rate.competitions} competitions, ${rate.seeds} seed${rate.seeds === 1 ? "" : "s"}${partial}; mean ± SEM over seeds).`,
    );
  }
  return lines.join("\n") + "\n";
}

export const TABLE_START = "<!-- offline-table:start (generated by scripts/offline/calibration.mjs) -->";
export const TABLE_END = "<!-- offline-table:end -->";

/** `text` with the part between the table markers replaced by `table`; an error when the markers are missing. */
export function withTable(text: string, table: string, file: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${file} lacks the markers ${TABLE_START} … ${TABLE_END}`);
  return text.slice(0, start + TABLE_START.length) + "\n" + table + text.slice(end);
}
