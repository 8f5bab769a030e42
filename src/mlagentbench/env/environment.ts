import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import type { LLMClient } from "../../llm/types.js";
import type { Sandbox } from "../../sandbox/types.js";
import { MAX_PATH_BYTES, openRegular, readOpened, type SkipReason } from "../../io/untrusted.js";
import { ACTIONS, invalidInputMessage, type ActionInfo } from "./actions.js";
import { splitKeepEnds, unifiedDiff } from "./diff.js";
import { listDirectory, pyInt, pySlice, sliceFileLines, walkedBefore, walkWorkspace } from "./files.js";
import { EnvError, resolveInWorkspace, type ResolvedPath } from "./paths.js";
import { appendToFile, createNewFile, ensureRealDirs, entryKind, openBounded, readBounded, Refused, replaceFile, utf8Prefix, type Owner } from "./safe-fs.js";

/** How the environment is set up. */
export interface EnvironmentOptions {
  /** Host path of the workspace the agent works in. */
  workspace: string;
  /** Files (or folders) the agent may read but not write, relative to the workspace. */
  readOnly?: string[];
  /** Where Execute Script runs `python <script>`. */
  sandbox: Sandbox;
  /** The workspace as the sandbox sees it (for a local sandbox, the host path). */
  sandboxWorkspace: string;
  /** The interpreter run by Execute Script (default "python"). */
  python?: string;
  /** Needed by Understand File, the AI edits, Reflection and Retrieval from Research Log. */
  llm?: LLMClient;
  /** The task statement, given to Reflection and Retrieval from Research Log. */
  researchProblem?: string;
  maxSteps: number;
  maxTimeMs: number;
  /** Wall-clock limit of one Execute Script (the remaining episode time also applies). */
  execTimeoutMs: number;
  /** Bytes of a script's stdout and of its stderr kept in the observation. */
  outputCap: number;
  /** trace.json, snapshots/<step>/ and tool_logs/ go here. */
  traceDir: string;
  /**
   * Top-level names that stand for other host folders in the file actions (e.g. "data" for a
   * competition's read-only data). Inside the sandbox the same names must lead to the same folders
   * (symlinks the caller makes); on the host they are resolved here and never followed as links.
   */
  aliases?: Record<string, { host: string; readOnly: boolean }>;
  /** Read-only files shown at a path inside an alias instead of the alias's own (workspace-relative path → host file). */
  overlays?: Record<string, string>;
  /** Files larger than this are listed but not copied into snapshots (default 20 MiB). */
  snapshotMaxBytes?: number;
  /**
   * Where Undo Edit Script takes its backups from (default `<traceDir>/backup`). The workspace's
   * `backup/` folder gets the same copies for the agent to see, but the agent can replace it.
   */
  backupDir?: string;
  /** Who owns the files and folders the environment creates in the workspace (and writable aliases), so the agent's scripts can change them. */
  owner?: Owner;
}

/** One recorded step of the trace. */
export interface TraceStep {
  step: number;
  action: { name: string; args: unknown };
  observation: string;
  /** Seconds since the epoch, as upstream records them. */
  started: number;
  timestamp: number;
  /**
   * Workspace files new or changed since the previous step (copied under snapshots/<step>/) and
   * removed; `skipped` (only when not empty) lists entries newly left out of snapshots and why:
   * links, FIFOs and other non-files, and what lies past the walk's bounds (at most 1,000 a step;
   * `skippedMore` counts the others).
   */
  files: { changed: string[]; deleted: string[]; tooLarge: string[]; skipped?: SkippedEntry[]; skippedMore?: number };
}

/** An entry of the workspace that snapshots leave out. */
export interface SkippedEntry {
  path: string;
  reason: SkipReason;
}

const LOG_FILE = "research_log.log";
const BACKUP_DIR = "backup";
/** Bytes of a file that Read File, Understand File, Inspect Script Lines' output, the AI edits and the research log readers take. */
export const READ_MAX_BYTES = 4 << 20;
/** Largest file Inspect Script Lines scans for its line count. */
export const INSPECT_MAX_BYTES = 1 << 30;
/** Largest file Copy File copies. */
export const COPY_MAX_BYTES = 1 << 30;
/** Bounds of the per-step walk over the workspace for snapshots. */
export const SNAPSHOT_WALK = { maxDepth: 32, maxEntries: 100_000, maxPathBytes: MAX_PATH_BYTES };
/** Skipped entries one trace step lists by name. */
const SKIPPED_LISTED = 1000;
const SHUTDOWN =
  "The environment has shut down because the maximum number of steps or time has been reached. Please submit your final answer.";

