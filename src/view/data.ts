/**
 * What the viewer's API returns, read from a group's files: run records and grading reports
 * (written by the harness) and the agent's logs (hostile: opened without following links and read
 * a bounded range at a time, so a log of any size opens without being loaded whole).
 */
import fs from "node:fs";
import path from "node:path";
import { readFileUnder, openUnder, describeSkip, readOpened } from "../io/untrusted.js";
import { readRunRecord, type RunRecord } from "../results/record.js";
import { readRunManifestIfAny, type RunManifest } from "../results/manifest.js";
import { parseResearchRunRecord, type ResearchRunRecord } from "../results/research-record.js";
import type { ViewGroup, ViewRun } from "./groups.js";

/** The most a single range read returns, bytes. */
export const MAX_RANGE_BYTES = 1 << 20;

/** Harness-written JSON files read whole are capped at this. */
const MAX_JSON_BYTES = 64 << 20;

/** Files of a run's logs/ the viewer reads by name (what the harness puts there, for both kinds of run). */
export const LOG_FILES = ["agent.log", "run.log", "llm.jsonl", "journal.json", "tree.html", "best_solution.py", "agent/main_log", "mlab/main_log"] as const;
export type LogFile = (typeof LOG_FILES)[number];

/** One run in a group's listing. */
export interface RunRow {
  run_id: string;
  competition_id: string;
  seed: number;
  status: string;
  /** How the run ended (MLE-bench: the exit reason; research: why the agent stopped). */
  exit_reason: string | null;
  wall_seconds: number | null;
  /** MLE-bench: the grade's score; research: the improvement over the baseline, once evaluated. */
  score: number | null;
  valid_submission: boolean | null;
  /** MLE-bench: any medal; research: competent (an improvement of at least 10%), once evaluated. */
  any_medal: boolean | null;
}

/** A group's listing: who ran, and each run with its outcome. */
export interface GroupView {
  id: string;
  kind: ViewGroup["kind"];
  run_group: string;
  agent_id: string;
  created_at: string;
  runs: RunRow[];
  totals: { runs: number; completed: number; graded: number; medals: number };
}

/** A research run's record, or null when it has none or it cannot be read. */
export function readResearchRecord(runDir: string): ResearchRunRecord | null {
  const r = readFileUnder(runDir, "run.json", MAX_JSON_BYTES);
  if (!("bytes" in r)) return null;
  try {
    return parseResearchRunRecord(JSON.parse(r.bytes.toString("utf8")), path.join(runDir, "run.json"));
  } catch {
    return null;
  }
}

/** A harness-written JSON file of a run, parsed, or null when it is missing, a link or not JSON. */
export function readRunJson(runDir: string, rel: string): unknown {
  const r = readFileUnder(runDir, rel, MAX_JSON_BYTES);
  if (!("bytes" in r)) return null;
  try {
    return JSON.parse(r.bytes.toString("utf8"));
  } catch {
    return null;
  }
}

function mleRow(g: ViewGroup, t: ViewRun): RunRow {
  const rec = readRunRecord(path.join(g.dir, t.run_id));
  return {
    ...t,
    status: rec?.status ?? "pending",
    exit_reason: rec?.exit_reason ?? null,
    wall_seconds: rec?.wall_seconds ?? null,
    score: rec?.grading?.score ?? null,
    valid_submission: rec?.grading?.valid_submission ?? null,
    any_medal: rec?.grading?.any_medal ?? null,
  };
}

/** A research run's row: its end status, and the improvement over the baseline as its score when evaluated. */
function researchRow(g: ViewGroup, t: ViewRun): RunRow {
  const runDir = path.join(g.dir, t.run_id);
  const rec = readResearchRecord(runDir);
  const ev = readRunJson(runDir, "eval.json") as { improvement?: unknown; success?: Record<string, unknown> } | null;
  return {
    ...t,
    status: rec?.status ?? "pending",
    exit_reason: rec?.stop ?? null,
    wall_seconds: rec?.wall_seconds ?? null,
    score: typeof ev?.improvement === "number" ? ev.improvement : null,
    valid_submission: null,
    any_medal: typeof ev?.success?.["10"] === "boolean" ? ev.success["10"] : null,
  };
}

