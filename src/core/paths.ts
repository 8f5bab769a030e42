import os from "node:os";
import path from "node:path";
import type { Competition } from "./competition.js";

/** The per-user cache directory, following each platform's convention (XDG on Linux). */
export function userCacheDir(): string {
  const home = os.homedir();
  if (process.platform === "darwin") return path.join(home, "Library", "Caches");
  if (process.platform === "win32") {
    return process.env.LOCALAPPDATA ?? path.join(home, "AppData", "Local");
  }
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(home, ".cache");
}

/**
 * The data directory: an explicit flag wins, then MLEBENCH_DATA_DIR, then the same
 * default upstream MLE-bench uses (<user cache>/mle-bench/data), so both tools can share one.
 */
export function resolveDataDir(flag?: string): string {
  if (flag) return path.resolve(flag);
  const env = process.env.MLEBENCH_DATA_DIR;
  if (env) return path.resolve(env);
  return path.join(userCacheDir(), "mle-bench", "data");
}

/** Paths of one competition inside a data directory (upstream's layout). */
export function competitionPaths(dataDir: string, id: string) {
  const root = path.join(dataDir, id);
  return {
    root,
    raw: path.join(root, "raw"),
    public: path.join(root, "prepared", "public"),
    private: path.join(root, "prepared", "private"),
    leaderboard: path.join(root, "leaderboard.csv"),
    checksums: path.join(root, "checksums.yaml"),
  };
}

/** Paths of the answers file and leaderboard of a competition in a data dir. */
export function gradingPaths(competition: Pick<Competition, "id" | "answers">, dataDir: string): { answers: string; leaderboard: string } {
  const p = competitionPaths(dataDir, competition.id);
  return { answers: path.join(p.private, competition.answers), leaderboard: p.leaderboard };
}
