import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Competition, OfflineSpec } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { loadGrader } from "../../competitions/registry.js";
import { hiddenSources, materializeSources } from "../../sources/packages.js";
import { PYTHON } from "./runner.js";
import { BaselineSchema, type Baseline, type ImprovementOf, type ResearchTask, type TaskRunner } from "./types.js";

/** Copy a task's starter files into `workspaceDir` (created if missing), overwriting files of the same name. */
export function copyStarterFiles(filesDir: string, workspaceDir: string): void {
  if (!fs.existsSync(filesDir)) throw new Error(`The task's starter files are missing: ${filesDir} does not exist`);
  fs.mkdirSync(workspaceDir, { recursive: true });
  fs.cpSync(filesDir, workspaceDir, { recursive: true });
}

/** The baseline recorded in `<taskDir>/baseline.json`, or null when none has been measured yet. */
export function loadBaseline(taskDir: string): Baseline | null {
  const file = path.join(taskDir, "baseline.json");
  if (!fs.existsSync(file)) return null;
  const parsed = BaselineSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a valid baseline record: ${parsed.error.message}`);
  return parsed.data;
}

/** Where an offline competition's preparer wrote its files: `public` (for the workspace) and `private` (answers). */
export interface PreparedData {
  public: string;
  private: string;
  /** Deletes both folders. */
  cleanup(): void;
}

/**
 * Run an offline competition's own preparer into a fresh temporary folder, so a task gets exactly
 * the competition's deterministic split without downloading anything.
 */
export async function prepareOfflineData(spec: OfflineSpec): Promise<PreparedData> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mlab-offline-"));
  const cleanup = () => fs.rmSync(root, { recursive: true, force: true });
  try {
    const exported = path.join(root, "sources");
    fs.mkdirSync(exported);
    const sources = materializeSources(spec.sources, exported);
    const pub = path.join(root, "public");
    const priv = path.join(root, "private");
    fs.mkdirSync(pub);
    fs.mkdirSync(priv);
    await (await spec.preparer()).prepare({ sources, public: pub, private: priv });
    // The exports hold the whole dataset, labels included: gone before anything sees the folder.
    fs.rmSync(exported, { recursive: true, force: true });
    return { public: pub, private: priv, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}

/** What a research task built on an offline competition's data needs to say about itself. */
export interface OfflineTaskSpec {
  name: string;
  statement: string;
  metric: string;
  /** The competition whose split, answers and grader the task reuses. */
  competition: Competition;
  /** Folder holding the starter code (train.py). */
  filesDir: string;
  /** Folder holding the task's baseline.json. */
  taskDir: string;
  /** Limit on one run of train.py when scoring, ms. */
  timeoutMs: number;
  /** Workspace files the agent may not change; default: train.csv, test.csv and sample_submission.csv. */
  readOnly?: string[];
  /** What improvement is measured on (see `ResearchTask.improvementOf`); default the score. */
  improvementOf?: ImprovementOf;
}

// The split is deterministic, so each competition's answers are prepared once per process and kept in memory.
const answersCache = new Map<string, Promise<Table>>();

/** The hidden test labels of `competition`, prepared outside any workspace. */
export function loadAnswers(competition: Competition): Promise<Table> {
  let answers = answersCache.get(competition.id);
  if (!answers) {
    answers = (async () => {
      const data = await prepareOfflineData(offlineSpec(competition));
      try {
        return readCsv(path.join(data.private, competition.answers));
      } finally {
        data.cleanup();
      }
    })();
    answersCache.set(competition.id, answers);
    answers.catch(() => answersCache.delete(competition.id));
  }
  return answers;
}

function offlineSpec(competition: Competition): OfflineSpec {
  if (!competition.offline) throw new Error(`Competition ${competition.id} has no offline data`);
  return competition.offline;
}

/** Read `<workspaceDir>/submission.csv` as a table; InvalidSubmissionError when it is missing or is not CSV. */
export function readSubmission(workspaceDir: string): Table {
  const file = path.join(workspaceDir, "submission.csv");
  if (!fs.existsSync(file)) throw new InvalidSubmissionError("submission.csv is missing from the workspace: train.py must write it");
  try {
    return readCsv(file, { file: "submission.csv" });
  } catch (e) {
    throw new InvalidSubmissionError(`submission.csv cannot be read as CSV: ${(e as Error).message}`);
  }
}

/** Grade `<workspaceDir>/submission.csv` with the competition's own grader; InvalidSubmissionError when it cannot be graded. */
export async function gradeSubmission(competition: Competition, workspaceDir: string): Promise<number> {
  const submission = readSubmission(workspaceDir);
  const answers = await loadAnswers(competition);
  const { grade } = await loadGrader(competition);
  try {
    return grade(submission, answers);
  } catch (e) {
    if (e instanceof InvalidSubmissionError) throw new InvalidSubmissionError(`submission.csv is not valid: ${e.message}`);
    throw e;
  }
}

/**
 * Run the workspace's train.py once, as a task's evaluator does before grading: a stale submission.csv is
 * deleted first, and a missing script, a time-out or a non-zero exit is an InvalidSubmissionError.
 */
export async function runTrainScript(workspaceDir: string, runner: TaskRunner, timeoutMs: number): Promise<void> {
  if (!fs.existsSync(path.join(workspaceDir, "train.py"))) throw new InvalidSubmissionError("train.py is missing from the workspace");
  // A stale submission must not be scored in place of what train.py now writes.
  fs.rmSync(path.join(workspaceDir, "submission.csv"), { force: true });
  const run = await runner({ argv: [PYTHON, "train.py"], timeoutMs, outputLimit: 64_000 });
  if (run.timedOut) throw new InvalidSubmissionError(`train.py did not finish within ${timeoutMs / 1000} s`);
  if (run.exitCode !== 0) {
    const tail = (run.stderr || run.stdout).trim().split("\n").slice(-15).join("\n");
    throw new InvalidSubmissionError(`train.py failed with exit code ${run.exitCode}:\n${tail}`);
  }
}

/** A research task whose workspace holds an offline competition's public files and a baseline train.py. */
export function offlineResearchTask(spec: OfflineTaskSpec): ResearchTask {
  const offline = offlineSpec(spec.competition);
  return {
    name: spec.name,
    statement: spec.statement,
    metric: spec.metric,
    direction: "higher",
    improvementOf: spec.improvementOf ?? "score",
    filesDir: spec.filesDir,
    readOnly: spec.readOnly ?? ["train.csv", "test.csv", "sample_submission.csv"],
    needsDownload: false,
    hiddenSources: () => hiddenSources(spec.competition),
    baseline: loadBaseline(spec.taskDir),
    async prepare(workspaceDir: string): Promise<void> {
      const data = await prepareOfflineData(offline);
      try {
        copyStarterFiles(spec.filesDir, workspaceDir);
        // Only the public side is copied: the answers never reach the workspace.
        copyStarterFiles(data.public, workspaceDir);
      } finally {
        data.cleanup();
      }
    },
    async score(workspaceDir: string, runner: TaskRunner): Promise<number> {
      await runTrainScript(workspaceDir, runner, spec.timeoutMs);
      return gradeSubmission(spec.competition, workspaceDir);
    },
  };
}
