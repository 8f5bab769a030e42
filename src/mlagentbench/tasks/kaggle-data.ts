/**
 * What the research tasks built on Kaggle competitions share: downloading a competition's files,
 * splitting them into a public part (copied into workspaces) and a private part (answers) once and
 * atomically, and reading the submission.csv a workspace's train.py writes, for grading.
 */
import fs from "node:fs";
import path from "node:path";
import { InvalidSubmissionError, UserError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { dropColumns, selectColumns, takeRows } from "../../prepare/frame.js";
import { sampleIndices } from "../../rng/pandas-sample.js";
import { KaggleClient, loadKaggleCredentials, missingCredentialsMessage } from "../../sources/kaggle/index.js";
import { copyStarterFiles, loadBaseline, runTrainScript } from "./starter.js";
import type { Direction, ResearchTask, TaskContext } from "./types.js";

/** Written into `<dataDir>` last, once public/ and private/ are complete; isReady looks for it. */
export const READY_MARKER = "prepared.json";

/** The folders of a Kaggle task's data: raw download, what workspaces get, and the answers. */
export interface TaskDataPaths {
  raw: string;
  public: string;
  private: string;
  marker: string;
}

/** Where a task keeps its downloaded and prepared data inside `ctx.dataDir`. */
export function taskDataPaths(ctx: TaskContext): TaskDataPaths {
  return {
    raw: path.join(ctx.dataDir, "raw"),
    public: path.join(ctx.dataDir, "public"),
    private: path.join(ctx.dataDir, "private"),
    marker: path.join(ctx.dataDir, READY_MARKER),
  };
}

/** Whether a complete preparation of the task's data is in `ctx.dataDir`. */
export function isTaskDataReady(ctx: TaskContext): boolean {
  const p = taskDataPaths(ctx);
  return fs.existsSync(p.marker) && fs.existsSync(p.public) && fs.existsSync(p.private);
}

/** Splits the extracted competition files in `raw` into `pub` (for workspaces) and `priv` (answers). */
export type SplitFn = (raw: string, pub: string, priv: string, ctx: TaskContext) => void | Promise<void>;

/** Download competition `competition` from Kaggle into `<raw>/files/` (extracted) unless it is already there. */
export async function downloadCompetition(competition: string, ctx: TaskContext): Promise<string> {
  const env = ctx.env ?? process.env;
  const raw = taskDataPaths(ctx).raw;
  const files = path.join(raw, "files");
  if (fs.existsSync(files)) return files;
  const auth = loadKaggleCredentials(env as NodeJS.ProcessEnv);
  if (!auth) throw new UserError(`Downloading the data of Kaggle competition "${competition}" needs Kaggle credentials. ${missingCredentialsMessage()}`);
  const baseUrl = env.MLEBENCH_KAGGLE_API_URL?.trim() || undefined;
  const client = new KaggleClient({
    auth,
    baseUrl,
    onRetry: (info) => ctx.log?.(`Kaggle: retrying ${info.url} in ${Math.round(info.delayMs / 1000)} s (${info.reason})`),
  });
  fs.mkdirSync(raw, { recursive: true });
  const zip = path.join(raw, `${competition}.zip`);
  if (!fs.existsSync(zip)) {
    ctx.log?.(`Downloading ${competition} from Kaggle`);
    // KaggleError is a UserError whose message already says what to do (credentials, rules page).
    await client.downloadAll(competition, zip, { onProgress: ctx.onProgress });
  }
  // Extract beside the final folder and rename, so a half-extracted folder is never taken for a whole one.
  const partial = path.join(raw, "files.partial");
  fs.rmSync(partial, { recursive: true, force: true });
  ctx.log?.(`Extracting ${path.basename(zip)}`);
  await extractArchive(zip, partial);
  fs.renameSync(partial, files);
  // Competition archives can be hundreds of gigabytes; the extracted copy is all that is needed.
  fs.rmSync(zip, { force: true });
  return files;
}

/**
 * Download (when needed) and split a Kaggle competition's data for a task. The split is written
 * into a temporary folder beside the final ones and moved into place only when complete.
 */
export async function fetchKaggleTaskData(competition: string, split: SplitFn, ctx: TaskContext): Promise<void> {
  if (isTaskDataReady(ctx)) return;
  const p = taskDataPaths(ctx);
  fs.mkdirSync(ctx.dataDir, { recursive: true });
  fs.rmSync(p.marker, { force: true });
  const files = await downloadCompetition(competition, ctx);
  const scratch = fs.mkdtempSync(path.join(ctx.dataDir, ".prepare-"));
  try {
    const pub = path.join(scratch, "public");
    const priv = path.join(scratch, "private");
    fs.mkdirSync(pub);
    fs.mkdirSync(priv);
    ctx.log?.(`Preparing ${competition}`);
    await split(files, pub, priv, ctx);
    fs.rmSync(p.public, { recursive: true, force: true });
    fs.rmSync(p.private, { recursive: true, force: true });
    fs.renameSync(pub, p.public);
    fs.renameSync(priv, p.private);
    fs.writeFileSync(p.marker, JSON.stringify({ competition, preparedAt: new Date().toISOString() }) + "\n");
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** A file of the extracted competition, or a UserError naming it when the download lacks it. */
export function rawFile(raw: string, name: string): string {
  const file = path.join(raw, name);
  if (!fs.existsSync(file)) throw new UserError(`The downloaded competition data has no ${name} (looked in ${raw})`);
  return file;
}

/** `<workspaceDir>/submission.csv` as a table with `textColumns` kept as text; InvalidSubmissionError when missing or unreadable. */
export function readSubmissionWithIds(workspaceDir: string, textColumns: readonly string[] = []): Table {
  const file = path.join(workspaceDir, "submission.csv");
  if (!fs.existsSync(file)) throw new InvalidSubmissionError("submission.csv is missing from the workspace: train.py must write it");
  try {
    return readCsv(file, { file: "submission.csv", text: textColumns });
  } catch (e) {
    throw new InvalidSubmissionError(`submission.csv cannot be read as CSV: ${(e as Error).message}`);
  }
}

/** A column of the submission, or an InvalidSubmissionError listing the columns it has. */
export function submissionColumn(t: Table, name: string): Column {
  const col = t.data.get(name);
  if (!col) throw new InvalidSubmissionError(`submission.csv has no column "${name}" (its columns: ${t.columns.join(", ") || "none"})`);
  return col;
}

/** The cells of a column as text (ids); null for a missing cell. */
export function textCells(col: Column): (string | null)[] {
  switch (col.kind) {
    case "string":
      return col.values;
    case "int":
      return Array.from(col.values, (v) => String(v));
    case "float":
      return Array.from(col.values, (v) => (Number.isNaN(v) ? null : String(v)));
    case "bigint":
      return col.values.map((v) => String(v));
    case "bool":
      return Array.from(col.values, (v) => (v ? "True" : "False"));
    case "object":
      return col.values.map((v) => (v === null ? null : v ? "True" : "False"));
  }
}

/**
 * For each id of `answerIds`, the submission row that holds it. Every answer id must appear once;
 * ids the answers do not have are refused unless `allowExtra` (a template's own rows, say).
 */
export function alignRows(submission: Table, idColumn: string, answerIds: readonly string[], allowExtra = false): number[] {
  const ids = textCells(submissionColumn(submission, idColumn));
  const wanted = new Set(answerIds);
  const rowOf = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (id === null) throw new InvalidSubmissionError(`submission.csv row ${i + 1}: ${idColumn} is empty`);
    if (!wanted.has(id)) {
      if (allowExtra) continue;
      throw new InvalidSubmissionError(`submission.csv row ${i + 1}: ${idColumn} "${id}" is not one of the test set's ids`);
    }
    if (rowOf.has(id)) throw new InvalidSubmissionError(`submission.csv row ${i + 1}: ${idColumn} "${id}" appears more than once`);
    rowOf.set(id, i);
  }
  const missing = answerIds.filter((id) => !rowOf.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).join(", ") + (missing.length > 5 ? ", …" : "");
    throw new InvalidSubmissionError(`submission.csv lacks ${missing.length} of the ${answerIds.length} test ids in column ${idColumn} (${shown})`);
  }
  return answerIds.map((id) => rowOf.get(id)!);
}

/** The numbers of a column at `rows`; InvalidSubmissionError (naming `file`) for a missing or non-numeric cell. */
export function numbersAt(table: Table, name: string, rows: readonly number[], file = "submission.csv"): Float64Array {
  const col = table.data.get(name);
  if (!col) throw new InvalidSubmissionError(`${file} has no column "${name}" (its columns: ${table.columns.join(", ") || "none"})`);
  const out = new Float64Array(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    let v: number;
    if (col.kind === "int" || col.kind === "float" || col.kind === "bool") v = col.values[i];
    else if (col.kind === "bigint") v = Number(col.values[i]);
    else {
      const cell = col.values[i];
      throw new InvalidSubmissionError(`${file} row ${i + 1}: ${name} must be a number, got ${cell === null ? "an empty cell" : JSON.stringify(cell)}`);
    }
    if (!Number.isFinite(v)) throw new InvalidSubmissionError(`${file} row ${i + 1}: ${name} must be a finite number, got ${Number.isNaN(v) ? "an empty cell" : v}`);
    out[k] = v;
  }
  return out;
}

/** A private answer file read with `textColumns` as text; a UserError when the prepared data lacks it. */
export function readAnswers(ctx: TaskContext, name: string, textColumns: readonly string[] = []): Table {
  const file = path.join(taskDataPaths(ctx).private, name);
  if (!fs.existsSync(file)) throw new UserError(`The prepared answers ${file} are missing; run \`mlebench tasks prepare\` for this task again`);
  return readCsv(file, { file, text: textColumns });
}

/** What a research task on a Kaggle competition says about itself. */
export interface KaggleTaskSpec {
  name: string;
  /** The Kaggle competition the data comes from. */
  competition: string;
  statement: string;
  metric: string;
  direction: Direction;
  /** Folder of the starter files (train.py and notes). */
  filesDir: string;
  /** Folder holding the task's baseline.json, when one has been measured. */
  taskDir: string;
  readOnly: string[];
  /** Limit on one run of train.py when scoring, ms. */
  timeoutMs: number;
  split: SplitFn;
  /** Score the submission train.py wrote in the workspace against the prepared answers. */
  grade(workspaceDir: string, ctx: TaskContext): number | Promise<number>;
}

/** A research task whose data is downloaded from Kaggle and split once into public data and answers. */
export function kaggleResearchTask(spec: KaggleTaskSpec): ResearchTask {
  return {
    name: spec.name,
    statement: spec.statement,
    metric: spec.metric,
    direction: spec.direction,
    filesDir: spec.filesDir,
    readOnly: spec.readOnly,
    needsDownload: true,
    baseline: loadBaseline(spec.taskDir),
    hiddenSources: () => [],
    fetchData: (ctx) => fetchKaggleTaskData(spec.competition, spec.split, ctx),
    isReady: (ctx) => isTaskDataReady(ctx),
    async prepare(workspaceDir, ctx) {
      if (!isTaskDataReady(ctx)) {
        throw new UserError(`The data of research task "${spec.name}" is not prepared: run \`mlebench tasks prepare ${spec.name}\` first`);
      }
      copyStarterFiles(spec.filesDir, workspaceDir);
      // Only the public side is copied: the answers never reach a workspace.
      copyStarterFiles(taskDataPaths(ctx).public, workspaceDir);
    },
    async score(workspaceDir, runner, ctx) {
      if (!isTaskDataReady(ctx)) {
        throw new UserError(`The answers of research task "${spec.name}" are not prepared: run \`mlebench tasks prepare ${spec.name}\` first`);
      }
      await runTrainScript(workspaceDir, runner, spec.timeoutMs);
      return spec.grade(workspaceDir, ctx);
    },
  };
}

/** How {@link splitTrainFile} cuts a competition's train.csv into the task's train and test parts. */
export interface TrainSplit {
  /** Shuffle first with pandas' `sample(frac=1, random_state=seed)`; keep file order when absent. */
  shuffleSeed?: number;
  /** Share of rows (from the top) kept for training; the rest become the test set. */
  trainFraction: number;
  /** Columns of the test rows written to private/answer.csv. */
  answerColumns: readonly string[];
  /** Columns removed from the test rows written to public/test.csv. */
  hiddenColumns: readonly string[];
}

/** Rows [start, end) as indices. */
export function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i);
}

