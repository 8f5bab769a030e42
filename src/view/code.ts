/**
 * A run's code versions for the viewer, and diffs between any two of them. An MLE-bench run has
 * the AIDE journal's nodes, logs/best_solution.py and the files of code/; a research run has the
 * trace's per-step snapshots of each changed file and the final workspace. Every version is named
 * by a ref this module lists itself, and a ref is read only once it is found in that listing, so
 * no path is ever built from what a request says. The agent wrote all of these files: they are
 * opened without following links, and every size, count and depth is bounded.
 */
import fs from "node:fs";
import path from "node:path";
import { describeSkip, MAX_PATH_BYTES, openUnder, readOpened, shownPath, walkUntrusted, type WalkLimits } from "../io/untrusted.js";
import { splitKeepEnds, unifiedDiff } from "../mlagentbench/env/diff.js";
import { researchLayout } from "./trajectory.js";
import { readRecord } from "./record-cache.js";

/** The largest code file listed or read, bytes. */
export const MAX_CODE_BYTES = 4 << 20;
/** The most versions listed from each source (journal nodes, code/, step snapshots, workspace/). */
export const MAX_VERSIONS_PER_SOURCE = 2000;
/** The most differing lines of each side a diff aligns, so a diff cannot take unbounded time (about 0.4 s at worst). */
export const MAX_DIFF_LINES = 5000;
/** Unchanged lines shown around each change. */
const CONTEXT = 3;
/** A NUL byte within this many bytes of a file's start marks it as binary. */
const BINARY_PROBE_BYTES = 8192;
/** Bounds of the walks over code/ and workspace/. */
const WALK: WalkLimits = { maxDepth: 20, maxEntries: 20_000, maxSkipped: 0, ignoreDirs: new Set([".git", "__pycache__", "node_modules"]) };

/** One version of a run's code: the ref that names it, what the viewer shows for it, and its size. */
export interface CodeVersion {
  ref: string;
  label: string;
  bytes: number;
}

type Kind = "mle" | "research";

interface JournalNodeInfo {
  id: number;
  parentId: number | null;
  stage: string;
  code: string;
  metric: number | null;
  isBug: boolean;
}

interface JournalInfo {
  bestId: number | null;
  nodes: JournalNodeInfo[];
  byId: Map<number, JournalNodeInfo>;
}

interface TraceStepInfo {
  step: number;
  action: string;
  changed: string[];
}

