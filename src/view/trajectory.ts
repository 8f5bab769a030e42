/**
 * What an agent did, step by step, as the viewer shows it: the AIDE solution tree (logs/journal.json)
 * and the MLAgentBench research steps (trace/trace.json with the agent's own reasoning from
 * logs/agent/). Both files are harness-written but hold the agent's code and output, so every text
 * is cut to a bound here and shown as text by the page.
 */
import fs from "node:fs";
import path from "node:path";
import { isRealDirectory } from "../io/untrusted.js";
import { readRunJson } from "./data.js";
import { readRecord } from "./record-cache.js";

/** Longest text of one field sent to the page (the rest is cut, and the cut said). */
export const MAX_FIELD_CHARS = 20_000;
/** Names looked at in logs/agent/ to find its latest history file. */
const MAX_AGENT_FILES = 100_000;

/** A text cut to `max` characters, saying how much was left out. */
export function cut(text: unknown, max = MAX_FIELD_CHARS): string {
  const s = typeof text === "string" ? text : text === undefined || text === null ? "" : JSON.stringify(text);
  return s.length <= max ? s : `${s.slice(0, max)}\n… (${s.length - max} more characters)`;
}


const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown) => (typeof v === "string" ? v : null);

/** One AIDE node as the tree shows it (its code is a code version, aide/<id>). */
export interface AideNodeView {
  id: number;
  parent_id: number | null;
  stage: string;
  created_at: string | null;
  metric: number | null;
  is_bug: boolean;
  exit_code: number | null;
  timed_out: boolean;
  exec_time_s: number | null;
  has_submission: boolean;
  plan: string;
  analysis: string;
  term_out: string;
  code_lines: number;
  /** Depth in the tree (drafts are 0). */
  depth: number;
}

/** The AIDE journal of a run: its nodes in tree order (each after its parent), the best node and the metric's direction. */
export interface AideTree {
  best_id: number | null;
  lower_is_better: boolean | null;
  nodes: AideNodeView[];
}

/** The AIDE tree of an MLE-bench run, or null when it has no readable journal. */
export function aideTree(runDir: string): AideTree | null {
  return readRecord(runDir, "logs/journal.json", "aide tree", treeOf, null);
}

/** The tree of parsed journal.json contents, or null when they are not a journal. */
function treeOf(parsed: unknown): AideTree | null {
  const j = parsed as { nodes?: unknown; bestId?: unknown; lowerIsBetter?: unknown } | null;
  if (!j || typeof j !== "object" || !Array.isArray(j.nodes)) return null;
  const raw = (j.nodes as Record<string, unknown>[]).filter((n) => n && typeof n === "object" && Number.isSafeInteger(n.id));
  const byId = new Map(raw.map((n) => [n.id as number, n]));
  const children = new Map<number | null, Record<string, unknown>[]>();
  for (const n of raw) {
    const p = num(n.parentId);
    const key = p !== null && byId.has(p) && p !== n.id ? p : null;
    children.set(key, [...(children.get(key) ?? []), n]);
  }
  const nodes: AideNodeView[] = [];
  const seen = new Set<number>();
  // Iterative depth-first walk, so a deep or cyclic journal cannot overflow the stack.
  const stack: [Record<string, unknown>, number][] = [...(children.get(null) ?? [])].reverse().map((n) => [n, 0]);
  while (stack.length > 0) {
    const [n, depth] = stack.pop()!;
    const id = n.id as number;
    if (seen.has(id)) continue;
    seen.add(id);
    nodes.push({
      id,
      parent_id: num(n.parentId),
      stage: str(n.stage) ?? "?",
      created_at: str(n.createdAt),
      metric: num(n.metric),
      is_bug: n.isBug === true,
      exit_code: num(n.exitCode),
      timed_out: n.timedOut === true,
      exec_time_s: num(n.execTimeS),
      has_submission: n.hasSubmission === true,
      plan: cut(n.plan),
      analysis: cut(n.analysis),
      term_out: cut(n.termOut),
      code_lines: typeof n.code === "string" ? n.code.split("\n").length : 0,
      depth,
    });
    for (const c of [...(children.get(id) ?? [])].reverse()) stack.push([c, depth + 1]);
  }
  return { best_id: num(j.bestId), lower_is_better: typeof j.lowerIsBetter === "boolean" ? j.lowerIsBetter : null, nodes };
}

