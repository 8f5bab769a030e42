/**
 * Search across the runs of the viewer's groups: in their code versions, their LLM calls or their
 * logs. The text is matched as a plain, case-insensitive substring (never as a pattern, so no
 * query can make matching slow), files are read a chunk at a time without following links, and
 * every request stops at a number of hits and a number of bytes read.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { openUnder } from "../io/untrusted.js";
import { codeVersions, readCode } from "./code.js";
import { parseCall } from "./llm-calls.js";
import type { ViewGroup, ViewRun } from "./groups.js";

/** The longest search text, characters. */
export const MAX_SEARCH_TEXT = 200;
/** Hits returned when the query names no limit. */
export const DEFAULT_SEARCH_LIMIT = 200;
/** The most hits one request may ask for. */
export const MAX_SEARCH_LIMIT = 1000;
/** Bytes one request reads at most, over all the files it searches. */
export const MAX_SEARCH_BYTES = 512 << 20;
/** What one read of a log takes. */
export const SEARCH_CHUNK_BYTES = 1 << 20;
/** An LLM call line longer than this is passed over (the viewer does not open it either). */
export const MAX_LLM_LINE_BYTES = 16 << 20;
/** A log line longer than this is searched in overlapping pieces of this size, so it is never held whole. */
const MAX_LOG_PIECE_BYTES = 1 << 20;
/** The longest excerpt of a hit, characters. */
export const EXCERPT_CHARS = 300;
/** The log files searched, below the run folder (an MLE-bench run keeps run.log at its top, a research run in logs/; the research agent its main_log). */
export const SEARCHED_LOGS = ["logs/agent.log", "logs/run.log", "run.log", "logs/agent/main_log", "logs/mlab/main_log"] as const;

/** What to look for and where: code versions, LLM calls (optionally only retried or failed ones) or logs. */
export interface SearchQuery {
  text: string;
  in: "code" | "llm" | "logs";
  retried?: boolean;
  limit?: number;
}

/** One match: the run, where in it (a code ref, `llm/<index>` or a log's path), the line (1-based) where lines apply, and an excerpt. */
export interface SearchHit {
  group: string;
  run_id: string;
  competition_id: string;
  where: string;
  line: number | null;
  excerpt: string;
}

/** The hits of a search; `truncated` says the search stopped at the hit limit or the byte budget. */
export interface SearchResult {
  query: { text: string; in: SearchQuery["in"]; retried: boolean; limit: number };
  hits: SearchHit[];
  runs_matched: number;
  truncated: boolean;
  scanned: { runs: number; files: number; bytes: number };
}

const SCOPES: readonly string[] = ["code", "llm", "logs"];

/** The query checked and with its defaults filled in; a UserError says what is wrong with it. */
function checkQuery(q: SearchQuery): SearchResult["query"] {
  if (q === null || typeof q !== "object") throw new UserError("a search needs a query");
  if (typeof q.in !== "string" || !SCOPES.includes(q.in)) {
    throw new UserError(`cannot search in ${JSON.stringify(String(q.in).slice(0, 40))}: choose code, llm or logs`);
  }
  if (q.retried !== undefined && typeof q.retried !== "boolean") throw new UserError("retried must be true or false");
  const retried = q.retried === true;
  if (typeof q.text !== "string") throw new UserError("the search text must be a string");
  if (q.text.length > MAX_SEARCH_TEXT) throw new UserError(`the search text is ${q.text.length} characters long; at most ${MAX_SEARCH_TEXT} are allowed`);
  if (q.text.length === 0 && !(q.in === "llm" && retried)) {
    throw new UserError("the search text is empty: give 1 to 200 characters (only a search of LLM calls for retried ones may leave it empty)");
  }
  const limit = q.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new UserError(`the hit limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, not ${String(q.limit)}`);
  }
  return { text: q.text, in: q.in, retried, limit };
}

/** `s` cut to an excerpt of at most EXCERPT_CHARS characters around a match at `at` of `len` characters. */
function excerpt(s: string, at: number, len: number): string {
  if (s.length <= EXCERPT_CHARS) return s;
  const start = Math.max(0, Math.min(s.length - EXCERPT_CHARS, at - Math.floor((EXCERPT_CHARS - len) / 2)));
  return (start > 0 ? "…" : "") + s.slice(start, start + EXCERPT_CHARS) + (start + EXCERPT_CHARS < s.length ? "…" : "");
}

