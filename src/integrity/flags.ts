/** Reading and writing the flags integrity checks leave in a run folder (integrity/<file>.json: { flags: Flag[] }). */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import { isRealDirectory, readRegularText } from "../io/untrusted.js";
import { integrityDir, realDirectory } from "./disqualify.js";
import type { Flag } from "./types.js";

/** A check's result file is at most a few MiB (evidence is capped); larger ones are not read. */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;
/** Files looked at in a run's integrity folder: one per check, so a few. */
const MAX_RESULT_FILES = 1000;

/** Write a check's result for a run: `details` as given, plus its flags, atomically. */
export function writeIntegrityResult(runDir: string, name: string, flags: Flag[], details: unknown): string {
  const file = path.join(realDirectory(integrityDir(runDir)), `${name}.json`);
  writeFileAtomic(file, JSON.stringify({ flags, details }, null, 2) + "\n");
  return file;
}

/** Every flag recorded in the run's integrity folder (unreadable files, links and special files are skipped: they are not flags). */
export function readIntegrityFlags(runDir: string): Flag[] {
  const dir = integrityDir(runDir);
  if (!isRealDirectory(dir)) return [];
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort().slice(0, MAX_RESULT_FILES);
  } catch {
    return [];
  }
  const flags: Flag[] = [];
  for (const name of names) {
    if (!name.endsWith(".json") || name === "disqualified.json" || name.startsWith("grading_report")) continue;
    const text = readRegularText(path.join(dir, name), MAX_RESULT_BYTES);
    if (text === null) continue;
    try {
      const parsed = JSON.parse(text) as { flags?: unknown } | null;
      if (parsed && Array.isArray(parsed.flags)) {
        for (const f of parsed.flags) if (f && typeof (f as Flag).check === "string" && typeof (f as Flag).flagged === "boolean") flags.push(f as Flag);
      }
    } catch {
      // a half-written, cut or foreign file is no evidence either way
    }
  }
  return flags;
}

/** Per check, in first-seen order: how many flags there were and how many of them flagged the run. */
export function countFlags(flags: Flag[]): { check: string; checked: number; flagged: number }[] {
  const by = new Map<string, { check: string; checked: number; flagged: number }>();
  for (const f of flags) {
    const row = by.get(f.check) ?? { check: f.check, checked: 0, flagged: 0 };
    row.checked++;
    if (f.flagged) row.flagged++;
    by.set(f.check, row);
  }
  return [...by.values()];
}
