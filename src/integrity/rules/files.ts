/**
 * Reading what a run left behind (its logs and code) as text, safely: no symbolic links (neither
 * the file nor a folder on its way), no FIFOs or devices, no binaries, bounded sizes, bounded
 * trees. What was left out or cut is returned too, so the checks can say so.
 */
import path from "node:path";
import { JournalFileSchema, type JournalNode } from "../../agents/aide/journal.js";
import { describeSkip, readFileUnder, readRegularFile, shownPath, walkUntrusted, type SkipReason } from "../../io/untrusted.js";

/** A text file of a run, by its path relative to the run folder (posix separators). */
export interface TextFile {
  /** e.g. "code/train.py" or "logs/agent.log". */
  rel: string;
  text: string;
}

/** Something of the run that was not read, or read only in part, and why. */
export interface Unread {
  rel: string;
  why: string;
}

/** Code files larger than this are not read as text (data the agent saved, not code). */
export const MAX_TEXT_BYTES = 2_000_000;
/** Code read per run in all; files past it are left out (and named). */
export const MAX_CODE_BYTES = 64 * 1024 * 1024;
/** Logs are read up to this many bytes (above the default 100M output limit), the rest is cut (and said so). */
export const MAX_LOG_BYTES = 128 * 1024 * 1024;
/** JSON records (the AIDE journal, the mlab trace) must be parsed whole; larger ones are not read. */
export const MAX_RECORD_BYTES = 128 * 1024 * 1024;
/** How much of code/ is walked: deeper or larger trees are not hand-written code. */
export const CODE_WALK_LIMITS = { maxDepth: 20, maxEntries: 10_000, maxSkipped: 200 } as const;

// Extensions of code a person would write; a NUL byte in one of these is worth telling, not ignoring.
const SOURCE_LIKE = /\.(py|r|sh|jl|js|mjs|ts|java|c|cpp|scala|ipynb|sql)$/i;

function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/** Every regular file under `dir`, relative to `dir`, in name order; links, FIFOs and devices are left out, and the walk is bounded. */
export function walkFiles(dir: string): string[] {
  return walkUntrusted(dir, CODE_WALK_LIMITS).files.map((f) => f.rel);
}

/** The text of a regular file, or null when it is missing, a link, not a regular file, larger than `maxBytes` or binary (a NUL byte in its first 8 KiB). */
export function readText(file: string, maxBytes = MAX_TEXT_BYTES): string | null {
  const r = readRegularFile(file, maxBytes);
  if ("skipped" in r || r.truncated || looksBinary(r.bytes)) return null;
  return r.bytes.toString("utf8");
}

/** What {@link readRunFile} found: the text (null when none was read) and, when something was left out or cut, why. */
export interface RunFileText {
  text: string | null;
  unread: Unread | null;
}

function unreadWhy(why: SkipReason, via?: string): string {
  return via ? `${describeSkip(why)} at ${shownPath(via)}/` : describeSkip(why);
}

/**
 * Read `rel` of a run as text, through no link. `whole`: a file over `maxBytes` is not read at all
 * (JSON records, useless cut); otherwise only its first `maxBytes` are read. A missing file is no news.
 */
export function readRunFile(runDir: string, rel: string, maxBytes: number, whole: boolean): RunFileText {
  const r = readFileUnder(runDir, rel, maxBytes);
  if ("skipped" in r) return { text: null, unread: r.skipped === "missing" ? null : { rel, why: unreadWhy(r.skipped, r.via) } };
  if (r.truncated && whole) return { text: null, unread: { rel, why: `larger than ${maxBytes} bytes (${r.size}), not read` } };
  // Logs keep their text even with a stray NUL byte, which must not be a way to hide a whole log.
  const text = r.bytes.toString("utf8").replace(/\0/g, "");
  return { text, unread: r.truncated ? { rel, why: `only its first ${maxBytes} of ${r.size} bytes read` } : null };
}

/** The code files of a run: every text file under code/; binaries are left out and named in `skipped`, and what was not read for what it is (links, special files, size, paths past the limits) in `unread`. */
export function codeFiles(runDir: string): { files: TextFile[]; skipped: string[]; unread: Unread[] } {
  const files: TextFile[] = [];
  const skipped: string[] = [];
  const unread: Unread[] = [];
  const walk = walkUntrusted(path.join(runDir, "code"), CODE_WALK_LIMITS);
  for (const s of walk.skipped) {
    if (s.rel === "." && s.why === "missing") continue;
    const why = s.rel === "." && s.why === "not a regular file" ? "not a folder, not read" : describeSkip(s.why);
    unread.push({ rel: s.rel === "." ? "code" : `code/${shownPath(s.rel)}`, why });
  }
  if (walk.skippedMore > 0) unread.push({ rel: "code", why: `${walk.skippedMore} more entries skipped (links, special files or past the limits), not listed` });
  let left = MAX_CODE_BYTES;
  for (const f of walk.files) {
    const rel = `code/${f.rel}`;
    if (f.size > MAX_TEXT_BYTES) {
      skipped.push(rel);
      unread.push({ rel, why: `larger than ${MAX_TEXT_BYTES} bytes (${f.size}), not read` });
      continue;
    }
    if (f.size > left) {
      skipped.push(rel);
      unread.push({ rel, why: `over the ${MAX_CODE_BYTES} bytes of code read per run, not read` });
      continue;
    }
    const r = readFileUnder(runDir, rel, MAX_TEXT_BYTES);
    if ("skipped" in r) {
      skipped.push(rel);
      unread.push({ rel, why: unreadWhy(r.skipped, r.via) });
      continue;
    }
    left -= r.bytes.length;
    if (looksBinary(r.bytes)) {
      skipped.push(rel);
      if (SOURCE_LIKE.test(rel)) unread.push({ rel, why: "binary content (a NUL byte in its first 8 KiB), not read" });
      continue;
    }
    files.push({ rel, text: r.bytes.toString("utf8") });
  }
  return { files, skipped, unread };
}