/** Where `needle` (already lower case) occurs in `s` ignoring case, or -1. */
function find(s: string, needle: string): number {
  const lower = s.toLowerCase();
  const at = lower.indexOf(needle);
  // Lower-casing a few characters changes their length; the place is then only near the match.
  return at < 0 || lower.length === s.length ? at : Math.min(at, s.length - 1);
}

/** The state of one request: its hits and what it has read, and whether it must stop. */
class Search {
  readonly hits: SearchHit[] = [];
  readonly matched = new Set<string>();
  truncated = false;
  runs = 0;
  files = 0;
  bytes = 0;

  constructor(readonly q: SearchResult["query"]) {}

  get done(): boolean {
    return this.truncated;
  }

  /** Count `n` bytes about to be read; false (and the search stops) once the budget would be spent. */
  spend(n: number): boolean {
    if (this.bytes + n > MAX_SEARCH_BYTES) {
      this.truncated = true;
      return false;
    }
    this.bytes += n;
    return true;
  }

  /** Record a hit; past the limit the search stops instead. */
  hit(g: ViewGroup, run: ViewRun, where: string, line: number | null, text: string): void {
    if (this.hits.length >= this.q.limit) {
      this.truncated = true;
      return;
    }
    this.hits.push({ group: g.id, run_id: run.run_id, competition_id: run.competition_id, where, line, excerpt: text });
    this.matched.add(`${g.id}\0${run.run_id}`);
  }
}

/**
 * Hand each line of an open file (without its "\n") to `visit`, reading a chunk at a time; a line
 * longer than `maxPiece` bytes comes in pieces of that size, each overlapping the previous by
 * `overlap` bytes so a match across two pieces is still seen whole. Lines are numbered from 0 as
 * logs/llm.jsonl's index numbers them. `visit` returns true to stop.
 */
