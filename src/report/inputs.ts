import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import { loadCompetition } from "../competitions/registry.js";
import { gradeToReport, loadGradingInputs, type GradingInputs } from "../grading/grade.js";
import type { CompetitionReport } from "../grading/report.js";
import { applyDisqualification, readDisqualification } from "../integrity/disqualify.js";
import { describeSkip, isRealDirectory, lstatOrNull, readFileUnder, readRegularFile, type Skipped } from "../io/untrusted.js";
import { manifestPath, readRunManifestIfAny, type RunManifest } from "../results/manifest.js";
import { parseGroupMetadata, RunRecordSchema, type GroupMetadata, type RunRecord } from "../results/record.js";

/** One graded attempt, with its run when it came from a run group. */
export interface ReportedRun {
  report: CompetitionReport;
  runDir: string | null;
  record: RunRecord | null;
  /** The run's manifest.json: null for older runs, upstream reports, or one that could not be read. */
  manifest: RunManifest | null;
  /** Why a manifest.json present in the run folder was not read (names the file); null otherwise. */
  manifestProblem: string | null;
}

/** Everything reported for one agent (several run groups or report files may add up). */
export interface AgentInput {
  agent: string;
  sources: string[];
  runs: ReportedRun[];
}

/** Reports as upstream writes them: only the keys aggregation needs are required. */
const LooseReportSchema = z
  .object({
    competition_id: z.string(),
    score: z.number().nullable().optional(),
    gold_threshold: z.number().nullable().optional(),
    silver_threshold: z.number().nullable().optional(),
    bronze_threshold: z.number().nullable().optional(),
    median_threshold: z.number().nullable().optional(),
    any_medal: z.boolean().optional(),
    gold_medal: z.boolean(),
    silver_medal: z.boolean(),
    bronze_medal: z.boolean(),
    above_median: z.boolean(),
    submission_exists: z.boolean(),
    valid_submission: z.boolean(),
    is_lower_better: z.boolean().optional(),
    created_at: z.string().optional(),
    submission_path: z.string().optional(),
    invalid_reason: z.string().nullable().optional(),
    score_text: z.string().nullable().optional(),
    disqualified_reason: z.string().nullable().optional(),
  })
  .passthrough();

function normalise(raw: z.infer<typeof LooseReportSchema>): CompetitionReport {
  return {
    competition_id: raw.competition_id,
    score: raw.score ?? null,
    gold_threshold: raw.gold_threshold ?? null,
    silver_threshold: raw.silver_threshold ?? null,
    bronze_threshold: raw.bronze_threshold ?? null,
    median_threshold: raw.median_threshold ?? null,
    any_medal: raw.any_medal ?? (raw.gold_medal || raw.silver_medal || raw.bronze_medal),
    gold_medal: raw.gold_medal,
    silver_medal: raw.silver_medal,
    bronze_medal: raw.bronze_medal,
    above_median: raw.above_median,
    submission_exists: raw.submission_exists,
    valid_submission: raw.valid_submission,
    is_lower_better: raw.is_lower_better ?? false,
    created_at: raw.created_at ?? "",
    submission_path: raw.submission_path ?? "",
    invalid_reason: raw.invalid_reason ?? null,
    score_text: raw.score_text ?? null,
    disqualified_reason: raw.disqualified_reason ?? null,
  };
}

/** Reports, run records and group metadata are KiB to a few MiB; anything past this is not one. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * The text of a file in a run group, opened without following a link and never a FIFO or device
 * (which would hang the reader); the reason when it is not a regular file.
 */
function readInputText(file: string, under?: { root: string; rel: string }): string | Skipped {
  const r = under ? readFileUnder(under.root, under.rel, MAX_INPUT_BYTES) : readRegularFile(file, MAX_INPUT_BYTES);
  if ("skipped" in r) return r;
  if (r.truncated) throw new UserError(`Cannot read ${file}: larger than ${MAX_INPUT_BYTES} bytes (${r.size})`);
  return r.bytes.toString("utf8");
}

function readJson(file: string): unknown {
  // A report file the user names may be their own link; what it points at is still never a FIFO or device.
  let real = file;
  try {
    real = fs.realpathSync(file);
  } catch {
    // reported below as missing
  }
  const text = readInputText(real);
  if (typeof text !== "string") throw new UserError(`Cannot read ${file}: ${text.skipped === "missing" ? "no such file" : describeSkip(text.skipped)}`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
  }
}

