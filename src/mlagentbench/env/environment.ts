import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../io/atomic.js";
import type { LLMClient } from "../../llm/types.js";
import type { Sandbox } from "../../sandbox/types.js";
import { ACTIONS, invalidInputMessage, type ActionInfo } from "./actions.js";
import { splitKeepEnds, unifiedDiff } from "./diff.js";
import { listDirectory, pyInt, pySlice, walkFiles } from "./files.js";
import { EnvError, resolveInWorkspace, type ResolvedPath } from "./paths.js";

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
  /** Files larger than this are listed but not copied into snapshots (default 20 MiB). */
  snapshotMaxBytes?: number;
}

/** One recorded step of the trace. */
export interface TraceStep {
  step: number;
  action: { name: string; args: unknown };
  observation: string;
  /** Seconds since the epoch, as upstream records them. */
  started: number;
  timestamp: number;
  /** Workspace files new or changed since the previous step (copied under snapshots/<step>/) and removed. */
  files: { changed: string[]; deleted: string[]; tooLarge: string[] };
}

const LOG_FILE = "research_log.log";
const BACKUP_DIR = "backup";
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
  private readonly steps: TraceStep[] = [];
  private readonly startMs = Date.now();
  private readonly hashes = new Map<string, string>();
  private backupSeq = 0;
  private toolLog = "";

  constructor(opts: EnvironmentOptions) {
    this.opts = opts;
    this.workspace = fs.realpathSync(opts.workspace);
    this.aliases = new Map(Object.entries(opts.aliases ?? {}).map(([name, a]) => [name, fs.realpathSync(a.host)]));
    // Keyed by the real, normalised path, so "./x", "a/../x" and links to x all hit the same entry.
    this.readOnly = new Set((opts.readOnly ?? []).map((p) => this.resolve(p).rel));
    for (const [name, a] of Object.entries(opts.aliases ?? {})) if (a.readOnly) this.readOnly.add(name);
    fs.mkdirSync(path.join(this.workspace, BACKUP_DIR), { recursive: true });
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
      const parts = path.posix.normalize(given.split(path.sep).join("/")).split("/");
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

  private readFile(name: string): string {
    const p = this.resolve(name);
    try {
      return fs.readFileSync(p.abs, "utf8");
    } catch {
      throw new EnvError(`cannot read file ${name}`);
    }
  }

  private writable(name: string): ResolvedPath {
    const p = this.resolve(name);
    if (this.isReadOnly(p.rel)) throw new EnvError(`cannot write file ${name} because it is a read-only file.`);
    return p;
  }

  private writeFile(name: string, content: string, mode: "w" | "a"): void {
    const p = this.writable(name);
    try {
      if (mode === "w") fs.writeFileSync(p.abs, content);
      else fs.appendFileSync(p.abs, content);
    } catch {
      throw new EnvError(`cannot ${mode === "w" ? "write" : "append"} file ${name}`);
    }
  }

  private copyFile(source: string, destination: string): string {
    const src = this.resolve(source);
    const dst = this.resolve(destination);
    if (this.isReadOnly(dst.rel)) throw new EnvError(`cannot write file ${destination} because it is a read-only file.`);
    try {
      if (!fs.statSync(src.abs).isFile()) throw new Error("not a file");
      fs.copyFileSync(src.abs, dst.abs);
    } catch {
      throw new EnvError(`File ${source} copy to ${destination} failed. Check whether the source and destinations are valid.`);
    }
    return `File ${source} copied to ${destination}`;
  }

  /** Backups of a script, oldest first; named <script>_<UTC time>_<sequence> so names sort by age. */
  private backups(rel: string): string[] {
    const dir = path.join(this.workspace, BACKUP_DIR, path.dirname(rel));
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

  private backup(p: ResolvedPath): void {
    const dir = path.join(this.workspace, BACKUP_DIR, path.dirname(p.rel));
    fs.mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().slice(0, 19).replace("T", "_").replace(/:/g, "-");
    const seq = String(this.backupSeq++ % 1_000_000).padStart(6, "0");
    fs.copyFileSync(p.abs, path.join(dir, `${path.basename(p.rel)}_${stamp}_${seq}`));
  }

  private undo(script: string): string {
    const p = this.resolve(script);
    const list = this.backups(p.rel);
    const last = list[list.length - 1];
    if (!last) throw new EnvError("There is no change to undo.");
    if (this.isReadOnly(p.rel)) throw new EnvError(`cannot write file ${script} because it is a read-only file.`);
    try {
      fs.copyFileSync(last, p.abs);
      fs.rmSync(last);
      return `Content of ${script} after undo the most recent edit:\n` + fs.readFileSync(p.abs, "utf8");
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
    let lines: string[];
    try {
      lines = this.readFile(script).split("\n");
    } catch {
      throw new EnvError(`cannot find script ${script}`);
    }
    const content = pySlice(lines, Math.max(start - 1, 0), end).join("\n");
    return `Here are the lines (the file ends at line ${lines.length}):\n\n` + content;
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
    let original: string;
    try {
      original = fs.readFileSync(src.abs, "utf8");
    } catch {
      this.writeFile(script, "", "w");
      original = "";
    }
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
    this.backup(src);
    fs.writeFileSync(dst.abs, updated);
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

  /** Copy files that changed since the last step into snapshots/<step>/ and say which changed or vanished. */
  private snapshot(index: number): TraceStep["files"] {
    const traceRel = path.relative(this.workspace, path.resolve(this.opts.traceDir)).split(path.sep).join("/");
    const traceInside = traceRel !== "" && !traceRel.startsWith("..") && !path.isAbsolute(traceRel);
    const skip = (rel: string): boolean =>
      this.isReadOnly(rel) || this.aliases.has(rel) || (traceInside && (rel === traceRel || rel.startsWith(traceRel + "/")));
    const limit = this.opts.snapshotMaxBytes ?? 20 << 20;
    const seen = new Set<string>();
    const changed: string[] = [];
    const tooLarge: string[] = [];
    for (const rel of walkFiles(this.workspace, skip)) {
      seen.add(rel);
      const abs = path.join(this.workspace, rel);
      const size = fs.statSync(abs).size;
      const hash = size > limit ? `size:${size}:${fs.statSync(abs).mtimeMs}` : createHash("sha256").update(fs.readFileSync(abs)).digest("hex");
      if (this.hashes.get(rel) === hash) continue;
      this.hashes.set(rel, hash);
      if (size > limit) {
        tooLarge.push(rel);
        continue;
      }
      changed.push(rel);
      const dest = path.join(this.opts.traceDir, "snapshots", String(index), rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(abs, dest);
    }
    const deleted = [...this.hashes.keys()].filter((k) => !seen.has(k));
    for (const k of deleted) this.hashes.delete(k);
    return { changed, deleted, tooLarge };
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
