/**
 * Data for research tasks that download public files: fetch each file (through an optional mirror),
 * check it against its published checksum, unpack it, and build `public/` (copied into workspaces)
 * and `private/` (answers) in a temporary folder that becomes the task's data only when complete.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { InvalidSubmissionError, UserError } from "../../core/errors.js";
import { archiveKind, extractArchive } from "../../io/extract.js";
import { downloadToFile, HttpStatusError, redactUrl, TransferError } from "../../sources/kaggle/download.js";
import { withRetries, type RetryPolicy } from "../../core/retry.js";
import { makeEvalDir } from "./eval-io.js";
import { PYTHON } from "./runner.js";
import { copyStarterFiles, loadBaseline } from "./starter.js";
import type { Direction, ResearchTask, TaskContext, TaskRunner } from "./types.js";

/** One file a task downloads, with what it must hash to. */
export interface DownloadSpec {
  /** The public URL (its scheme and host are replaced by `ctx.mirror` when one is set). */
  url: string;
  /** File name under `<dataDir>/raw/`. */
  file: string;
  /** Published MD5 of the file, lower-case hex. */
  md5?: string;
  /** Published SHA-256 of the file, lower-case hex. */
  sha256?: string;
  /** Published SHA-1 of the file, lower-case hex (some datasets record only this). */
  sha1?: string;
  /** Size in bytes, checked when known (the only check when no checksum is published). */
  size?: number;
  /** Unpack the file after download (default: when its name is an archive's). */
  extract?: boolean;
}

/** The folders a dataset's builder reads and fills. */
export interface BuildFolders {
  /** Downloaded files, as named by `DownloadSpec.file`. */
  raw: string;
  /** Every downloaded archive unpacked here, side by side. */
  extracted: string;
  /** What workspaces get. */
  public: string;
  /** Answers and evaluation data, never copied into a workspace. */
  private: string;
  log: (message: string) => void;
}

/** A task's downloads and how to turn them into `public/` and `private/`. */
export interface UrlDataset {
  /** The task's name, for messages. */
  task: string;
  downloads: readonly DownloadSpec[];
  /** Fill `public` and `private` from `raw` and `extracted`; throw a UserError naming what is wrong in the files. */
  build(folders: BuildFolders): Promise<void>;
}

/** Options of {@link fetchUrlDataset} that only tests and unusual setups change. */
export interface FetchOptions {
  /** How often a failed transfer is tried again (default: 4 retries from 2 s). */
  retry?: RetryPolicy;
  /** Give up on a connection that delivers nothing for this long, ms (default 60 s). */
  idleTimeoutMs?: number;
}

const DEFAULT_RETRY: RetryPolicy = { retries: 4, backoffMs: 2000, maxDelayMs: 60_000, jitter: true };
/** Written last by a successful preparation; its absence means the data is missing or half-built. */
export const READY_MARKER = ".prepared.json";

/** `url` with its scheme and host replaced by `mirror` (path and query kept); `url` itself when no mirror is set. */
export function mirrorUrl(url: string, mirror: string | undefined): string {
  if (!mirror) return url;
  const u = new URL(url);
  return `${mirror.replace(/\/+$/, "")}${u.pathname}${u.search}`;
}

/** Hex digest of a file, read in a stream so multi-GB archives need no memory. */
export async function fileDigest(file: string, algorithm: "md5" | "sha1" | "sha256"): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Check `file` against the checksum (or, failing one, the size) `spec` records; on a mismatch the file
 * is deleted and a UserError names the URL, the expected and the actual value.
 */
export async function verifyDownload(file: string, spec: DownloadSpec, shownUrl = redactUrl(spec.url)): Promise<void> {
  const fail = (what: string, expected: string | number, actual: string | number): never => {
    fs.rmSync(file, { force: true });
    throw new UserError(
      `${shownUrl}: the downloaded file has ${what} ${actual} but ${expected} was expected, so it was deleted. ` +
        `Try again; if it keeps happening the file on the server (or the mirror) differs from the published one.`,
    );
  };
  const size = fs.statSync(file).size;
  if (spec.size !== undefined && size !== spec.size) fail("size", `${spec.size} bytes`, `${size} bytes`);
  if (spec.sha256) {
    const actual = await fileDigest(file, "sha256");
    if (actual !== spec.sha256.toLowerCase()) fail("SHA-256", spec.sha256, actual);
  } else if (spec.md5) {
    const actual = await fileDigest(file, "md5");
    if (actual !== spec.md5.toLowerCase()) fail("MD5", spec.md5, actual);
  } else if (spec.sha1) {
    const actual = await fileDigest(file, "sha1");
    if (actual !== spec.sha1.toLowerCase()) fail("SHA-1", spec.sha1, actual);
  }
}

