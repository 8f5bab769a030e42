/**
 * A run's LLM calls (logs/llm.jsonl) for the viewer: an index of line offsets, built once per
 * version of the file, so any page of calls, or one call whole, is read without loading the log.
 */
import fs from "node:fs";
import { describeSkip, openUnder, readOpened } from "../io/untrusted.js";

/** The most calls one page lists. */
export const MAX_CALLS_PAGE = 500;
/** The longest call entry read whole. */
export const MAX_CALL_BYTES = 16 << 20;

/** What the list of calls shows of each. */
export interface CallSummary {
  index: number;
  time: string | null;
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  latency_ms: number | null;
  attempts: number | null;
  error: string | null;
  /** The last message's role and its first 200 characters, to tell calls apart. */
  last_message: string | null;
}

interface LineIndex {
  key: string;
  starts: number[];
  size: number;
}

const indexes = new Map<string, LineIndex>();

/** Call logs whose summaries are kept; the oldest is dropped past this. */
const MAX_SUMMARISED_FILES = 32;
const summaries = new Map<string, { key: string; byIndex: Map<number, CallSummary> }>();

/** The summaries made so far of a version of a call log (a call is parsed once, however often its page is asked for). */
function summariesOf(file: string, key: string): Map<number, CallSummary> {
  const known = summaries.get(file);
  if (known?.key === key) return known.byIndex;
  summaries.delete(file);
  if (summaries.size >= MAX_SUMMARISED_FILES) summaries.delete(summaries.keys().next().value!);
  const byIndex = new Map<number, CallSummary>();
  summaries.set(file, { key, byIndex });
  return byIndex;
}

/** Where each line of an open file starts; kept while the file's size, mtime and inode stay. */
function lineStarts(file: string, fd: number): LineIndex {
  const st = fs.fstatSync(fd);
  const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
  const known = indexes.get(file);
  if (known?.key === key) return known;
  const starts: number[] = [];
  const buf = Buffer.alloc(1 << 20);
  let pos = 0;
  let atLineStart = true;
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    for (let i = 0; i < n; i++) {
      if (atLineStart) {
        starts.push(pos + i);
        atLineStart = false;
      }
      if (buf[i] === 0x0a) atLineStart = true;
    }
    pos += n;
  }
  const index = { key, starts, size: st.size };
  indexes.delete(file);
  if (indexes.size >= MAX_SUMMARISED_FILES) indexes.delete(indexes.keys().next().value!);
  indexes.set(file, index);
  return index;
}

function readLine(fd: number, index: LineIndex, i: number, max: number): { text: string; cut: boolean } {
  const start = index.starts[i];
  const end = i + 1 < index.starts.length ? index.starts[i + 1] : index.size;
  const { bytes } = readOpened(fd, end, max, start);
  return { text: bytes.toString("utf8").replace(/\n$/, ""), cut: end - start > max };
}

const numOrNull = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown) => (typeof v === "string" ? v : null);

function summary(index: number, entry: Record<string, unknown> | null): CallSummary {
  const usage = (entry?.usage ?? null) as Record<string, unknown> | null;
  const messages = (entry?.request as { messages?: { role?: unknown; content?: unknown }[] } | undefined)?.messages;
  const last = Array.isArray(messages) && messages.length > 0 ? messages[messages.length - 1] : null;
  return {
    index,
    time: strOrNull(entry?.time),
    model: strOrNull(entry?.model),
    input_tokens: numOrNull(usage?.inputTokens),
    output_tokens: numOrNull(usage?.outputTokens),
    cost_usd: numOrNull(entry?.costUsd),
    latency_ms: numOrNull(entry?.latencyMs),
    attempts: numOrNull(entry?.attempts),
    error: entry === null ? "this line is not a call record" : strOrNull(entry.error),
    last_message: last ? `${String(last.role)}: ${String(last.content ?? "").slice(0, 200)}` : null,
  };
}

/** A call log line as a record, or null when it is not a JSON object. */
export function parseCall(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A page of call summaries from `runDir`'s logs/llm.jsonl, with the total count. */
export function callPage(runDir: string, from: number, limit: number): { total: number; from: number; calls: CallSummary[] } | { error: string } {
  const opened = openUnder(runDir, "logs/llm.jsonl");
  if ("skipped" in opened) return { error: `logs/llm.jsonl: ${describeSkip(opened.skipped)}` };
  try {
    const index = lineStarts(`${runDir}/logs/llm.jsonl`, opened.fd);
    const to = Math.min(index.starts.length, from + Math.min(limit, MAX_CALLS_PAGE));
    const calls: CallSummary[] = [];
    const known = summariesOf(`${runDir}/logs/llm.jsonl`, index.key);
    for (let i = from; i < to; i++) {
      let one = known.get(i);
      if (!one) {
        const line = readLine(opened.fd, index, i, MAX_CALL_BYTES);
        one = summary(i, line.cut ? null : parseCall(line.text));
        known.set(i, one);
      }
      calls.push(one);
    }
    return { total: index.starts.length, from, calls };
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** One call whole (its request and response as the call log has them), or why not. */
export function callEntry(runDir: string, i: number): { index: number; entry: Record<string, unknown> } | { error: string } {
  const opened = openUnder(runDir, "logs/llm.jsonl");
  if ("skipped" in opened) return { error: `logs/llm.jsonl: ${describeSkip(opened.skipped)}` };
  try {
    const index = lineStarts(`${runDir}/logs/llm.jsonl`, opened.fd);
    if (i >= index.starts.length) return { error: `the call log has ${index.starts.length} calls; there is no call ${i}` };
    const line = readLine(opened.fd, index, i, MAX_CALL_BYTES);
    if (line.cut) return { error: `call ${i} is larger than ${MAX_CALL_BYTES} bytes` };
    const entry = parseCall(line.text);
    return entry === null ? { error: `line ${i + 1} of logs/llm.jsonl is not a call record` } : { index: i, entry };
  } finally {
    fs.closeSync(opened.fd);
  }
}
