import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Competition } from "../../src/core/competition.js";
import { getCompetition } from "../../src/competitions/registry.js";
import { removeTree } from "../../src/io/remove-tree.js";

export const FIXTURES = fileURLToDir(new URL("../fixtures/graders/", import.meta.url));

function fileURLToDir(u: URL): string {
  return decodeURIComponent(u.pathname);
}

const created: string[] = [];

/** Remove every directory tempDir made in this process (test/setup.ts calls it after each test file). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) removeTree(dir);
}
// Also on a normal exit, for scripts that use these helpers outside vitest.
process.on("exit", removeTempDirs);

/** A fresh temporary directory, removed when the process exits. */
export function tempDir(prefix = "mlebench-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/**
 * A data dir laid out like a prepared upstream one for the given competitions (ids from the
 * registry, or competition objects), using the golden fixtures' answers and leaderboards.
 */
export function fixtureDataDir(competitions: (string | Competition)[]): string {
  const dataDir = tempDir("mlebench-data-");
  for (const item of competitions) {
    const c = typeof item === "string" ? getCompetition(item) : item;
    const priv = path.join(dataDir, c.id, "prepared", "private");
    const answers = path.join(priv, c.answers);
    fs.mkdirSync(path.dirname(answers), { recursive: true });
    fs.mkdirSync(path.join(dataDir, c.id, "prepared", "public"), { recursive: true });
    // The fixture names its answers file by the competition's extension (answers.csv, answers.jsonl).
    fs.copyFileSync(path.join(FIXTURES, c.id, `answers${path.extname(c.answers)}`), answers);
    fs.copyFileSync(path.join(FIXTURES, c.id, "leaderboard.csv"), path.join(dataDir, c.id, "leaderboard.csv"));
  }
  return dataDir;
}

/** The golden score of a fixture submission, as scripts/golden/graders.py recorded it. */
export function goldenScore(id: string, name: string): number {
  const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, id, "expected.json"), "utf8")) as Record<string, number | null>;
  const score = expected[name];
  if (typeof score !== "number") throw new Error(`no golden score for ${id}/${name}`);
  return score;
}