function retryVerdict(err: unknown): { retryAfterMs: number | null } | null {
  if (err instanceof TransferError) return err.retryable ? { retryAfterMs: null } : null;
  if (err instanceof HttpStatusError) return err.status >= 500 || err.status === 429 ? { retryAfterMs: err.retryAfterMs } : null;
  return null;
}

function describeFailure(err: unknown, url: string): Error {
  if (err instanceof UserError) return err;
  if (err instanceof HttpStatusError) {
    const hint = err.status === 404 ? " (the file is not there: the URL or the mirror is wrong)" : "";
    return new UserError(`Downloading ${url} failed: HTTP ${err.status}${hint}`);
  }
  return new UserError(`Downloading ${url} failed: ${(err as Error).message}`);
}

/** Download one file into `rawDir` (resuming a partial earlier attempt) unless a verified copy is already there. */
export async function fetchFile(spec: DownloadSpec, rawDir: string, ctx: TaskContext, options: FetchOptions = {}): Promise<string> {
  const dest = path.join(rawDir, spec.file);
  const url = mirrorUrl(spec.url, ctx.mirror);
  const shown = redactUrl(url);
  const log = ctx.log ?? (() => {});
  if (fs.existsSync(dest)) {
    try {
      await verifyDownload(dest, spec, shown);
      return dest;
    } catch {
      log(`${spec.file}: the copy in ${rawDir} does not match its checksum; downloading it again`);
    }
  }
  if (!spec.md5 && !spec.sha256 && !spec.sha1) log(`${spec.file}: no checksum is published for ${spec.url}; only its ${spec.size === undefined ? "contents" : "size"} can be checked`);
  log(`Downloading ${shown}`);
  await withRetries(
    () => downloadToFile({ url, dest, timeoutMs: options.idleTimeoutMs, onProgress: ctx.onProgress }),
    options.retry ?? DEFAULT_RETRY,
    {
      classify: retryVerdict,
      notRetryable: (err) => describeFailure(err, shown),
      exhausted: (err, attempts) => {
        const e = describeFailure(err, shown);
        e.message += ` (gave up after ${attempts} attempts; run the command again to resume)`;
        return e;
      },
      onRetry: (err, attempt, delayMs) => log(`${shown}: ${(err as Error).message}; retry ${attempt} in ${Math.round(delayMs / 1000)} s`),
    },
  );
  await verifyDownload(dest, spec, shown);
  return dest;
}

/** Whether process `pid` is still running on this machine. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Delete the build folders of earlier preparations whose process died before finishing (never a live one's). */
function removeAbandonedBuilds(dataDir: string): void {
  for (const name of fs.readdirSync(dataDir)) {
    const m = /^\.building-(\d+)-/.exec(name);
    if (m && !isAlive(Number(m[1]))) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
  }
}

/** Whether a complete preparation of the task's data is in `ctx.dataDir`. */
export function isUrlDataReady(ctx: TaskContext): boolean {
  return ["public", "private", READY_MARKER].every((p) => fs.existsSync(path.join(ctx.dataDir, p)));
}

/** Throw the UserError that tells the user to prepare task `name` when its data is not ready. */
export function requireUrlData(name: string, ctx: TaskContext): void {
  if (!isUrlDataReady(ctx)) {
    throw new UserError(`The data of research task "${name}" is not prepared in ${ctx.dataDir}: run \`mlebench tasks prepare ${name}\` first`);
  }
}

/**
 * Download, check, unpack and build `dataset` into `ctx.dataDir`: everything is built in a temporary
 * folder and moved into place before the ready marker is written, so a failure leaves the task not ready
 * (and the downloaded files in `raw/` for the next attempt). A no-op when the data is already ready.
 */
