/**
 * The submissions a run had at moments of its run (snapshots the harness took) and the score each
 * would have had, graded here against the answers in a data dir. These grades are harness-side: the
 * agent never saw them (it only ever heard "valid" or "invalid" from the validation server).
 */
import fs from "node:fs";
import path from "node:path";
import { loadCompetition } from "../competitions/registry.js";
import { gradeToReport, loadGradingInputs, type GradingInputs } from "../grading/grade.js";
import { describeSkip, openUnder } from "../io/untrusted.js";
import type { RunRecord } from "../results/record.js";
import { instant } from "./timeline.js";

/** One snapshot and, when answers are at hand, its would-be grade. */
export interface SnapshotView {
  file: string;
  elapsed_seconds: number;
  /** started_at plus the elapsed time, when the run's start is known. */
  time: string | null;
  graded: boolean;
  score: number | null;
  valid: boolean | null;
  medal: "gold" | "silver" | "bronze" | null;
  above_median: boolean | null;
  /** Why it was not graded or not valid. */
  note: string | null;
}

/** Grades snapshots when first asked, each file version once, against one data dir. */
export class SnapshotScorer {
  private readonly inputs = new Map<string, GradingInputs | string>();
  private readonly graded = new Map<string, Omit<SnapshotView, "file" | "elapsed_seconds" | "time">>();

  /** `dataDir` null: snapshots are listed without grades, saying why. */
  constructor(private readonly dataDir: string | null) {}

  private async inputsFor(competitionId: string): Promise<GradingInputs | string> {
    const known = this.inputs.get(competitionId);
    if (known !== undefined) return known;
    let got: GradingInputs | string;
    try {
      got = loadGradingInputs(await loadCompetition(competitionId), this.dataDir!);
    } catch (e) {
      got = `answers not available: ${(e as Error).message}`;
    }
    this.inputs.set(competitionId, got);
    return got;
  }

  /** The run's snapshots in order, each with its would-be grade where answers are at hand. */
  async snapshots(runDir: string, record: RunRecord, zoneOffsetMs: number | null = null): Promise<SnapshotView[]> {
    const start = record.started_at ? instant(record.started_at, zoneOffsetMs) : NaN;
    const out: SnapshotView[] = [];
    for (const s of record.snapshots) {
      const base = { file: s.file, elapsed_seconds: s.elapsed_seconds, time: Number.isFinite(start) ? new Date(start + s.elapsed_seconds * 1000).toISOString() : null };
      out.push({ ...base, ...(await this.grade(runDir, record.competition_id, s.file)) });
    }
    return out;
  }

  private async grade(runDir: string, competitionId: string, rel: string): Promise<Omit<SnapshotView, "file" | "elapsed_seconds" | "time">> {
    const none = { graded: false, score: null, valid: null, medal: null, above_median: null };
    if (this.dataDir === null) return { ...none, note: "not graded: start the viewer with --data-dir to grade snapshots" };
    if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes("..")) return { ...none, note: `not graded: ${rel} is not a path inside the run` };
    // The snapshot is a copy the harness made, but it holds the agent's bytes: never follow a link to it.
    const opened = openUnder(runDir, rel);
    if ("skipped" in opened) return { ...none, note: `not graded: ${rel}: ${describeSkip(opened.skipped)}` };
    const st = fs.fstatSync(opened.fd);
    fs.closeSync(opened.fd);
    const file = path.join(runDir, rel);
    const key = `${file}:${st.ino}:${st.size}:${st.mtimeMs}`;
    const cached = this.graded.get(key);
    if (cached) return cached;
    const inputs = await this.inputsFor(competitionId);
    if (typeof inputs === "string") return { ...none, note: `not graded: ${inputs}` };
    const r = gradeToReport(await loadCompetition(competitionId), file, inputs);
    const grade = {
      graded: true,
      score: r.score,
      valid: r.valid_submission,
      medal: r.gold_medal ? ("gold" as const) : r.silver_medal ? ("silver" as const) : r.bronze_medal ? ("bronze" as const) : null,
      above_median: r.above_median,
      note: r.invalid_reason ?? null,
    };
    this.graded.set(key, grade);
    return grade;
  }
}
