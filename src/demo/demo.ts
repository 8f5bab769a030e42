import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolveAgent } from "../agents/registry.js";
import type { Competition } from "../core/competition.js";
import { runChecks, type Check } from "../doctor/checks.js";
import { writeFileAtomic } from "../core/atomic.js";
import { UserError } from "../core/errors.js";
import { fileTimestamp, pythonIsoNow, summarize, type CompetitionReport, type GradingSummary } from "../grading/report.js";
import { prepareCompetition } from "../prepare/prepare.js";
import { resolveSource } from "../sources/packages.js";
import { buildReport } from "../report/build.js";
import { renderHtml } from "../report/html.js";
import { loadInputs } from "../report/inputs.js";
import { RunGroup, type GroupEvent } from "../runner/group.js";
import type { RunRecord } from "../results/record.js";
import { snapshotInterval } from "../sandbox/limits.js";
import type { Limits, SandboxBackend } from "../sandbox/types.js";

/** Agents the demo compares: the floor (sample submission) and the no-LLM baseline. */
export const DEMO_AGENTS = ["dummy", "baseline"] as const;

/** What the demo needs from the doctor's list; xgboost and torch only make the baseline better. */
const NEEDED = ["node", "python3", "python3: numpy", "python3: pandas", "python3: sklearn", "python3: scipy"];

/** The repository's setup scripts (present in a checkout; the demo runs them as root). */
const SCRIPTS = fileURLToPath(new URL("../../scripts/", import.meta.url));

/** Options of one demo. */
export interface DemoOptions {
  competitions: Competition[];
  dataDir: string;
  runsDir: string;
  backend: SandboxBackend;
  limits: Limits;
  seeds: number;
  workers: number;
  say: (line: string) => void;
  onEvent: (e: GroupEvent) => void;
  onPrepare: (done: number, total: number) => void;
}

/** One row of the results table. */
export interface DemoRow {
  competition_id: string;
  agent: string;
  seed: number;
  status: RunRecord["status"];
  exit_reason: RunRecord["exit_reason"];
  score: number | null;
  valid: boolean;
  medal: "gold" | "silver" | "bronze" | null;
  above_median: boolean;
  report: string | null;
}

/** The demo's report file: rows, per-agent summaries with upstream's keys, and the run groups. */
export interface DemoReport {
  created_at: string;
  run_groups: Record<string, string>;
  rows: DemoRow[];
  summaries: Record<string, Omit<GradingSummary, "competition_reports">>;
  report_file: string;
  /** The same runs as `mlebench report` renders them (charts, per-competition tables). */
  html_file: string;
}

/** Which of the demo's needs are unmet (tools, Python modules, the packages datasets ship in), as doctor checks. */
export async function unmetNeeds(backend: string, competitions: Competition[]): Promise<Check[]> {
  const needed = new Set([...NEEDED, ...(backend === "bwrap" ? ["bubblewrap"] : [])]);
  const unmet = (await runChecks()).filter((c) => needed.has(c.name) && c.status !== "ok");
  for (const c of competitions) {
    for (const source of Object.values(c.offline?.sources ?? {})) {
      try {
        resolveSource(source);
      } catch (e) {
        unmet.push({ name: `data: ${c.id}`, status: "missing", required: true, detail: (e as Error).message, fix: "sudo bash scripts/setup-system.sh" });
      }
    }
  }
  return unmet;
}