export async function fetchUrlDataset(dataset: UrlDataset, ctx: TaskContext, options: FetchOptions = {}): Promise<void> {
  if (isUrlDataReady(ctx)) return;
  const log = ctx.log ?? (() => {});
  const raw = path.join(ctx.dataDir, "raw");
  fs.mkdirSync(raw, { recursive: true });
  fs.rmSync(path.join(ctx.dataDir, READY_MARKER), { force: true });
  removeAbandonedBuilds(ctx.dataDir);
  const files: string[] = [];
  for (const spec of dataset.downloads) files.push(await fetchFile(spec, raw, ctx, options));

  const work = path.join(ctx.dataDir, `.building-${process.pid}-${randomBytes(4).toString("hex")}`);
  const folders: BuildFolders = {
    raw,
    extracted: path.join(work, "extracted"),
    public: path.join(work, "public"),
    private: path.join(work, "private"),
    log,
  };
  try {
    for (const dir of [folders.extracted, folders.public, folders.private]) fs.mkdirSync(dir, { recursive: true });
    for (const [i, spec] of dataset.downloads.entries()) {
      if (spec.extract ?? archiveKind(spec.file) !== null) {
        log(`Unpacking ${spec.file}`);
        await extractArchive(files[i], folders.extracted);
      }
    }
    await dataset.build(folders);
    fs.rmSync(folders.extracted, { recursive: true, force: true });
    for (const side of ["public", "private"] as const) {
      const target = path.join(ctx.dataDir, side);
      fs.rmSync(target, { recursive: true, force: true });
      fs.renameSync(folders[side], target);
    }
    const marker = { task: dataset.task, preparedAt: new Date().toISOString(), files: dataset.downloads.map((d) => d.file) };
    fs.writeFileSync(path.join(ctx.dataDir, READY_MARKER), JSON.stringify(marker, null, 2) + "\n");
    log(`${dataset.task}: data ready in ${ctx.dataDir}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Copy the prepared public data into `workspaceDir`. */
export function copyPublicData(ctx: TaskContext, workspaceDir: string): void {
  fs.mkdirSync(workspaceDir, { recursive: true });
  fs.cpSync(path.join(ctx.dataDir, "public"), workspaceDir, { recursive: true });
}

/** The one folder under `root` called `name` (searched breadth-first), or a UserError naming what the archive lacks. */
export function findFolder(root: string, name: string, archive: string): string {
  const queue = [root];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(dir, entry.name);
      if (entry.name === name) return full;
      queue.push(full);
    }
  }
  throw new UserError(`${archive} does not hold a folder called ${name}; is it the right file?`);
}

/** The last lines of a process's output, for error messages. */
export function outputTail(text: string, lines = 15): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

/**
 * Run `<script>` from the workspace (e.g. train.py) after deleting the output it must write, so a stale
 * output is never scored; InvalidSubmissionError when it fails or runs out of time.
 */
export async function runWorkspaceScript(
  workspaceDir: string,
  runner: TaskRunner,
  script: string,
  timeoutMs: number,
  freshOutputs: string[],
): Promise<void> {
  if (!fs.existsSync(path.join(workspaceDir, script))) throw new InvalidSubmissionError(`${script} is missing from the workspace`);
  for (const out of freshOutputs) fs.rmSync(path.join(workspaceDir, out), { recursive: true, force: true });
  const run = await runner({ argv: [PYTHON, script], timeoutMs, outputLimit: 64_000 });
  if (run.timedOut) throw new InvalidSubmissionError(`${script} did not finish within ${timeoutMs / 1000} s`);
  if (run.exitCode !== 0) {
    throw new InvalidSubmissionError(`${script} failed with exit code ${run.exitCode}:\n${outputTail(run.stderr || run.stdout)}`);
  }
}

/** What an evaluation script of ours reported in its JSON result file. */
export interface EvalReport {
  /** The score; "inf" for an infinite one, which JSON cannot write as a number. */
  score?: number | "inf";
  error?: string;
  [key: string]: unknown;
}

/**
 * Run one of our evaluation scripts (fed on stdin, never left in the workspace) against the workspace,
 * with `privateFiles` copied into a hidden folder of the workspace for the length of the run only: the
 * workspace is the one folder both the harness and a sandbox see. The script gets the folder's name as
 * its first argument and writes `report.json` there.
 */
export async function runEvaluation(options: {
  workspaceDir: string;
  runner: TaskRunner;
  script: string;
  /** Host paths copied into the hidden folder under their base names. */
  privateFiles: string[];
  args?: string[];
  timeoutMs: number;
  env?: Record<string, string>;
  what: string;
}): Promise<number> {
  const io = makeEvalDir(options.workspaceDir, ".eval");
  const ioName = io.name;
  try {
    for (const file of options.privateFiles) fs.cpSync(file, path.join(io.path, path.basename(file)), { recursive: true });
    const run = await options.runner({
      argv: [PYTHON, "-", ioName, ...(options.args ?? [])],
      input: fs.readFileSync(options.script, "utf8"),
      timeoutMs: options.timeoutMs,
      outputLimit: 64_000,
      env: { PYTHONDONTWRITEBYTECODE: "1", ...options.env },
    });
    if (run.timedOut) throw new InvalidSubmissionError(`${options.what} cannot be scored: the evaluation did not finish within ${options.timeoutMs / 1000} s`);
    if (!io.has("report.json")) {
      const output = outputTail(`${run.stdout}\n${run.stderr}`);
      throw new InvalidSubmissionError(`${options.what} cannot be scored: the evaluation ended (exit code ${run.exitCode}) without a result.${output ? `\nLast output:\n${output}` : ""}`);
    }
    let report: EvalReport;
    try {
      report = JSON.parse(io.read("report.json", 1 << 20, options.what).toString("utf8")) as EvalReport;
    } catch (e) {
      if (e instanceof InvalidSubmissionError) throw e;
      throw new InvalidSubmissionError(`${options.what} cannot be scored: the evaluation's report is not valid JSON (${(e as Error).message})`);
    }
    if (report.error !== undefined) throw new InvalidSubmissionError(`${options.what} cannot be scored: ${report.error}`);
    const score = report.score === "inf" ? Infinity : report.score;
    if (typeof score !== "number" || Number.isNaN(score)) {
      throw new InvalidSubmissionError(`${options.what} cannot be scored: the evaluation reported no numeric score`);
    }
    return score;
  } finally {
    io.remove();
  }
}

