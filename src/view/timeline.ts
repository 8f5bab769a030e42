/**
 * A run's timeline: its start and end, every LLM call, every program it ran (AIDE nodes, research
 * steps), every validation call and every snapshot, merged in time order from the harness's records.
 */
import type { RunManifest } from "../results/manifest.js";
import type { RunRecord } from "../results/record.js";
import type { ResearchRunRecord } from "../results/research-record.js";
import { callPage, MAX_CALLS_PAGE } from "./llm-calls.js";
import type { AideTree, ResearchStepView } from "./trajectory.js";

/** The most events one timeline holds; a run with more lists the first ones and says so. */
export const MAX_TIMELINE_EVENTS = 5000;

/** One moment of a run. */
export interface TimelineEvent {
  /** UTC, ISO 8601. */
  time: string;
  /** Seconds since the run started, when its start is known. */
  t: number | null;
  kind: "start" | "end" | "llm" | "node" | "step" | "validation" | "snapshot";
  label: string;
  /** What the page opens for it: "llm/<i>", "node/<id>" or "step/<k>"; null when there is nothing more to show. */
  ref: string | null;
}

/** The timeline, and whether events were left out. */
export interface Timeline {
  events: TimelineEvent[];
  truncated: boolean;
}

/** What the timeline is built from; each part may be missing. */
export interface TimelineSources {
  runDir: string;
  record: RunRecord | ResearchRunRecord | null;
  manifest: RunManifest | null;
  aide: AideTree | null;
  steps: ResearchStepView[] | null;
}

const money = (x: number) => `$${x.toFixed(4)}`;

const HAS_ZONE = /(?:Z|[+-]\d\d:?\d\d)$/i;
const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * How far the run machine's clock zone was ahead of UTC, ms. run.json's times are written as Python
 * writes datetime.now(): local time with no zone. The manifest is written in UTC right after the
 * run ends, so the two ends, rounded to a quarter hour, give the zone; without a manifest the
 * viewer's own zone is assumed.
 */
export function zoneOffsetMs(localEnd: string | null | undefined, utcAfterEnd: string | null | undefined): number | null {
  if (!localEnd || !utcAfterEnd || HAS_ZONE.test(localEnd) || !HAS_ZONE.test(utcAfterEnd)) return null;
  const diff = Date.parse(`${localEnd}Z`) - Date.parse(utcAfterEnd);
  return Number.isFinite(diff) ? Math.round(diff / QUARTER_HOUR_MS) * QUARTER_HOUR_MS : null;
}

/** A time of the run's records in ms since the epoch: zoned times as they are, zoneless ones shifted by the run's zone. */
export function instant(time: string, offsetMs: number | null): number {
  if (HAS_ZONE.test(time) || offsetMs === null) return Date.parse(time);
  return Date.parse(`${time}Z`) - offsetMs;
}

/** Merge a run's records into one list of events in time order. */
export function buildTimeline(src: TimelineSources): Timeline {
  const events: (Omit<TimelineEvent, "t" | "time"> & { ms: number })[] = [];
  let truncated = false;
  const rec = src.record;
  const offset = zoneOffsetMs(rec?.ended_at, src.manifest?.created_at);
  const add = (e: Omit<TimelineEvent, "t">) => {
    const ms = instant(e.time, offset);
    if (!Number.isFinite(ms)) return;
    if (events.length >= MAX_TIMELINE_EVENTS) truncated = true;
    else events.push({ kind: e.kind, label: e.label, ref: e.ref, ms });
  };
  if (rec?.started_at) add({ time: rec.started_at, kind: "start", label: "run started", ref: null });

  for (let from = 0; from < MAX_TIMELINE_EVENTS; from += MAX_CALLS_PAGE) {
    const page = callPage(src.runDir, from, MAX_CALLS_PAGE);
    if ("error" in page) break;
    for (const c of page.calls) {
      if (c.time === null) continue;
      const tokens = c.input_tokens !== null ? `, ${c.input_tokens} → ${c.output_tokens ?? "?"} tokens` : "";
      const cost = c.cost_usd !== null ? `, ${money(c.cost_usd)}` : "";
      const retries = c.attempts !== null && c.attempts > 1 ? `, ${c.attempts} attempts` : "";
      add({ time: c.time, kind: "llm", label: `LLM call ${c.index} (${c.model ?? "?"}${tokens}${cost}${retries})${c.error ? `: ${c.error}` : ""}`, ref: `llm/${c.index}` });
    }
    if (page.from + page.calls.length >= page.total) break;
    if (from + MAX_CALLS_PAGE >= MAX_TIMELINE_EVENTS) truncated = true;
  }

  for (const n of src.aide?.nodes ?? []) {
    if (!n.created_at) continue;
    const of = n.parent_id !== null ? ` of ${n.parent_id}` : "";
    const outcome = n.is_bug ? "buggy" : `metric ${n.metric}`;
    const best = src.aide?.best_id === n.id ? ", best" : "";
    add({ time: n.created_at, kind: "node", label: `node ${n.id} (${n.stage}${of}): ${outcome}${best}`, ref: `node/${n.id}` });
  }
  for (const s of src.steps ?? []) {
    if (!s.ended) continue;
    const files = s.changed.length > 0 ? ` (changed ${s.changed.slice(0, 3).join(", ")}${s.changed.length > 3 ? ", …" : ""})` : "";
    add({ time: s.ended, kind: "step", label: `step ${s.step}: ${s.action}${files}`, ref: `step/${s.step}` });
  }
  for (const v of src.manifest?.validation.log ?? []) {
    const answer = v.valid === null ? `HTTP ${v.status}` : v.valid ? "valid" : "invalid";
    const change = v.changed_lines !== null ? `, ${v.changed_lines} lines changed` : "";
    add({ time: v.time, kind: "validation", label: `validation call ${v.route}: ${answer}${change}`, ref: null });
  }
  if (rec && "snapshots" in rec && rec.started_at) {
    const start = instant(rec.started_at, offset);
    for (const s of rec.snapshots) add({ time: new Date(start + s.elapsed_seconds * 1000).toISOString(), kind: "snapshot", label: `snapshot of the submission at ${s.elapsed_seconds} s (${s.file})`, ref: null });
  }
  if (rec?.ended_at) {
    const how = "exit_reason" in rec ? (rec.exit_reason ?? rec.status) : `${rec.status}${rec.stop ? ` (${rec.stop})` : ""}`;
    add({ time: rec.ended_at, kind: "end", label: `run ended: ${how}`, ref: null });
  }

  const start = rec?.started_at ? instant(rec.started_at, offset) : NaN;
  // A stable sort keeps each source's own order among events of the same millisecond.
  const sorted = events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.ms - b.e.ms || a.i - b.i)
    .map(({ e }): TimelineEvent => ({ time: new Date(e.ms).toISOString(), t: Number.isFinite(start) ? Math.round(e.ms - start) / 1000 : null, kind: e.kind, label: e.label, ref: e.ref }));
  return { events: sorted, truncated };
}