/**
 * Split `<raw>/train.csv` as MLAgentBench's preparers do: optionally shuffle, keep the first
 * int(n · trainFraction) rows as public/train.csv, and split the remaining rows into
 * public/test.csv (without the hidden columns) and private/answer.csv.
 */
export function splitTrainFile(raw: string, pub: string, priv: string, how: TrainSplit): { train: number; test: number } {
  const file = rawFile(raw, "train.csv");
  let all = readCsv(file, { file });
  if (how.shuffleSeed !== undefined) all = takeRows(all, sampleIndices(all.rowCount, { frac: 1, randomState: how.shuffleSeed }));
  // Python's int() of the product, in the same double arithmetic.
  const cut = Math.trunc(all.rowCount * how.trainFraction);
  const train = takeRows(all, range(0, cut));
  const test = takeRows(all, range(cut, all.rowCount));
  writeCsv(path.join(pub, "train.csv"), train);
  writeCsv(path.join(pub, "test.csv"), dropColumns(test, how.hiddenColumns, file));
  writeCsv(path.join(priv, "answer.csv"), selectColumns(test, how.answerColumns, file));
  return { train: train.rowCount, test: test.rowCount };
}

/** Copy `<raw>/<name>` to `<pub>/<name>` when the download has it (descriptions Kaggle ships with the data). */
export function copyIfPresent(raw: string, pub: string, name: string): void {
  const from = path.join(raw, name);
  if (fs.existsSync(from)) {
    fs.mkdirSync(path.dirname(path.join(pub, name)), { recursive: true });
    fs.copyFileSync(from, path.join(pub, name));
  }
}