/** Thrown by LLM-backed actions when the model call fails; shown as "LLMError: ...". */
class LLMCallError extends Error {}

/** The MLAgentBench action environment over one workspace directory. */
export class Environment {
  readonly workspace: string;
  private readonly opts: EnvironmentOptions;
  private readonly readOnly: Set<string>;
  private readonly aliases: Map<string, string>;
  private readonly overlays: Map<string, string>;
  private readonly steps: TraceStep[] = [];
  private readonly startMs = Date.now();
  private readonly hashes = new Map<string, string>();
  /** What the previous snapshot left out, so the trace lists each entry once, when it appears. */
  private skippedBefore = new Map<string, SkipReason>();
  private readonly backupRoot: string;
  private backupSeq = 0;
  private toolLog = "";

  constructor(opts: EnvironmentOptions) {
    this.opts = opts;
    this.workspace = fs.realpathSync(opts.workspace);
    this.aliases = new Map(Object.entries(opts.aliases ?? {}).map(([name, a]) => [name, fs.realpathSync(a.host)]));
    this.overlays = new Map(Object.entries(opts.overlays ?? {}).map(([rel, host]) => [path.posix.normalize(rel), host]));
    // Keyed by the real, normalised path, so "./x", "a/../x" and links to x all hit the same entry.
    this.readOnly = new Set((opts.readOnly ?? []).map((p) => this.resolve(p).rel));
    for (const [name, a] of Object.entries(opts.aliases ?? {})) if (a.readOnly) this.readOnly.add(name);
    this.backupRoot = path.resolve(opts.backupDir ?? path.join(opts.traceDir, "backup"));
    // Upstream's work directory has a backup/ folder from the start; an agent-made entry of that name is left alone.
    ensureRealDirs(this.workspace, [BACKUP_DIR], opts.owner);
    fs.mkdirSync(path.join(opts.traceDir, "snapshots"), { recursive: true });
    fs.mkdirSync(path.join(opts.traceDir, "tool_logs"), { recursive: true });
  }

  /** Whether the episode is over: a Final Answer was given, or the step or time limit is reached. */
  isFinal(): boolean {
    return (
      this.steps.length >= this.opts.maxSteps ||
      this.steps.some((s) => s.action.name === "Final Answer") ||
      Date.now() - this.startMs > this.opts.maxTimeMs
    );
  }

  /** How many steps were taken (without copying the trace). */
  stepCount(): number {
    return this.steps.length;
  }

  /** The steps taken so far. */
  trace(): TraceStep[] {
    return structuredClone(this.steps);
  }

  /** Take one action and return its observation, formatted as upstream does; the trace is saved after it. */
  async step(actionName: string, actionInput: unknown): Promise<string> {
    const started = Date.now() / 1000;
    const index = this.steps.length;
    this.toolLog = "";
    let observation: string;
    if (actionName === "Final Answer") observation = "end";
    else if (this.isFinal()) observation = SHUTDOWN;
    else {
      const info = ACTIONS.find((a) => a.name === actionName);
      if (!info) {
        observation = `Invalid action: ${actionName}. Action did not execute. Please use one of the following actions:\n${ACTIONS.map((a) => a.name).join(", ")}`;
      } else if (actionInput === null || typeof actionInput !== "object" || Array.isArray(actionInput)) {
        observation = invalidInputMessage(info);
      } else {
        observation = await this.run(info, actionInput as Record<string, unknown>);
      }
    }
    if (this.toolLog) fs.writeFileSync(path.join(this.opts.traceDir, "tool_logs", `step_${index}_tool_log.log`), this.toolLog);
    const files = this.snapshot(index);
    this.steps.push({ step: index, action: { name: actionName, args: actionInput }, observation, started, timestamp: Date.now() / 1000, files });
    this.saveTrace();
    return observation;
  }

