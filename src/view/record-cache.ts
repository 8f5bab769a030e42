/**
 * The harness's JSON records of a run (journal.json, trace.json) parsed for the viewer, kept per
 * file version so the pages that each need one (tree, steps, timeline, code versions) parse it once.
 */
import fs from "node:fs";
import path from "node:path";
import { openUnder, readOpened } from "../io/untrusted.js";

/** journal.json and trace.json are the harness's, but grow with the run; past this they are not parsed. */
export const MAX_RECORD_BYTES = 64 << 20;
/** Parsed records kept, and the bytes of their files at most. */
const CACHE_ENTRIES = 16;
const CACHE_BYTES = 256 << 20;

interface CacheEntry {
  key: string;
  bytes: number;
  value: unknown;
}

const cache = new Map<string, CacheEntry>();

function cached<T>(name: string, key: string): T | undefined {
  const hit = cache.get(name);
  if (hit?.key !== key) return undefined;
  // Re-inserted so the map's order is least recently used first.
  cache.delete(name);
  cache.set(name, hit);
  return hit.value as T;
}

function remember(name: string, key: string, bytes: number, value: unknown): void {
  cache.delete(name);
  cache.set(name, { key, bytes, value });
  let total = 0;
  for (const e of cache.values()) total += e.bytes;
  for (const [other, e] of cache) {
    if (cache.size <= CACHE_ENTRIES && total <= CACHE_BYTES) break;
    if (other === name) continue;
    cache.delete(other);
    total -= e.bytes;
  }
}

/**
 * A harness JSON record of a run, parsed by `parse`, or `empty` when it is missing, a link, too
 * large or malformed. `use` names the parse, so one file parsed two ways is kept as two entries.
 */
export function readRecord<T>(runDir: string, rel: string, use: string, parse: (v: unknown) => T | null, empty: T): T {
  const opened = openUnder(runDir, rel);
  if ("skipped" in opened) return empty;
  try {
    const st = fs.fstatSync(opened.fd);
    const name = `${use}\0${path.join(runDir, rel)}`;
    const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    const known = cached<T>(name, key);
    if (known !== undefined) return known;
    if (st.size > MAX_RECORD_BYTES) return empty;
    const { bytes } = readOpened(opened.fd, st.size, MAX_RECORD_BYTES);
    let value: T | null = null;
    try {
      value = parse(JSON.parse(bytes.toString("utf8")));
    } catch {
      value = null;
    }
    remember(name, key, bytes.length, value ?? empty);
    return value ?? empty;
  } catch {
    return empty;
  } finally {
    fs.closeSync(opened.fd);
  }
}