type ParsedRef =
  | { kind: "aide"; id: number }
  | { kind: "best" }
  | { kind: "code"; rel: string }
  | { kind: "step"; step: number; rel: string }
  | { kind: "workspace"; rel: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

const EMPTY_JOURNAL: JournalInfo = { bestId: null, nodes: [], byId: new Map() };

/** The nodes of logs/journal.json that carry what a code version needs; anything else makes it no journal. */
function parseJournal(v: unknown): JournalInfo | null {
  if (!isObject(v) || !Array.isArray(v.nodes)) return null;
  const nodes: JournalNodeInfo[] = [];
  const byId = new Map<number, JournalNodeInfo>();
  for (const n of v.nodes) {
    if (!isObject(n) || !isId(n.id) || !(n.parentId === null || isId(n.parentId))) return null;
    if (typeof n.stage !== "string" || typeof n.code !== "string" || byId.has(n.id)) return null;
    const metric = typeof n.metric === "number" && Number.isFinite(n.metric) ? n.metric : null;
    const node = { id: n.id, parentId: n.parentId, stage: n.stage, code: n.code, metric, isBug: n.isBug === true };
    nodes.push(node);
    byId.set(node.id, node);
  }
  return { bestId: isId(v.bestId) ? v.bestId : null, nodes, byId };
}

/** The steps of trace/trace.json with the files each changed; paths that could leave the snapshot folder are dropped. */
function parseTrace(v: unknown): TraceStepInfo[] | null {
  if (!isObject(v) || !Array.isArray(v.steps)) return null;
  const steps: TraceStepInfo[] = [];
  for (const s of v.steps) {
    if (!isObject(s) || !isId(s.step)) return null;
    const action = isObject(s.action) && typeof s.action.name === "string" ? s.action.name : "?";
    const files = isObject(s.files) && Array.isArray(s.files.changed) ? s.files.changed : [];
    const changed = new Set(files.filter((f): f is string => typeof f === "string" && safeRel(f)));
    steps.push({ step: s.step, action, changed: [...changed] });
  }
  return steps;
}

function journalOf(runDir: string): JournalInfo {
  return readRecord(runDir, "logs/journal.json", "code versions", parseJournal, EMPTY_JOURNAL);
}

function traceOf(runDir: string, kind: Kind): TraceStepInfo[] {
  return readRecord(runDir, `${researchLayout(kind).trace}/trace.json`, "code versions", parseTrace, []);
}

// ---------------------------------------------------------------------------------------------
// Refs.

/** A relative path that stays below the folder it is joined to. */
function safeRel(rel: string): boolean {
  if (rel === "" || rel.includes("\0") || rel.startsWith("/") || Buffer.byteLength(rel) > MAX_PATH_BYTES) return false;
  return rel.split("/").every((p) => p !== "" && p !== "." && p !== "..");
}

const NUMBER = /^(0|[1-9][0-9]{0,8})$/;

function parseRef(ref: string): ParsedRef | null {
  if (typeof ref !== "string" || !safeRel(ref)) return null;
  const [head, ...rest] = ref.split("/");
  const tail = rest.join("/");
  if (head === "aide") return rest.length === 1 && NUMBER.test(tail) ? { kind: "aide", id: Number(tail) } : null;
  if (ref === "logs/best_solution.py") return { kind: "best" };
  if (head === "code" && rest.length > 0) return { kind: "code", rel: tail };
  if (head === "workspace" && rest.length > 0) return { kind: "workspace", rel: tail };
  if (head === "step" && rest.length > 1 && NUMBER.test(rest[0]!)) return { kind: "step", step: Number(rest[0]), rel: rest.slice(1).join("/") };
  return null;
}

/** Where a file-backed version lies below the run folder. */
function fileOf(p: Exclude<ParsedRef, { kind: "aide" }>, kind: Kind): string {
  switch (p.kind) {
    case "best":
      return "logs/best_solution.py";
    case "code":
      return `code/${p.rel}`;
    case "workspace":
      return `workspace/${p.rel}`;
    case "step":
      return `${researchLayout(kind).trace}/snapshots/${p.step}/${p.rel}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Listing.

/** A regular file's size below the run folder, or null when it is not one (or is too large to show). */
function sizeUnder(runDir: string, rel: string): number | null {
  const opened = openUnder(runDir, rel);
  if ("skipped" in opened) return null;
  fs.closeSync(opened.fd);
  return opened.size <= MAX_CODE_BYTES ? opened.size : null;
}

/** The files of a folder of the run that are small enough to show, in name order. */
function filesUnder(runDir: string, dir: string): { rel: string; size: number }[] {
  return walkUntrusted(path.join(runDir, dir), WALK)
    .files.filter((f) => f.size <= MAX_CODE_BYTES && safeRel(f.rel))
    .slice(0, MAX_VERSIONS_PER_SOURCE)
    .map((f) => ({ rel: f.rel, size: f.size }));
}

function shortNumber(x: number): string {
  return String(Number(x.toPrecision(6)));
}

function nodeLabel(n: JournalNodeInfo, bestId: number | null): string {
  const origin = n.parentId === null ? n.stage : `${n.stage} of ${n.parentId}`;
  const outcome = n.isBug ? "buggy" : n.metric !== null ? `metric ${shortNumber(n.metric)}` : "no metric";
  return `node ${n.id} (${origin}), ${outcome}${n.id === bestId ? ", best" : ""}`;
}

/** Every code version of a run, oldest first within each source, so a listing reads as the run's history. */
export function codeVersions(runDir: string, kind: Kind): CodeVersion[] {
  const out: CodeVersion[] = [];
  if (kind === "mle") {
    const journal = journalOf(runDir);
    for (const n of journal.nodes.slice(0, MAX_VERSIONS_PER_SOURCE)) {
      out.push({ ref: `aide/${n.id}`, label: nodeLabel(n, journal.bestId), bytes: Buffer.byteLength(n.code) });
    }
    const best = sizeUnder(runDir, "logs/best_solution.py");
    if (best !== null) out.push({ ref: "logs/best_solution.py", label: "best solution (logs/best_solution.py)", bytes: best });
  }
  // The research agent's snapshots: a research run's trace/, or an MLE-bench mlab run's logs/mlab/trace/.
  const trace = researchLayout(kind).trace;
  let listed = 0;
  steps: for (const s of traceOf(runDir, kind)) {
    for (const rel of s.changed) {
      if (listed >= MAX_VERSIONS_PER_SOURCE) break steps;
      const size = sizeUnder(runDir, `${trace}/snapshots/${s.step}/${rel}`);
      if (size === null) continue;
      out.push({ ref: `step/${s.step}/${rel}`, label: `${rel} after step ${s.step} (${s.action})`, bytes: size });
      listed++;
    }
  }
  if (kind === "mle") for (const f of filesUnder(runDir, "code")) out.push({ ref: `code/${f.rel}`, label: `code/${f.rel}`, bytes: f.size });
  else for (const f of filesUnder(runDir, "workspace")) out.push({ ref: `workspace/${f.rel}`, label: `${f.rel} (final workspace)`, bytes: f.size });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading.

function binaryError(ref: string): { error: string } {
  return { error: `${shownPath(ref)} is a binary file (it has a NUL byte), not shown` };
}

/**
 * The text of one version of a run's code; the ref must be in the run's listing (`listed`, when a
 * caller already has it, saves listing again), and binary or oversized files are refused.
 */
export function readCode(runDir: string, kind: Kind, ref: string, listed?: CodeVersion[]): { ref: string; text: string } | { error: string } {
  const parsed = parseRef(ref);
  if (parsed === null) return { error: `not a code version ref: ${JSON.stringify(shownPath(String(ref)))}` };
  if (!(listed ?? codeVersions(runDir, kind)).some((v) => v.ref === ref)) return { error: `${shownPath(ref)}: no such code version in this run` };
  if (parsed.kind === "aide") {
    const node = journalOf(runDir).byId.get(parsed.id);
    if (!node) return { error: `${ref}: no such node in logs/journal.json` };
    if (node.code.slice(0, BINARY_PROBE_BYTES).includes("\0")) return binaryError(ref);
    if (Buffer.byteLength(node.code) > MAX_CODE_BYTES) return { error: `${ref} is larger than ${MAX_CODE_BYTES} bytes, not shown` };
    return { ref, text: node.code };
  }
  const rel = fileOf(parsed, kind);
  const opened = openUnder(runDir, rel);
  if ("skipped" in opened) return { error: `${shownPath(ref)}: ${describeSkip(opened.skipped)}` };
  try {
    if (opened.size > MAX_CODE_BYTES) return { error: `${shownPath(ref)} is larger than ${MAX_CODE_BYTES} bytes, not shown` };
    const { bytes } = readOpened(opened.fd, opened.size, MAX_CODE_BYTES);
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return binaryError(ref);
    return { ref, text: bytes.toString("utf8") };
  } catch {
    return { error: `${shownPath(ref)}: ${describeSkip("unreadable")}` };
  } finally {
    fs.closeSync(opened.fd);
  }
}

const PREFERRED = ["main.py", "solution.py", "train.py"];

/**
 * The version a comparison of two runs shows by default: the code that produced the run's result
 * where the layout says which (best_solution.py, workspace/train.py), else the likeliest entry
 * point among the .py files.
 */
export function finalCodeRef(runDir: string, kind: Kind): string | null {
  const refs = codeVersions(runDir, kind).map((v) => v.ref);
  const prefix = kind === "mle" ? "code/" : "workspace/";
  if (kind === "mle" && refs.includes("logs/best_solution.py")) return "logs/best_solution.py";
  if (kind === "research" && refs.includes("workspace/train.py")) return "workspace/train.py";
  const py = refs.filter((r) => r.startsWith(prefix) && r.endsWith(".py")).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  if (kind === "mle") {
    // An entry point by its usual name wins, the shallowest first, over whatever sorts first.
    const depth = (r: string) => r.split("/").length;
    const rank = (r: string) => PREFERRED.indexOf(r.slice(r.lastIndexOf("/") + 1));
    const named = py.filter((r) => rank(r) >= 0).sort((x, y) => depth(x) - depth(y) || rank(x) - rank(y));
    if (named.length > 0) return named[0]!;
  }
  return py[0] ?? null;
}

/** The version a ref is naturally compared with: an AIDE node's parent, or the same file's previous snapshot; null when there is none. */
export function previousRef(runDir: string, kind: Kind, ref: string): string | null {
  const parsed = parseRef(ref);
  if (parsed === null) return null;
  if (parsed.kind === "aide") {
    if (kind !== "mle") return null;
    const journal = journalOf(runDir);
    const parent = journal.byId.get(parsed.id)?.parentId ?? null;
    return parent !== null && journal.byId.has(parent) ? `aide/${parent}` : null;
  }
  if (parsed.kind !== "step") return null;
  let best: number | null = null;
  for (const v of codeVersions(runDir, kind)) {
    const p = parseRef(v.ref);
    if (p?.kind === "step" && p.rel === parsed.rel && p.step < parsed.step && (best === null || p.step > best)) best = p.step;
  }
  return best === null ? null : `step/${best}/${parsed.rel}`;
}

/** One side of a diff: a run folder, its kind and a ref from its listing. */
export interface CodeSide {
  runDir: string;
  kind: Kind;
  ref: string;
}

/** What {@link diffCode} returns: the two refs, the unified diff and its size; `capped` says what was left out, if anything. */
export interface CodeDiff {
  a: string;
  b: string;
  diff: string;
  added: number;
  removed: number;
  capped: string | null;
}

/**
 * Lines as the diff compares them: a last line without its newline gets git's marker, so it
 * differs from the same line with one and prints on a line of its own instead of running into
 * the next.
 */
function diffLines(text: string): string[] {
  const lines = splitKeepEnds(text);
  const last = lines.length - 1;
  if (last >= 0 && !lines[last]!.endsWith("\n")) lines[last] += "\n\\ No newline at end of file\n";
  return lines;
}

/** Hunk headers of a diff of a slice count from `offset` lines into the files; say so in the numbers. */
function shiftHunks(printed: string[], offset: number): void {
  for (let i = 2; i < printed.length; i++) {
    const m = /^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@$/.exec(printed[i]!);
    if (m) printed[i] = `@@ -${Number(m[1]) + offset}${m[2] ?? ""} +${Number(m[3]) + offset}${m[4] ?? ""} @@`;
  }
}

/**
 * A unified diff of two code versions (of one run or of two). Only the region between the common
 * head and tail is aligned (with 3 lines of context on each side), and at most
 * {@link MAX_DIFF_LINES} lines of it from each side: the alignment's cost grows faster than the
 * square of the lines it aligns.
 */
export function diffCode(a: CodeSide, b: CodeSide): CodeDiff | { error: string } {
  const ta = readCode(a.runDir, a.kind, a.ref);
  if ("error" in ta) return ta;
  const tb = readCode(b.runDir, b.kind, b.ref);
  if ("error" in tb) return tb;
  const la = diffLines(ta.text);
  const lb = diffLines(tb.text);
  const [n, m] = [la.length, lb.length];
  let head = 0;
  while (head < n && head < m && la[head] === lb[head]) head++;
  let tail = 0;
  while (tail < n - head && tail < m - head && la[n - 1 - tail] === lb[m - 1 - tail]) tail++;
  const from = Math.max(0, head - CONTEXT);
  let toA = Math.min(n, n - tail + CONTEXT);
  let toB = Math.min(m, m - tail + CONTEXT);
  const capped: string[] = [];
  for (const [side, ref, differing] of [["a", a.ref, n - tail - head], ["b", b.ref, m - tail - head]] as const) {
    if (differing <= MAX_DIFF_LINES) continue;
    capped.push(`${shownPath(ref)}: ${differing} lines differ from line ${head + 1} on; only the first ${MAX_DIFF_LINES} of them compared`);
    if (side === "a") toA = head + MAX_DIFF_LINES;
    else toB = head + MAX_DIFF_LINES;
  }
  const diff = unifiedDiff(la.slice(from, toA), lb.slice(from, toB), CONTEXT);
  // Every compared line ends in "\n", so each printed line is one; the first two are the file headers.
  const printed = diff.split("\n");
  if (from > 0) shiftHunks(printed, from);
  let added = 0;
  let removed = 0;
  for (let i = 2; i < printed.length; i++) {
    const c = printed[i]!.charCodeAt(0);
    if (c === 0x2b) added++;
    else if (c === 0x2d) removed++;
  }
  return { a: a.ref, b: b.ref, diff: from > 0 ? printed.join("\n") : diff, added, removed, capped: capped.length > 0 ? capped.join("; ") : null };
}