/** What a research task on downloaded public files says about itself. */
export interface UrlTaskSpec {
  name: string;
  statement: string;
  metric: string;
  direction: Direction;
  /** Folder holding the task's baseline.json, when one has been measured. */
  taskDir: string;
  /** Folder of the starter files. */
  filesDir: string;
  readOnly: string[];
  /** The task's downloads and how they become public data and answers. */
  data: UrlDataset;
  /**
   * When set, scoring first runs the workspace's train.py within this limit, ms, with submission.csv
   * deleted beforehand, so that `score` grades the file this run wrote.
   */
  timeoutMs?: number;
  /** Whether the score is a run time, so only comparable on one machine. */
  machineDependent?: boolean;
  /** Score the workspace once the data is known to be prepared (and train.py has run, with `timeoutMs`). */
  score(workspaceDir: string, runner: TaskRunner, ctx: TaskContext): number | Promise<number>;
}

/** A research task whose data is downloaded from public URLs and built once into public data and answers. */
export function urlResearchTask(spec: UrlTaskSpec): ResearchTask {
  // The rest of the spec (name, statement, metric, direction, filesDir, readOnly, machineDependent) is the task's own.
  const { taskDir, data, timeoutMs, score: grade, ...described } = spec;
  return {
    ...described,
    needsDownload: true,
    hiddenSources: () => [],
    baseline: loadBaseline(taskDir),
    fetchData: (ctx) => fetchUrlDataset(data, ctx),
    isReady: isUrlDataReady,
    async prepare(workspaceDir, ctx) {
      requireUrlData(spec.name, ctx);
      copyStarterFiles(spec.filesDir, workspaceDir);
      copyPublicData(ctx, workspaceDir);
    },
    async score(workspaceDir, runner, ctx) {
      requireUrlData(spec.name, ctx);
      if (timeoutMs !== undefined) await runWorkspaceScript(workspaceDir, runner, "train.py", timeoutMs, ["submission.csv"]);
      return grade(workspaceDir, runner, ctx);
    },
  };
}
