/** Reading what a run left behind (its logs and code) as text, safely: no symbolic links, no binaries, bounded sizes. */
import fs from "node:fs";
import path from "node:path";
import { JournalFileSchema, type JournalNode } from "../../agents/aide/journal.js";

/** A text file of a run, by its path relative to the run folder (posix separators). */
export interface TextFile {
  /** e.g. "code/train.py" or "logs/agent.log". */
  rel: string;
  text: string;
}

/** Files larger than this are not read as text (data the agent saved, not code or logs). */
export const MAX_TEXT_BYTES = 2_000_000;

/**
 * Every regular file under `dir`, relative to `dir`, in name order. Symbolic links are skipped, not
 * followed: a run folder is written by the agent, and a link could point anywhere on the host.
 */
export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (sub: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) visit(rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  visit("");
  return out;
}

/** The text of a regular file, or null when it is missing, a link, larger than `maxBytes` or binary (a NUL byte in its first 8 KiB). */
export function readText(file: string, maxBytes = MAX_TEXT_BYTES): string | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return null;
  }
  if (!st.isFile() || st.size > maxBytes) return null;
  const buf = fs.readFileSync(file);
  if (buf.subarray(0, 8192).includes(0)) return null;
  return buf.toString("utf8");
}

/** The code files of a run: every text file under code/ (binaries and files over the size cap are left out and named in `skipped`). */
export function codeFiles(runDir: string): { files: TextFile[]; skipped: string[] } {
  const files: TextFile[] = [];
  const skipped: string[] = [];
  for (const rel of walkFiles(path.join(runDir, "code"))) {
    const text = readText(path.join(runDir, "code", rel));
    if (text === null) skipped.push(`code/${rel}`);
    else files.push({ rel: `code/${rel}`, text });
  }
  return { files, skipped };
}

/** The AIDE journal of a run (logs/journal.json), or null when there is none or it is not a journal. */
export function readJournal(runDir: string): JournalNode[] | null {
  const text = readText(path.join(runDir, "logs", "journal.json"), 200_000_000);
  if (text === null) return null;
  try {
    const parsed = JournalFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.nodes : null;
  } catch {
    return null;
  }
}

/** One step of an MLAgentBench-style trace, as far as the checks need it. */
export interface TraceStepLite {
  step: number;
  action: string;
  observation: string;
}

/** The steps of logs/mlab/trace/trace.json, or null when there is none or it has no steps list. */
export function readMlabTrace(runDir: string): TraceStepLite[] | null {
  const text = readText(path.join(runDir, "logs", "mlab", "trace", "trace.json"), 200_000_000);
  if (text === null) return null;
  try {
    const data = JSON.parse(text) as { steps?: unknown };
    if (!Array.isArray(data.steps)) return null;
    return data.steps.map((s: any, i: number) => ({
      step: typeof s?.step === "number" ? s.step : i,
      action: typeof s?.action?.name === "string" ? s.action.name : "",
      observation: typeof s?.observation === "string" ? s.observation : "",
    }));
  } catch {
    return null;
  }
}

/**
 * The log texts of a run, each as its own file: logs/agent.log, logs/mlab/main_log (the mlab
 * agent's prompts, answers and observations) and, for AIDE, one text per journal node
 * ("logs/journal.json#<id>": its plan, code, terminal output and review).
 */
export function logFiles(runDir: string): TextFile[] {
  const out: TextFile[] = [];
  for (const rel of ["logs/agent.log", "logs/mlab/main_log"]) {
    const text = readText(path.join(runDir, rel), 200_000_000);
    if (text !== null && text.length > 0) out.push({ rel, text });
  }
  for (const n of readJournal(runDir) ?? []) {
    const text = [`# node ${n.id} (${n.stage}, parent ${n.parentId ?? "none"})`, "## plan", n.plan, "## code", n.code, "## output", n.termOut, "## review", n.analysis].join("\n");
    out.push({ rel: `logs/journal.json#${n.id}`, text });
  }
  return out;
}

/** Join files into one text, each under a "--- <rel> ---" header, for an LLM to read. */
export function joinFiles(files: TextFile[]): string {
  return files.map((f) => `--- ${f.rel} ---\n${f.text.endsWith("\n") ? f.text : f.text + "\n"}`).join("");
}