  private async run(info: ActionInfo, input: Record<string, unknown>): Promise<string> {
    for (const key of Object.keys(info.usage)) {
      const v = input[key];
      if (v === undefined || (!info.lineArgs?.includes(key) && typeof v !== "string")) return "EnvError: " + invalidInputMessage(info);
    }
    const a = input as Record<string, string>;
    try {
      switch (info.name) {
        case "List Files":
          return this.listFiles(a.dir_path!);
        case "Read File":
          return this.readFile(a.file_name!);
        case "Write File":
          this.writeFile(a.file_name!, a.content!, "w");
          return `File ${a.file_name} written successfully.`;
        case "Append File":
          this.writeFile(a.file_name!, a.content!, "a");
          return `File ${a.file_name} appended successfully.`;
        case "Copy File":
          return this.copyFile(a.source!, a.destination!);
        case "Undo Edit Script":
          return this.undo(a.script_name!);
        case "Execute Script":
          return await this.execute(a.script_name!);
        case "Inspect Script Lines":
          return this.inspect(a.script_name!, input.start_line_number, input.end_line_number);
        case "Append Summary to Research Log":
          this.writeFile(LOG_FILE, a.content + "\n", "a");
          return "Successfully appended to research log";
        case "Understand File":
          return await this.understand(a.file_name!, a.things_to_look_for!);
        case "Edit Script (AI)":
          return await this.editScript(a.script_name!, a.edit_instruction!, a.save_name!, null);
        case "Edit Script Segment (AI)": {
          const start = pyInt(input.start_line_number);
          const end = pyInt(input.end_line_number);
          if (start === null || end === null) throw new EnvError("start_line_number and end_line_number must be integers");
          return await this.editScript(a.script_name!, a.edit_instruction!, a.save_name!, [start, end]);
        }
        case "Reflection":
          return await this.reflect(a.things_to_reflect_on!);
        case "Retrieval from Research Log":
          return await this.retrieve(a.current_plan!);
        default:
          return `EnvError: Error executing ${info.name}.`;
      }
    } catch (e) {
      if (e instanceof EnvError) return "EnvError: " + e.message;
      if (e instanceof LLMCallError) return "LLMError: " + e.message;
      return `EnvError: Error executing ${info.name}.`;
    }
  }

  private resolve(given: string): ResolvedPath {
    if (this.aliases.size > 0 && !path.isAbsolute(given) && !given.includes("\0")) {
      const normal = path.posix.normalize(given.split(path.sep).join("/"));
      const overlay = this.overlays.get(normal);
      if (overlay !== undefined && this.aliases.has(normal.split("/")[0]!)) return { rel: normal, abs: overlay };
      const parts = normal.split("/");
      const root = this.aliases.get(parts[0]!);
      if (root !== undefined) {
        const inner = resolveInWorkspace(root, parts.slice(1).join("/") || ".");
        return { rel: inner.rel === "." ? parts[0]! : `${parts[0]}/${inner.rel}`, abs: inner.abs };
      }
    }
    return resolveInWorkspace(this.workspace, given);
  }

  private isReadOnly(rel: string): boolean {
    for (const ro of this.readOnly) if (rel === ro || rel.startsWith(ro + "/")) return true;
    return false;
  }

  private listFiles(dir: string): string {
    const p = this.resolve(dir);
    try {
      return listDirectory(p.abs, dir);
    } catch {
      throw new EnvError(`Cannot list file in the ${dir} directory`);
    }
  }

  /** A file's text, at most READ_MAX_BYTES of it (a longer file is cut, with a line saying so). */
  private readFile(name: string): string {
    const p = this.resolve(name);
    let r: { bytes: Buffer; size: number; truncated: boolean };
    try {
      r = readBounded(p.abs, READ_MAX_BYTES);
    } catch (e) {
      throw readError(name, e);
    }
    if (!r.truncated) return r.bytes.toString("utf8");
    return utf8Prefix(r.bytes).toString("utf8") + `\n[file cut at ${READ_MAX_BYTES} of its ${r.size} bytes]`;
  }

  private writable(name: string): ResolvedPath {
    const p = this.resolve(name);
    if (this.isReadOnly(p.rel)) throw new EnvError(`cannot write file ${name} because it is a read-only file.`);
    return p;
  }

  private writeFile(name: string, content: string, mode: "w" | "a"): void {
    const p = this.writable(name);
    const verb = mode === "w" ? "write" : "append";
    try {
      if (mode === "w") replaceFile(p.abs, [Buffer.from(content, "utf8")], { owner: this.opts.owner });
      else appendToFile(p.abs, Buffer.from(content, "utf8"), { owner: this.opts.owner, maxCopyBytes: COPY_MAX_BYTES });
    } catch (e) {
      if (isNotRegular(e)) throw new EnvError(`cannot ${verb} file ${name}: it is not a regular file`);
      throw new EnvError(`cannot ${verb} file ${name}`);
    }
  }