/** run.json of a run folder of `groupDir`, or null when it is missing, not a regular file (or the folder a link) or not a run record. */
function readRecord(groupDir: string, runId: string): RunRecord | null {
  const text = readInputText(path.join(groupDir, runId, "run.json"), { root: groupDir, rel: `${runId}/run.json` });
  if (typeof text !== "string") return null;
  try {
    const parsed = RunRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The run's manifest, or why the one present was not read; a folder or file that is a link is not the harness's. */
function readManifest(groupDir: string, runId: string): Pick<ReportedRun, "manifest" | "manifestProblem"> {
  const runDir = path.join(groupDir, runId);
  const none = { manifest: null, manifestProblem: null };
  if (!isRealDirectory(runDir)) return none;
  const file = manifestPath(runDir);
  const st = lstatOrNull(file);
  if (st === null) return none;
  if (!st.isFile()) return { manifest: null, manifestProblem: `${file} is not a regular file; its run's usage shows as not recorded` };
  try {
    return { manifest: readRunManifestIfAny(runDir), manifestProblem: null };
  } catch (e) {
    return { manifest: null, manifestProblem: `${(e as Error).message}; its run's usage shows as not recorded` };
  }
}

/** The group's metadata.json, or null when it has none; a UserError when it is something else or not metadata. */
function readMetadata(dir: string): GroupMetadata | null {
  const file = path.join(dir, "metadata.json");
  const text = readInputText(file);
  if (typeof text !== "string") {
    if (text.skipped === "missing") return null;
    throw new UserError(`Cannot read ${file}: ${describeSkip(text.skipped)}`);
  }
  return parseGroupMetadata(text, file);
}

function parseReport(raw: unknown, where: string): CompetitionReport {
  const r = LooseReportSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new UserError(`${where}: not a competition report (${issue.path.join(".") || "top level"}: ${issue.message})`);
  }
  return normalise(r.data);
}

/** The agent a grading-report file belongs to: its run group's agent, else the file's name. */
function agentOfFile(file: string): string {
  const m = /_run-group_(.+)$/.exec(path.basename(path.dirname(path.resolve(file))));
  return m ? m[1] : path.basename(file).replace(/(_grading_report)?\.json$/, "");
}

/** Reports of a grading-report file: upstream's summary (`competition_reports`) or a single report. */
function fromReportFile(file: string): ReportedRun[] {
  const raw = readJson(file);
  const list = Array.isArray((raw as { competition_reports?: unknown }).competition_reports)
    ? ((raw as { competition_reports: unknown[] }).competition_reports)
    : [raw];
  const reports = list.map((r, i) => parseReport(r, `${file}, report ${i + 1}`));
  // Upstream's aggregation orders each file's reports by competition (stable, so seeds keep their order).
  reports.sort((a, b) => (a.competition_id < b.competition_id ? -1 : a.competition_id > b.competition_id ? 1 : 0));
  return reports.map((report) => ({ report, runDir: null, record: null, manifest: null, manifestProblem: null }));
}

/** Reports of a run group, in its task order; runs without a grading report are graded now. */
async function fromRunGroup(dir: string, dataDir: string): Promise<{ agent: string; runs: ReportedRun[] }> {
  const meta = readMetadata(dir);
  if (!meta) throw new UserError(`${dir} is not a run group (no metadata.json); give a run group dir or a grading report .json`);
  const inputs = new Map<string, GradingInputs>();
  const runs: ReportedRun[] = [];
  for (const t of meta.tasks) {
    const runDir = path.join(dir, t.run_id);
    const record = readRecord(dir, t.run_id);
    const manifest = readManifest(dir, t.run_id);
    const file = path.join(runDir, "grading_report.json");
    // A report that is a link or a special file is not the harness's: the run is graded afresh instead.
    const text = readInputText(file, { root: dir, rel: `${t.run_id}/grading_report.json` });
    if (typeof text === "string") {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (e) {
        throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
      }
      runs.push({ report: parseReport(raw, file), runDir, record, ...manifest });
      continue;
    }
    const why = text.skipped === "missing" ? "has no grading_report.json" : `has no readable grading_report.json (${describeSkip(text.skipped)})`;
    const competition = await loadCompetition(t.competition_id);
    let gi = inputs.get(competition.id);
    if (!gi) {
      try {
        gi = loadGradingInputs(competition, dataDir);
      } catch (e) {
        throw new UserError(`${runDir} ${why} and cannot be graded here: ${(e as Error).message}`);
      }
      inputs.set(competition.id, gi);
    }
    let report = gradeToReport(competition, path.join(runDir, "submission", "submission.csv"), gi);
    if (record?.submission_rejected) report.invalid_reason = record.submission_rejected;
    const disqualified = readDisqualification(runDir);
    if (disqualified) report = applyDisqualification(report, disqualified);
    runs.push({ report, runDir, record, ...manifest });
  }
  return { agent: meta.agent_id, runs };
}

/**
 * Read run groups and grading-report files, grouped by agent (in first-seen order); each agent's
 * sources are read in path order, as upstream's aggregation sorts its report paths.
 */
export async function loadInputs(paths: string[], dataDir: string, shownAs: ReadonlyMap<string, string> = new Map()): Promise<AgentInput[]> {
  if (paths.length === 0) throw new UserError("Give at least one run group directory or grading report file.");
  const agents = new Map<string, AgentInput>();
  const add = (agent: string, source: string, runs: ReportedRun[]) => {
    const a = agents.get(agent) ?? { agent, sources: [], runs: [] };
    a.sources.push(source);
    a.runs.push(...runs);
    agents.set(agent, a);
  };
  for (const p of [...paths].map((x) => path.resolve(x)).sort()) {
    if (!fs.existsSync(p)) throw new UserError(`${p} does not exist`);
    if (fs.statSync(p).isDirectory()) {
      if (!fs.existsSync(path.join(p, "metadata.json"))) {
        throw new UserError(`${p} is not a run group (no metadata.json); give a run group dir or a grading report .json`);
      }
      const g = await fromRunGroup(p, dataDir);
      add(g.agent, shownAs.get(p) ?? p, g.runs);
    } else {
      add(agentOfFile(p), p, fromReportFile(p));
    }
  }
  return [...agents.values()];
}