/** Install what is missing with the repository's Debian setup scripts; false when that is not possible here. */
export function runSetup(say: (line: string) => void): boolean {
  if (process.getuid?.() !== 0 || !fs.existsSync(path.join(SCRIPTS, "setup-agent-env.sh"))) return false;
  for (const script of ["setup-system.sh", "setup-agent-env.sh"]) {
    say(`running scripts/${script}`);
    const r = spawnSync("bash", [path.join(SCRIPTS, script)], { stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0) return false;
  }
  return true;
}

function medalOf(r: CompetitionReport): DemoRow["medal"] {
  return r.gold_medal ? "gold" : r.silver_medal ? "silver" : r.bronze_medal ? "bronze" : null;
}

/**
 * The whole benchmark on the offline competitions: prepare them, run each demo agent in the
 * sandbox, grade, and write one report comparing the agents.
 */
export async function runDemo(o: DemoOptions): Promise<DemoReport> {
  for (const [i, c] of o.competitions.entries()) {
    o.onPrepare(i, o.competitions.length);
    let r: Awaited<ReturnType<typeof prepareCompetition>>;
    try {
      r = await prepareCompetition(c, o.dataDir);
    } catch (e) {
      // Nothing has run yet: a competition that cannot be prepared is a setup problem to report, not a crash.
      throw new UserError(`cannot prepare ${c.id} in ${o.dataDir}: ${(e as Error).message}`);
    }
    o.say(`prepared ${c.id} (${r.status})`);
  }
  o.onPrepare(o.competitions.length, o.competitions.length);

  const rows: DemoRow[] = [];
  const runGroups: Record<string, string> = {};
  const summaries: DemoReport["summaries"] = {};
  for (const id of DEMO_AGENTS) {
    o.say(`running agent "${id}" on ${o.competitions.length} competition(s)`);
    const group = new RunGroup(
      {
        settings: {
          agent: resolveAgent({ id }),
          backend: o.backend,
          dataDir: o.dataDir,
          limits: o.limits,
          gpus: [],
          snapshotEveryMs: snapshotInterval(undefined, o.limits.wallMs),
          grade: true,
          diskAuto: { share: o.workers },
        },
        competitions: o.competitions,
        seeds: o.seeds,
        workers: o.workers,
        runsDir: o.runsDir,
        options: { demo: true },
      },
      o.onEvent,
    );
    const result = await group.run();
    runGroups[id] = result.groupDir;
    const reports: CompetitionReport[] = [];
    for (const rec of result.records) {
      const reportFile = path.join(result.groupDir, rec.run_id, "grading_report.json");
      const report = fs.existsSync(reportFile) ? (JSON.parse(fs.readFileSync(reportFile, "utf8")) as CompetitionReport) : null;
      if (report) reports.push(report);
      rows.push({
        competition_id: rec.competition_id,
        agent: id,
        seed: rec.seed,
        status: rec.status,
        exit_reason: rec.exit_reason,
        score: report?.score ?? null,
        valid: report?.valid_submission ?? false,
        medal: report ? medalOf(report) : null,
        above_median: report?.above_median ?? false,
        report: report ? reportFile : null,
      });
    }
    const { competition_reports: _omit, ...summary } = summarize(reports);
    summaries[id] = summary;
  }
  const stamp = fileTimestamp();
  const reportFile = path.join(o.runsDir, `${stamp}_demo_report.json`);
  const htmlFile = path.join(o.runsDir, `${stamp}_demo_report.html`);
  const data = await buildReport(await loadInputs(Object.values(runGroups), o.dataDir), {
    split: null,
    competitionIds: o.competitions.map((c) => c.id),
    padMissing: true,
    numSeeds: null,
    dataDir: o.dataDir,
  });
  writeFileAtomic(htmlFile, renderHtml(data));
  const report: DemoReport = { created_at: pythonIsoNow(), run_groups: runGroups, rows, summaries, report_file: reportFile, html_file: htmlFile };
  writeFileAtomic(reportFile, JSON.stringify(report, null, 2) + "\n");
  return report;
}

/** The results table: one line per competition and seed, the agents side by side. */
export function formatDemoTable(report: DemoReport): string {
  const key = (r: DemoRow) => `${r.competition_id}\u0000${r.seed}`;
  const byKey = new Map<string, Map<string, DemoRow>>();
  for (const r of report.rows) {
    const m = byKey.get(key(r)) ?? new Map<string, DemoRow>();
    m.set(r.agent, r);
    byKey.set(key(r), m);
  }
  const cell = (r: DemoRow | undefined) =>
    !r ? "-" : r.status !== "completed" ? r.status : !r.valid ? "invalid" : `${r.score}${r.medal ? ` ${r.medal}` : ""}`;
  const header = ["competition", "seed", ...DEMO_AGENTS.map((a) => `${a} (score, medal)`)];
  const table = [...byKey.values()].map((m) => {
    const first = [...m.values()][0];
    return [first.competition_id, String(first.seed), ...DEMO_AGENTS.map((a) => cell(m.get(a)))];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const fmt = (row: string[]) => row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  const lines = [fmt(header), ...table.map(fmt), ""];
  for (const a of DEMO_AGENTS) {
    const s = report.summaries[a];
    if (s) lines.push(`${a}: ${s.total_valid_submissions}/${s.total_runs} valid, ${s.total_medals} medals (${s.total_gold_medals} gold), ${s.total_above_median} above median`);
  }
  lines.push("Medals are against each competition's reference population of standard pipelines.");
  lines.push(`report: ${report.html_file} (charts and tables), ${report.report_file}`);
  for (const [a, dir] of Object.entries(report.run_groups)) lines.push(`runs (${a}): ${dir}`);
  return lines.join("\n") + "\n";
}