function scanLines(
  fd: number,
  size: number,
  s: Search,
  maxPiece: number,
  overlap: number,
  visit: (piece: Buffer, line: number, first: boolean, last: boolean) => boolean,
): void {
  const buf = Buffer.allocUnsafe(SEARCH_CHUNK_BYTES);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  let first = true;
  let pos = 0;
  while (pos < size) {
    const want = Math.min(SEARCH_CHUNK_BYTES, size - pos);
    if (!s.spend(want)) return;
    const n = fs.readSync(fd, buf, 0, want, pos);
    if (n === 0) break;
    pos += n;
    const chunk = buf.subarray(0, n);
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = pending.length > 0 ? Buffer.concat([...pending, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
      if (visit(piece, line, first, true)) return;
      pending = [];
      pendingBytes = 0;
      line++;
      first = true;
      start = nl + 1;
    }
    if (start < n) {
      // Copied: the chunk's buffer is read into again.
      pending.push(Buffer.from(chunk.subarray(start)));
      pendingBytes += n - start;
    }
    while (pendingBytes > maxPiece) {
      const whole = Buffer.concat(pending);
      if (visit(whole.subarray(0, maxPiece), line, first, false)) return;
      first = false;
      const keep = Buffer.from(whole.subarray(maxPiece - overlap));
      pending = [keep];
      pendingBytes = keep.length;
    }
  }
  if (pendingBytes > 0) visit(Buffer.concat(pending), line, first, true);
}

// ---------------------------------------------------------------------------------------------
// Code.

function searchCode(s: Search, g: ViewGroup, run: ViewRun, needle: string): void {
  const runDir = path.join(g.dir, run.run_id);
  const versions = codeVersions(runDir, g.kind);
  for (const v of versions) {
    if (s.done) return;
    if (!s.spend(v.bytes)) return;
    const r = readCode(runDir, g.kind, v.ref, versions);
    s.files++;
    if ("error" in r) continue;
    if (!r.text.toLowerCase().includes(needle)) continue;
    const lines = r.text.split("\n");
    for (let i = 0; i < lines.length && !s.done; i++) {
      const text = lines[i]!.replace(/\r$/, "");
      const at = find(text, needle);
      if (at >= 0) s.hit(g, run, v.ref, i + 1, excerpt(text, at, needle.length));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// LLM calls.

/** Whether a needle needs no escaping in JSON, so its absence from a raw line rules the line out. */
function jsonPlain(needle: string): boolean {
  return !/["\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]/.test(needle);
}

/** The texts of a call that are searched, in the order an excerpt prefers them. */
function callTexts(entry: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof entry.error === "string") out.push(entry.error);
  if (typeof entry.model === "string") out.push(entry.model);
  const response = entry.response as { text?: unknown } | null | undefined;
  if (response && typeof response === "object" && typeof response.text === "string") out.push(response.text);
  const messages = (entry.request as { messages?: unknown } | null | undefined)?.messages;
  if (Array.isArray(messages)) {
    for (const m of messages) {
      const content = (m as { content?: unknown } | null)?.content;
      if (typeof content === "string") out.push(content);
    }
  }
  return out;
}


function searchCalls(s: Search, g: ViewGroup, run: ViewRun, needle: string): void {
  const opened = openUnder(path.join(g.dir, run.run_id), "logs/llm.jsonl");
  if ("skipped" in opened) return;
  s.files++;
  const prefilter = needle !== "" && jsonPlain(needle);
  try {
    scanLines(opened.fd, opened.size, s, MAX_LLM_LINE_BYTES, 0, (piece, index, first, last) => {
      if (!first || !last) return false; // longer than the viewer opens
      const raw = piece.toString("utf8");
      if (prefilter && !raw.toLowerCase().includes(needle)) return false;
      const entry = parseCall(raw);
      if (entry === null) return false;
      const error = typeof entry.error === "string" && entry.error !== "" ? entry.error : null;
      const attempts = typeof entry.attempts === "number" ? entry.attempts : null;
      if (s.q.retried && error === null && !(attempts !== null && attempts > 1)) return false;
      let shown: string | null = null;
      if (needle === "") shown = `${attempts ?? "?"} attempts`;
      else {
        for (const t of callTexts(entry)) {
          const at = find(t, needle);
          if (at >= 0) {
            shown = excerpt(t, at, needle.length);
            break;
          }
        }
      }
      if (shown === null) return false;
      s.hit(g, run, `llm/${index}`, null, error !== null ? excerpt(error, 0, 0) : shown);
      return s.done;
    });
  } finally {
    fs.closeSync(opened.fd);
  }
}

// ---------------------------------------------------------------------------------------------
// Logs.

function searchLogs(s: Search, g: ViewGroup, run: ViewRun, needle: string): void {
  const runDir = path.join(g.dir, run.run_id);
  // A match near a piece's end is left to the next piece, which then holds it whole with an
  // excerpt's worth of text before it (a character is at most 4 bytes, and U+FFFD stands for one).
  const near = EXCERPT_CHARS + needle.length;
  const overlap = 8 * near + 16;
  for (const rel of SEARCHED_LOGS) {
    if (s.done) return;
    const opened = openUnder(runDir, rel);
    if ("skipped" in opened) continue;
    s.files++;
    let hitLine = -1;
    try {
      scanLines(opened.fd, opened.size, s, MAX_LOG_PIECE_BYTES, overlap, (piece, line, _first, last) => {
        if (line === hitLine) return false; // one hit per line
        const text = piece.toString("utf8").replace(/\r$/, "");
        const at = find(text, needle);
        if (at < 0 || (!last && text.length - at < near)) return false;
        hitLine = line;
        s.hit(g, run, rel, line + 1, excerpt(text, at, needle.length));
        return s.done;
      });
    } finally {
      fs.closeSync(opened.fd);
    }
  }
}

/** Search the runs of `groups` for `query`, in group and run order, stopping at its hit limit or the byte budget. */
export function searchRuns(groups: ViewGroup[], query: SearchQuery): SearchResult {
  const q = checkQuery(query);
  const s = new Search(q);
  const needle = q.text.toLowerCase();
  outer: for (const g of groups) {
    for (const run of g.runs) {
      if (s.done) break outer;
      s.runs++;
      if (q.in === "code") searchCode(s, g, run, needle);
      else if (q.in === "llm") searchCalls(s, g, run, needle);
      else searchLogs(s, g, run, needle);
    }
  }
  return { query: q, hits: s.hits, runs_matched: s.matched.size, truncated: s.truncated, scanned: { runs: s.runs, files: s.files, bytes: s.bytes } };
}
