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
import type { ViewGroup } from "./groups.js";

/** The most a single range read returns, bytes. */
export const MAX_RANGE_BYTES = 1 << 20;

/** Harness-written JSON files read whole are capped at this. */
const MAX_JSON_BYTES = 64 << 20;

/** Files of a run's logs/ the viewer reads by name (what the harness puts there). */
export const LOG_FILES = ["agent.log", "llm.jsonl", "journal.json", "tree.html", "best_solution.py"] as const;
export type LogFile = (typeof LOG_FILES)[number];

/** One run in a group's listing. */
export interface RunRow {
  run_id: string;
  competition_id: string;
  seed: number;
  status: string;
  exit_reason: string | null;
  wall_seconds: number | null;
  score: number | null;
  valid_submission: boolean | null;
  any_medal: boolean | null;
}

/** A group's listing: who ran, and each run with its outcome. */
export interface GroupView {
  id: string;
  run_group: string;
  agent_id: string;
  created_at: string;
  runs: RunRow[];
  totals: { runs: number; completed: number; graded: number; medals: number };
}

/** The listing of one group, from its metadata and each run's run.json. */
export function groupView(g: ViewGroup): GroupView {
  const runs = g.meta.tasks.map((t): RunRow => {
    const rec = readRunRecord(path.join(g.dir, t.run_id));
    return {
      run_id: t.run_id,
      competition_id: t.competition_id,
      seed: t.seed,
      status: rec?.status ?? "pending",
      exit_reason: rec?.exit_reason ?? null,
      wall_seconds: rec?.wall_seconds ?? null,
      score: rec?.grading?.score ?? null,
      valid_submission: rec?.grading?.valid_submission ?? null,
      any_medal: rec?.grading?.any_medal ?? null,
    };
  });
  return {
    id: g.id,
    run_group: g.meta.run_group,
    agent_id: g.meta.agent_id,
    created_at: g.meta.created_at,
    runs,
    totals: {
      runs: runs.length,
      completed: runs.filter((r) => r.status === "completed").length,
      graded: runs.filter((r) => r.any_medal !== null).length,
      medals: runs.filter((r) => r.any_medal === true).length,
    },
  };
}

/** A run as the viewer shows it: its record, manifest, grading report and which log files it has. */
export interface RunView {
  group: string;
  run_id: string;
  competition_id: string;
  seed: number;
  record: RunRecord | null;
  manifest: RunManifest | null;
  manifest_problem: string | null;
  grading_report: unknown;
  logs: { name: LogFile; bytes: number }[];
}

/** The task of `runId` in a group, or null when the group lists no such run. */
export function taskOf(g: ViewGroup, runId: string): GroupViewTask | null {
  return g.meta.tasks.find((t) => t.run_id === runId) ?? null;
}
type GroupViewTask = ViewGroup["meta"]["tasks"][number];

/** The details of one run of a group (the run id comes from its metadata, so no path is taken from a request). */
export function runView(g: ViewGroup, task: GroupViewTask): RunView {
  const runDir = path.join(g.dir, task.run_id);
  let manifest: RunManifest | null = null;
  let problem: string | null = null;
  try {
    manifest = readRunManifestIfAny(runDir);
  } catch (e) {
    problem = (e as Error).message;
  }
  let report: unknown = null;
  const r = readFileUnder(g.dir, `${task.run_id}/grading_report.json`, MAX_JSON_BYTES);
  if ("bytes" in r) {
    try {
      report = JSON.parse(r.bytes.toString("utf8"));
    } catch {
      report = null;
    }
  }
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
    run_id: task.run_id,
    competition_id: task.competition_id,
    seed: task.seed,
    record: readRunRecord(runDir),
    manifest,
    manifest_problem: problem,
    grading_report: report,
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
export function readLogRange(g: ViewGroup, task: GroupViewTask, name: LogFile, offset: number, limit: number): LogRange | { error: string } {
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