function parseJournal(text: string | null): JournalNode[] | null {
  if (text === null) return null;
  try {
    const parsed = JournalFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.nodes : null;
  } catch {
    return null;
  }
}

/** The AIDE journal of a run (logs/journal.json), or null when there is none, it is not a journal, or it cannot be read safely. */
export function readJournal(runDir: string): JournalNode[] | null {
  return parseJournal(readRunFile(runDir, "logs/journal.json", MAX_RECORD_BYTES, true).text);
}

/** One step of an MLAgentBench-style trace, as far as the checks need it. */
export interface TraceStepLite {
  step: number;
  action: string;
  observation: string;
}

/** The steps of logs/mlab/trace/trace.json, or null when there is none, it has no steps list, or it cannot be read safely. */
export function readMlabTrace(runDir: string): TraceStepLite[] | null {
  const { text } = readRunFile(runDir, "logs/mlab/trace/trace.json", MAX_RECORD_BYTES, true);
  if (text === null) return null;
  try {
    const data = JSON.parse(text) as { steps?: unknown };
    if (!Array.isArray(data?.steps)) return null;
    return data.steps.map((s: any, i: number) => ({
      step: typeof s?.step === "number" ? s.step : i,
      action: typeof s?.action?.name === "string" ? s.action.name : "",
      observation: typeof s?.observation === "string" ? s.observation : "",
    }));
  } catch {
    return null;
  }
}

/** The plain-text logs a run may have, relative to the run folder. */
export const LOG_FILES = ["logs/agent.log", "logs/mlab/main_log"] as const;

/** The logs of a run (see {@link logFiles}), the AIDE journal's nodes, and what of them was not read or was cut. */
export function readLogs(runDir: string): { files: TextFile[]; journal: JournalNode[] | null; unread: Unread[] } {
  const files: TextFile[] = [];
  const unread: Unread[] = [];
  for (const rel of LOG_FILES) {
    const r = readRunFile(runDir, rel, MAX_LOG_BYTES, false);
    if (r.unread) unread.push(r.unread);
    if (r.text !== null && r.text.length > 0) files.push({ rel, text: r.text });
  }
  const j = readRunFile(runDir, "logs/journal.json", MAX_RECORD_BYTES, true);
  if (j.unread) unread.push(j.unread);
  const journal = parseJournal(j.text);
  for (const n of journal ?? []) {
    const text = [`# node ${n.id} (${n.stage}, parent ${n.parentId ?? "none"})`, "## plan", n.plan, "## code", n.code, "## output", n.termOut, "## review", n.analysis].join("\n");
    files.push({ rel: `logs/journal.json#${n.id}`, text });
  }
  return { files, journal, unread };
}

/**
 * The log texts of a run, each as its own file: logs/agent.log, logs/mlab/main_log (the mlab
 * agent's prompts, answers and observations) and, for AIDE, one text per journal node
 * ("logs/journal.json#<id>": its plan, code, terminal output and review).
 */
export function logFiles(runDir: string): TextFile[] {
  return readLogs(runDir).files;
}

/** Join files into one text, each under a "--- <rel> ---" header, for an LLM to read. */
export function joinFiles(files: TextFile[]): string {
  return files.map((f) => `--- ${f.rel} ---\n${f.text.endsWith("\n") ? f.text : f.text + "\n"}`).join("");
}

/** Listed in a reason: the first few things of a run that were not read. */
const UNREAD_IN_REASON = 3;
/** Lines of evidence naming things of a run that were not read. */
export const UNREAD_IN_EVIDENCE = 5;

/** What to add to a flag's reason when parts of the run were not read: "" when none. */
export function unreadSuffix(unread: Unread[]): string {
  if (unread.length === 0) return "";
  const named = unread.slice(0, UNREAD_IN_REASON).map((u) => `${u.rel} (${u.why})`);
  const more = unread.length > UNREAD_IN_REASON ? `, and ${unread.length - UNREAD_IN_REASON} more` : "";
  return `; not read in full: ${named.join(", ")}${more}`;
}

/** Evidence lines for what was not read, in the "<file>: ..." style of the other evidence. */
export function unreadEvidence(unread: Unread[]): string[] {
  const lines = unread.slice(0, UNREAD_IN_EVIDENCE).map((u) => `${u.rel}: ${u.why}`);
  if (unread.length > UNREAD_IN_EVIDENCE) lines.push(`... and ${unread.length - UNREAD_IN_EVIDENCE} more not read in full`);
  return lines;
}

/** Everything the checks and the judge read of a run, read once. */
export interface RunTexts {
  logs: TextFile[];
  code: TextFile[];
  journal: JournalNode[] | null;
  unread: { logs: Unread[]; code: Unread[] };
}

/** Read a run's logs and code for the checks and the judge; never throws for a strange run folder. */
export function readRunTexts(runDir: string): RunTexts {
  const logs = readLogs(runDir);
  const code = codeFiles(runDir);
  return { logs: logs.files, code: code.files, journal: logs.journal, unread: { logs: logs.unread, code: code.unread } };
}