  private copyFile(source: string, destination: string): string {
    const src = this.resolve(source);
    const dst = this.resolve(destination);
    if (this.isReadOnly(dst.rel)) throw new EnvError(`cannot write file ${destination} because it is a read-only file.`);
    const failed = `File ${source} copy to ${destination} failed`;
    const invalid = new EnvError(`${failed}. Check whether the source and destinations are valid.`);
    let from: { fd: number; size: number; mode: number };
    try {
      from = openBounded(src.abs, COPY_MAX_BYTES);
    } catch (e) {
      if (isNotRegular(e)) throw new EnvError(`${failed}: ${source} is not a regular file.`);
      if (e instanceof Refused && e.kind === "too large") throw new EnvError(`${failed}: ${source} is larger than ${sizeText(COPY_MAX_BYTES)}.`);
      throw invalid;
    }
    try {
      // The copy gets the source's permission bits (never set-id bits: the harness may be root).
      replaceFile(dst.abs, [{ fd: from.fd, size: from.size }], { owner: this.opts.owner, mode: from.mode });
    } catch (e) {
      if (isNotRegular(e)) throw new EnvError(`${failed}: ${destination} is not a regular file.`);
      throw invalid;
    } finally {
      fs.closeSync(from.fd);
    }
    return `File ${source} copied to ${destination}`;
  }

