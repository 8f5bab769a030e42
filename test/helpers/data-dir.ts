import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getCompetition } from "../../src/competitions/registry.js";

export const FIXTURES = fileURLToDir(new URL("../fixtures/graders/", import.meta.url));

function fileURLToDir(u: URL): string {
  return decodeURIComponent(u.pathname);
}

const created: string[] = [];
process.on("exit", () => {
  for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed when the process exits. */
export function tempDir(prefix = "mlebench-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/**
 * A data dir laid out like a prepared upstream one for the given competitions, using the
 * golden fixtures' answers and leaderboards.
 */
export function fixtureDataDir(ids: string[]): string {
  const dataDir = tempDir("mlebench-data-");
  for (const id of ids) {
    const c = getCompetition(id);
    const priv = path.join(dataDir, id, "prepared", "private");
    fs.mkdirSync(priv, { recursive: true });
    fs.mkdirSync(path.join(dataDir, id, "prepared", "public"), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, id, "answers.csv"), path.join(priv, c.answers));
    fs.copyFileSync(path.join(FIXTURES, id, "leaderboard.csv"), path.join(dataDir, id, "leaderboard.csv"));
  }
  return dataDir;
}