/** The listing of one group, from its record and each run's run.json. */
export function groupView(g: ViewGroup): GroupView {
  const runs = g.runs.map((t) => (g.kind === "mle" ? mleRow(g, t) : researchRow(g, t)));
  return {
    id: g.id,
    kind: g.kind,
    run_group: g.name,
    agent_id: g.agent_id,
    created_at: g.created_at,
    runs,
    totals: {
      runs: runs.length,
      completed: runs.filter((r) => r.status === "completed" || r.status === "finished").length,
      graded: runs.filter((r) => r.any_medal !== null).length,
      medals: runs.filter((r) => r.any_medal === true).length,
    },
  };
}

/** A run as the viewer shows it: its record, manifest, grading report or evaluation, and which log files it has. */
export interface RunView {
  group: string;
  kind: ViewGroup["kind"];
  run_id: string;
  competition_id: string;
  seed: number;
  /** run.json: an MLE-bench run record, or a research run record. */
  record: RunRecord | ResearchRunRecord | null;
  manifest: RunManifest | null;
  manifest_problem: string | null;
  /** grading_report.json (MLE-bench) or eval.json (research), as written. */
  grading_report: unknown;
  logs: { name: LogFile; bytes: number }[];
}

/** The run `runId` of a group, or null when the group lists no such run. */
export function taskOf(g: ViewGroup, runId: string): ViewRun | null {
  return g.runs.find((t) => t.run_id === runId) ?? null;
}

/** A run's run.json and (MLE-bench runs) manifest.json, or why the manifest could not be read. */
export function runRecords(g: ViewGroup, task: ViewRun): Pick<RunView, "record" | "manifest" | "manifest_problem"> {
  const runDir = path.join(g.dir, task.run_id);
  if (g.kind === "research") return { record: readResearchRecord(runDir), manifest: null, manifest_problem: null };
  try {
    return { record: readRunRecord(runDir), manifest: readRunManifestIfAny(runDir), manifest_problem: null };
  } catch (e) {
    return { record: readRunRecord(runDir), manifest: null, manifest_problem: (e as Error).message };
  }
}

/** The details of one run of a group (the run id comes from its record, so no path is taken from a request). */
export function runView(g: ViewGroup, task: ViewRun): RunView {
  const runDir = path.join(g.dir, task.run_id);
  const logs: RunView["logs"] = [];
  for (const name of LOG_FILES) {
    const opened = openUnder(runDir, `logs/${name}`);
    if ("fd" in opened) {
      logs.push({ name, bytes: opened.size });
      fs.closeSync(opened.fd);
    }
  }
  return {
    group: g.id,
    kind: g.kind,
    run_id: task.run_id,
    competition_id: task.competition_id,
    seed: task.seed,
    ...runRecords(g, task),
    grading_report: readRunJson(runDir, g.kind === "mle" ? "grading_report.json" : "eval.json"),
    logs,
  };
}

/** A byte range of a run's log file, with the file's size, so a client can page through it. */
export interface LogRange {
  name: LogFile;
  size: number;
  offset: number;
  /** The bytes as UTF-8 text (a character cut at either end shows as U+FFFD). */
  text: string;
  next_offset: number | null;
}

/** Read `limit` bytes from `offset` of a run's log file, or say why not. */
export function readLogRange(g: ViewGroup, task: ViewRun, name: LogFile, offset: number, limit: number): LogRange | { error: string } {
  const opened = openUnder(path.join(g.dir, task.run_id), `logs/${name}`);
  if ("skipped" in opened) return { error: `logs/${name}: ${describeSkip(opened.skipped)}` };
  try {
    const { bytes } = readOpened(opened.fd, opened.size, Math.min(limit, MAX_RANGE_BYTES), offset);
    const end = offset + bytes.length;
    return { name, size: opened.size, offset, text: bytes.toString("utf8"), next_offset: end < opened.size ? end : null };
  } finally {
    fs.closeSync(opened.fd);
  }
}
