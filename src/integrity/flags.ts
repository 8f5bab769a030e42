/** Reading and writing the flags integrity checks leave in a run folder (integrity/<file>.json: { flags: Flag[] }). */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../io/atomic.js";
import { integrityDir } from "./disqualify.js";
import type { Flag } from "./types.js";

/** Write a check's result for a run: `details` as given, plus its flags, atomically. */
export function writeIntegrityResult(runDir: string, name: string, flags: Flag[], details: unknown): string {
  const file = path.join(integrityDir(runDir), `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, JSON.stringify({ flags, details }, null, 2) + "\n");
  return file;
}

/** Every flag recorded in the run's integrity folder (unreadable files are skipped: they are not flags). */
export function readIntegrityFlags(runDir: string): Flag[] {
  const dir = integrityDir(runDir);
  if (!fs.existsSync(dir)) return [];
  const flags: Flag[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith(".json") || name === "disqualified.json" || name.startsWith("grading_report")) continue;
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as { flags?: unknown };
      if (Array.isArray(parsed.flags)) {
        for (const f of parsed.flags) if (f && typeof (f as Flag).check === "string" && typeof (f as Flag).flagged === "boolean") flags.push(f as Flag);
      }
    } catch {
      // a half-written or foreign file is no evidence either way
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