  /** Backups of a script in the harness's own folder, oldest first; named <script>_<UTC time>_<sequence> so names sort by age. */
  private backups(rel: string): string[] {
    const dir = path.join(this.backupRoot, path.dirname(rel));
    const base = path.basename(rel);
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return [];
    }
    const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const re = new RegExp(`^${escaped}_\\d{4}-\\d\\d-\\d\\d_\\d\\d-\\d\\d-\\d\\d_\\d{6}$`);
    return names.filter((n) => re.test(n)).sort().map((n) => path.join(dir, n));
  }

  /** The workspace's backup/ folder levels holding the copies of `rel`'s backups. */
  private mirrorParts(rel: string): string[] {
    return [BACKUP_DIR, ...path.posix.dirname(rel).split("/").filter((s) => s !== "" && s !== ".")];
  }

  /** Keep `bytes` as the newest backup of `p`; returns its name. */
  private backup(p: ResolvedPath, bytes: Buffer): string {
    const dir = path.join(this.backupRoot, path.dirname(p.rel));
    fs.mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().slice(0, 19).replace("T", "_").replace(/:/g, "-");
    const seq = String(this.backupSeq++ % 1_000_000).padStart(6, "0");
    const name = `${path.basename(p.rel)}_${stamp}_${seq}`;
    fs.writeFileSync(path.join(dir, name), bytes, { flag: "wx" });
    // The agent sees its backups in backup/, as upstream has them; if it made that something else, it goes without.
    const mirror = ensureRealDirs(this.workspace, this.mirrorParts(p.rel), this.opts.owner);
    if (mirror !== null) {
      try {
        createNewFile(path.join(mirror, name), bytes, this.opts.owner);
      } catch {
        // The harness's copy is the one Undo uses.
      }
    }
    return name;
  }

  private dropBackup(rel: string, name: string): void {
    fs.rmSync(path.join(this.backupRoot, path.dirname(rel), name), { force: true });
    let dir = this.workspace;
    for (const part of this.mirrorParts(rel)) {
      dir = path.join(dir, part);
      if (entryKind(dir) !== "directory") return;
    }
    const copy = path.join(dir, name);
    if (entryKind(copy) === "file") fs.rmSync(copy, { force: true });
  }

  private undo(script: string): string {
    const p = this.resolve(script);
    const list = this.backups(p.rel);
    const last = list[list.length - 1];
    if (!last) throw new EnvError("There is no change to undo.");
    if (this.isReadOnly(p.rel)) throw new EnvError(`cannot write file ${script} because it is a read-only file.`);
    try {
      const saved = readBounded(last, READ_MAX_BYTES);
      if (saved.truncated) throw new Error("backup larger than any script an edit reads");
      replaceFile(p.abs, [saved.bytes], { owner: this.opts.owner });
      this.dropBackup(p.rel, path.basename(last));
      return `Content of ${script} after undo the most recent edit:\n` + saved.bytes.toString("utf8");
    } catch {
      throw new EnvError(`Cannot undo the edit of file name ${script}. Check the file name again.`);
    }
  }

  private async execute(script: string): Promise<string> {
    const p = this.resolve(script);
    if (!fs.existsSync(p.abs)) throw new EnvError(`The file ${script} does not exist.`);
    const remaining = this.opts.maxTimeMs - (Date.now() - this.startMs);
    const timeoutMs = Math.max(1, Math.min(this.opts.execTimeoutMs, remaining));
    const result = await this.opts.sandbox.exec([this.opts.python ?? "python", "-u", p.rel], {
      cwd: this.opts.sandboxWorkspace,
      timeoutMs,
      outputLimit: this.opts.outputCap,
      env: { PYTHONUNBUFFERED: "1" },
    });
    const ok = result.exitCode === 0;
    let output = ok ? result.stdout : result.stderr;
    if (output === "" && ok) output = result.stderr;
    if (result.truncated) output += `\n[output cut at ${this.opts.outputCap} bytes]`;
    if (result.reason === "time_limit") output += `\n[the script was stopped after ${Math.round(timeoutMs / 1000)} seconds, its time limit]`;
    return "The script has been executed. Here is the output:\n" + output;
  }

  private inspect(script: string, startArg: unknown, endArg: unknown): string {
    const start = pyInt(startArg);
    const end = pyInt(endArg);
    if (start === null || end === null) throw new EnvError("start_line_number and end_line_number must be integers");
    if (end - start > 100) throw new EnvError("the number of lines to display is limited to 100 lines");
    const notFound = new EnvError(`cannot find script ${script}`);
    let f: { fd: number; size: number };
    try {
      f = openBounded(this.resolve(script).abs, INSPECT_MAX_BYTES);
    } catch (e) {
      if (isNotRegular(e)) throw new EnvError(`cannot read file ${script}: it is not a regular file`);
      if (e instanceof Refused && e.kind === "too large") throw new EnvError(`cannot read file ${script}: it is larger than ${sizeText(INSPECT_MAX_BYTES)}`);
      throw notFound;
    }
    try {
      const got = sliceFileLines(f.fd, f.size, Math.max(start - 1, 0), end, READ_MAX_BYTES);
      const note = got.cut ? `\n[lines cut at ${READ_MAX_BYTES} bytes]` : "";
      return `Here are the lines (the file ends at line ${got.lines}):\n\n` + got.text + note;
    } catch {
      throw notFound;
    } finally {
      fs.closeSync(f.fd);
    }
  }

  private async ask(prompt: string, maxTokens?: number): Promise<string> {
    const llm = this.opts.llm;
    if (!llm) throw new LLMCallError("no LLM is configured for this environment");
    this.toolLog += `===== prompt =====\n${prompt}\n`;
    try {
      const result = await llm.complete({ messages: [{ role: "user", content: prompt }], ...(maxTokens ? { maxTokens } : {}) });
      this.toolLog += `===== completion (${llm.model}, ${result.usage.inputTokens} in / ${result.usage.outputTokens} out) =====\n${result.text}\n`;
      return result.text;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.toolLog += `===== error =====\n${message}\n`;
      throw new LLMCallError(message);
    }
  }

  private async understand(file: string, lookFor: string): Promise<string> {
    const blocks = splitBlocks(this.readFile(file).split("\n"));
    const notes: string[] = [];
    for (const b of blocks) {
      notes.push(
        await this.ask(
          `Below is part of a file (lines ${b.first} to ${b.last}).\n\`\`\`\n${b.text}\n\`\`\`\n` +
            `Report on the following, citing the relevant lines: ${lookFor}\n` +
            `State only what the text shows; do not guess numbers. If something asked for is not in this part, say "In this segment, I cannot find ...".`,
        ),
      );
    }
    if (notes.length === 1) return notes[0]!;
    const joined = notes.map((n, i) => `Part ${i + 1}:\n\n${n}`).join("\n\n");
    return this.ask(`Notes on successive parts of one file follow. Merge them into one coherent report on: ${lookFor}\n\n${joined}`);
  }

  private async editScript(script: string, instruction: string, saveName: string, range: [number, number] | null): Promise<string> {
    const src = this.resolve(script);
    const dst = this.writable(saveName);
    let originalBytes: Buffer;
    try {
      const r = readBounded(src.abs, READ_MAX_BYTES);
      if (r.truncated) throw new EnvError(`cannot read file ${script}: it is larger than ${sizeText(READ_MAX_BYTES)}`);
      originalBytes = r.bytes;
    } catch (e) {
      if (e instanceof EnvError) throw e;
      if (isNotRegular(e)) throw new EnvError(`cannot read file ${script}: it is not a regular file`);
      this.writeFile(script, "", "w");
      originalBytes = Buffer.alloc(0);
    }
    const original = originalBytes.toString("utf8");
    const lines = original.split("\n");
    const segment = range ? pySlice(lines, Math.max(range[0] - 1, 0), range[1]).join("\n") : original;
    const what = range ? "a segment of a python script" : "a python script";
    const completion = await this.ask(
      `Here is ${what}:\n\`\`\`python\n${segment}\n\`\`\`\nApply this edit and change nothing else:\n${instruction}\n` +
        `Answer with the complete edited code in one block that starts with "\`\`\`python".`,
      4000,
    );
    const parts = completion.split("```python");
    if (parts.length < 2) throw new Error("no python block in the completion");
    const edited = parts[1]!.split("```")[0]!.trim();
    const updated = range
      ? pySlice(lines, null, range[0] - 1).join("\n") + "\n" + edited + "\n" + pySlice(lines, range[1], null).join("\n")
      : edited;
    const saved = this.backup(src, originalBytes);
    try {
      replaceFile(dst.abs, [Buffer.from(updated, "utf8")], { owner: this.opts.owner });
    } catch (e) {
      // An edit that was not saved leaves nothing to undo.
      this.dropBackup(src.rel, saved);
      if (isNotRegular(e)) throw new EnvError(`cannot write file ${saveName}: it is not a regular file`);
      throw e;
    }
    // Upstream diffs the segment it showed the model against the whole new file; kept for the same observations.
    const diff = unifiedDiff(splitKeepEnds(segment), splitKeepEnds(updated));
    return `The edited file is saved to ${saveName}. Here is the diff, please check if the edit is correct and desirable:\n\n` + diff;
  }

  private async reflect(question: string): Promise<string> {
    const log = this.readFile(LOG_FILE);
    const text = await this.ask(
      `The research problem: ${this.opts.researchProblem ?? ""}\nThe research log so far:\n\`\`\`\n${log}\n\`\`\`\n` +
        `Reflect on: ${question}\nAnswer in plain paragraphs, and be truthful.`,
    );
    return `Reflection: ${text}\n`;
  }

  private async retrieve(plan: string): Promise<string> {
    const log = this.readFile(LOG_FILE);
    return this.ask(
      `The research problem: ${this.opts.researchProblem ?? ""}\nThe current research plan and status:\n${plan}\n\n` +
        `The research log so far:\n\`\`\`\n${log}\n\`\`\`\nList, briefly, everything in the log that will help with the next steps.`,
    );
  }

  /**
   * Copy files that changed since the last step into snapshots/<step>/ and say which changed or
   * vanished. The walk is bounded and follows no link; a file is hashed and copied from one
   * descriptor opened without following links, so a link, FIFO or device is never read.
   */
  private snapshot(index: number): TraceStep["files"] {
    const relInside = (dir: string): string | null => {
      const rel = path.relative(this.workspace, path.resolve(dir)).split(path.sep).join("/");
      return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : null;
    };
    const traceRel = relInside(this.opts.traceDir);
    const backupRel = relInside(this.backupRoot);
    const under = (rel: string, base: string | null): boolean => base !== null && (rel === base || rel.startsWith(base + "/"));
    const prune = (rel: string): boolean => this.isReadOnly(rel) || this.aliases.has(rel) || under(rel, traceRel) || under(rel, backupRel);
    const limit = this.opts.snapshotMaxBytes ?? 20 << 20;
    const walk = walkWorkspace(this.workspace, prune, SNAPSHOT_WALK);
    const seen = new Set<string>();
    const changed: string[] = [];
    const tooLarge: string[] = [];
    const skippedNow = new Map<string, SkipReason>(walk.skipped.map((s) => [s.rel, s.why]));
    for (const f of walk.files) {
      seen.add(f.rel);
      const why = this.snapshotFile(f.rel, f.abs, index, limit, changed, tooLarge);
      if (why) skippedNow.set(f.rel, why);
    }
    // What the walk did not enter may still hold files it saw before; those are not reported deleted.
    const unentered = new Set(walk.skipped.filter((s) => s.why === "unreadable" || s.why === "too deep" || s.why === "path too long").map((s) => s.rel));
    const walked = (rel: string): boolean => {
      const parts = rel.split("/");
      if (unentered.has(".") || !walkedBefore(parts, walk.cut)) return false;
      for (let i = 1; i < parts.length; i++) if (unentered.has(parts.slice(0, i).join("/"))) return false;
      return true;
    };
    const deleted = [...this.hashes.keys()].filter((k) => !seen.has(k) && walked(k));
    for (const k of deleted) this.hashes.delete(k);
    const skipped: SkippedEntry[] = [];
    let skippedMore = 0;
    for (const [rel, why] of skippedNow) {
      if (this.skippedBefore.get(rel) === why) continue;
      if (skipped.length < SKIPPED_LISTED) skipped.push({ path: rel, reason: why });
      else skippedMore++;
    }
    this.skippedBefore = skippedNow;
    if (skipped.length === 0) return { changed, deleted, tooLarge };
    return skippedMore > 0 ? { changed, deleted, tooLarge, skipped, skippedMore } : { changed, deleted, tooLarge, skipped };
  }

  /** Hash one walked file and copy it when it changed; returns why it was left out, if it was. */
  private snapshotFile(rel: string, abs: string, index: number, limit: number, changed: string[], tooLarge: string[]): SkipReason | null {
    const opened = openRegular(abs);
    if ("skipped" in opened) return opened.skipped;
    try {
      const st = fs.fstatSync(opened.fd);
      if (st.size > limit) {
        const hash = `size:${st.size}:${st.mtimeMs}`;
        if (this.hashes.get(rel) !== hash) {
          this.hashes.set(rel, hash);
          tooLarge.push(rel);
        }
        return null;
      }
      const data = readOpened(opened.fd, st.size, limit).bytes;
      const hash = createHash("sha256").update(data).digest("hex");
      if (this.hashes.get(rel) === hash) return null;
      const dest = path.join(this.opts.traceDir, "snapshots", String(index), rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, data);
      this.hashes.set(rel, hash);
      changed.push(rel);
      return null;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ENAMETOOLONG" ? "path too long" : "unreadable";
    } finally {
      fs.closeSync(opened.fd);
    }
  }

  private saveTrace(): void {
    const trace = {
      task_description: this.opts.researchProblem ?? "",
      read_only_files: [...this.readOnly],
      action_infos: ACTIONS.map((a) => ({ name: a.name, description: a.description, usage: a.usage, return_value: a.returnValue })),
      steps: this.steps,
    };
    writeFileAtomic(path.join(this.opts.traceDir, "trace.json"), JSON.stringify(trace, null, 2) + "\n");
  }
}