/** One step of a research run: the agent's reasoning (where it logged it), its action and what it observed. */
export interface ResearchStepView {
  step: number;
  action: string;
  args: string;
  observation: string;
  started: string | null;
  ended: string | null;
  seconds: number | null;
  /** The agent's entries for this step (Reflection, Research Plan and Status, Fact Check, Thought), where it has them. */
  reasoning: Record<string, string>;
  changed: string[];
  deleted: string[];
}

const secondsToIso = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());

/**
 * Where a run keeps the research agent's records: a research run (`tasks run`) has trace/ and
 * logs/agent/; an MLE-bench run by the mlab agent keeps both under logs/mlab/.
 */
export function researchLayout(kind: "mle" | "research"): { trace: string; agentLogs: string } {
  return kind === "research" ? { trace: "trace", agentLogs: "logs/agent" } : { trace: "logs/mlab/trace", agentLogs: "logs/mlab" };
}

/** The entries of the research agent's latest history file, by environment step. */
function agentEntries(runDir: string, agentLogs: string): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  const dir = path.join(runDir, agentLogs);
  let at = runDir;
  for (const part of agentLogs.split("/")) {
    at = path.join(at, part);
    if (!isRealDirectory(at)) return out;
  }
  let latest: { name: string; step: number } | null = null;
  const names = fs.opendirSync(dir);
  try {
    for (let i = 0; i < MAX_AGENT_FILES; i++) {
      const e = names.readSync();
      if (!e) break;
      const m = /^agent_(\d+)_(\d+)\.json$/.exec(e.name);
      if (m && (!latest || Number(m[2]) > latest.step)) latest = { name: e.name, step: Number(m[2]) };
    }
  } finally {
    names.closeSync();
  }
  if (!latest) return out;
  const file = readRunJson(runDir, `${agentLogs}/${latest.name}`) as { history?: unknown } | null;
  if (!file || !Array.isArray(file.history)) return out;
  for (const h of file.history as { envStep?: unknown; entries?: unknown }[]) {
    const step = num(h?.envStep);
    if (step === null || !h.entries || typeof h.entries !== "object") continue;
    const entries: Record<string, string> = {};
    for (const [k, v] of Object.entries(h.entries as Record<string, unknown>)) if (k !== "Action" && k !== "Action Input") entries[k] = cut(typeof v === "string" ? v.trim() : v);
    out.set(step, entries);
  }
  return out;
}

/** The steps of a research agent's run from its trace, or null when it has no readable trace. */
export function researchSteps(runDir: string, kind: "mle" | "research"): ResearchStepView[] | null {
  const where = researchLayout(kind);
  const steps = readRecord(runDir, `${where.trace}/trace.json`, "research steps", stepsOf, null);
  if (steps === null) return null;
  // The agent's history files change while it runs, so its reasoning is read afresh each time.
  const reasoning = agentEntries(runDir, where.agentLogs);
  return steps.map((s) => ({ ...s, reasoning: reasoning.get(s.step) ?? {} }));
}

/** The steps of parsed trace.json contents, without the agent's reasoning, or null when they are not a trace. */
function stepsOf(parsed: unknown): Omit<ResearchStepView, "reasoning">[] | null {
  const t = parsed as { steps?: unknown } | null;
  if (!t || typeof t !== "object" || !Array.isArray(t.steps)) return null;
  return (t.steps as Record<string, unknown>[]).filter((s) => s && typeof s === "object").map((s, i) => {
    const step = num(s.step) ?? i;
    const action = (s.action ?? {}) as { name?: unknown; args?: unknown };
    const files = (s.files ?? {}) as { changed?: unknown; deleted?: unknown };
    const started = num(s.started);
    const ended = num(s.timestamp);
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").slice(0, 1000) : []);
    return {
      step,
      action: cut(action.name, 200),
      args: cut(typeof action.args === "string" ? action.args : JSON.stringify(action.args ?? null, null, 2)),
      observation: cut(s.observation),
      started: secondsToIso(started),
      ended: secondsToIso(ended),
      seconds: started !== null && ended !== null ? Math.round((ended - started) * 1000) / 1000 : null,
      changed: list(files.changed),
      deleted: list(files.deleted),
    };
  });
}
