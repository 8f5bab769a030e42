import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import { getCompetition } from "../competitions/registry.js";
import { gradeToReport, loadGradingInputs, type GradingInputs } from "../grading/grade.js";
import type { CompetitionReport } from "../grading/report.js";
import { applyDisqualification, readDisqualification } from "../integrity/disqualify.js";
import { readGroupMetadata, readRunRecord, type RunRecord } from "../runner/record.js";

/** One graded attempt, with its run when it came from a run group. */
export interface ReportedRun {
  report: CompetitionReport;
  runDir: string | null;
  record: RunRecord | null;
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

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
  }
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
  return reports.map((report) => ({ report, runDir: null, record: null }));
}

/** Reports of a run group, in its task order; runs without a grading report are graded now. */
function fromRunGroup(dir: string, dataDir: string): { agent: string; runs: ReportedRun[] } {
  const meta = readGroupMetadata(dir);
  if (!meta) throw new UserError(`${dir} is not a run group (no metadata.json); give a run group dir or a grading report .json`);
  const inputs = new Map<string, GradingInputs>();
  const runs = meta.tasks.map((t) => {
    const runDir = path.join(dir, t.run_id);
    const record = readRunRecord(runDir);
    const file = path.join(runDir, "grading_report.json");
    if (fs.existsSync(file)) return { report: parseReport(readJson(file), file), runDir, record };
    const competition = getCompetition(t.competition_id);
    let gi = inputs.get(competition.id);
    if (!gi) {
      try {
        gi = loadGradingInputs(competition, dataDir);
      } catch (e) {
        throw new UserError(`${runDir} has no grading_report.json and cannot be graded here: ${(e as Error).message}`);
      }
      inputs.set(competition.id, gi);
    }
    let report = gradeToReport(competition, path.join(runDir, "submission", "submission.csv"), gi);
    if (record?.submission_rejected) report.invalid_reason = record.submission_rejected;
    const disqualified = readDisqualification(runDir);
    if (disqualified) report = applyDisqualification(report, disqualified);
    return { report, runDir, record };
  });
  return { agent: meta.agent_id, runs };
}

/**
 * Read run groups and grading-report files, grouped by agent (in first-seen order); each agent's
 * sources are read in path order, as upstream's aggregation sorts its report paths.
 */
export function loadInputs(paths: string[], dataDir: string, shownAs: ReadonlyMap<string, string> = new Map()): AgentInput[] {
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
      const g = fromRunGroup(p, dataDir);
      add(g.agent, shownAs.get(p) ?? p, g.runs);
    } else {
      add(agentOfFile(p), p, fromReportFile(p));
    }
  }
  return [...agents.values()];
}