/** Upstream's chunking for Understand File: runs of lines under 10 000 characters; a longer line is cut in pieces. */
function splitBlocks(lines: string[]): { text: string; first: number; last: number }[] {
  const blocks: { text: string; first: number; last: number }[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = i + 1;
    const block: string[] = [];
    let size = 0;
    while (i < lines.length && size + lines[i]!.length < 10000) {
      size += lines[i]!.length + (block.length ? 1 : 0);
      block.push(lines[i]!);
      i++;
    }
    if (block.length) blocks.push({ text: block.join("\n"), first, last: i });
    else {
      for (let c = 0; c < lines[i]!.length; c += 10000) blocks.push({ text: lines[i]!.slice(c, c + 10000), first, last: first });
      i++;
    }
  }
  return blocks;
}

function isNotRegular(e: unknown): boolean {
  return e instanceof Refused && (e.kind === "special" || e.kind === "link");
}

function readError(name: string, e: unknown): EnvError {
  return isNotRegular(e) ? new EnvError(`cannot read file ${name}: it is not a regular file`) : new EnvError(`cannot read file ${name}`);
}

/** "4 MiB", "1 GiB": a bound as the observations state it. */
function sizeText(bytes: number): string {
  return bytes >= 1 << 30 && bytes % (1 << 30) === 0 ? `${bytes / (1 << 30)} GiB` : bytes % (1 << 20) === 0 ? `${bytes / (1 << 20)} MiB` : `${bytes} bytes`;
}
