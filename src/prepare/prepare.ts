import fs from "node:fs";
import path from "node:path";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { competitionPaths } from "../core/paths.js";
import { writeFileAtomic } from "../core/atomic.js";
import { hashFile } from "../io/hash-file.js";
import { materializeSources, resolveSource } from "../sources/packages.js";

/** md5 of every prepared file, keyed by its path under prepared/ ("public/train.csv"). */
export type Checksums = Record<string, string>;

export interface PrepareResult {
  id: string;
  /** "prepared": files were written; "verified": they were already there and match. */
  status: "prepared" | "verified";
  files: number;
  dataDir: string;
}

export interface PrepareOptions {
  /** Prepare again even when the files are present and verified. */
  force?: boolean;
  /** Record the produced checksums in the competition folder instead of checking them (maintainers). */
  updateChecksums?: boolean;
}

/** md5 of a file, streamed in chunks. */
export function md5File(file: string): string {
  return hashFile(file, "md5");
}

/** md5 of every file under a directory, keyed by forward-slash relative path, sorted. */
export function checksumTree(dir: string): Checksums {
  const out: Checksums = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else out[child] = md5File(path.join(dir, child));
    }
  };
  walk("");
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The checksums recorded in the project for an offline competition (empty if none yet). */
export function recordedChecksums(c: Competition): Checksums {
  const file = path.join(c.offline!.assets, "checksums.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Checksums) : {};
}

/** Differences between two checksum maps, one line each; empty when they agree. */
export function compareChecksums(expected: Checksums, actual: Checksums): string[] {
  const problems: string[] = [];
  for (const [f, sum] of Object.entries(expected)) {
    if (!(f in actual)) problems.push(`${f}: missing`);
    else if (actual[f] !== sum) problems.push(`${f}: md5 ${actual[f]}, expected ${sum}`);
  }
  for (const f of Object.keys(actual)) if (!(f in expected)) problems.push(`${f}: not expected`);
  return problems;
}

/**
 * Prepare an offline competition into the data dir: public/private files, the description
 * (copied into public/ for agents) and the reference leaderboard. Files are written to a
 * scratch directory, checked against the recorded checksums, then moved into place, so an
 * interrupted or failed prepare never leaves a half-written prepared/ behind. A competition
 * already prepared with matching checksums is left untouched.
 */
export async function prepareCompetition(c: Competition, dataDir: string, opts: PrepareOptions = {}): Promise<PrepareResult> {
  if (!c.offline) {
    throw new UserError(
      `"${c.id}" needs the Kaggle competition's data, which this version cannot download yet; ` +
        `the embedded offline benchmark is prepared with: mlebench prepare --split offline`,
    );
  }
  const spec = c.offline;
  const paths = competitionPaths(dataDir, c.id);
  const prepared = path.dirname(paths.public);
  const expected = recordedChecksums(c);
  const leaderboardSrc = path.join(spec.assets, "leaderboard.csv");
  const hasExpected = Object.keys(expected).length > 0;

  const leaderboardReady = !fs.existsSync(leaderboardSrc) || fs.existsSync(paths.leaderboard);
  if (!opts.force && !opts.updateChecksums && hasExpected && fs.existsSync(prepared) && leaderboardReady) {
    const problems = compareChecksums(expected, checksumTree(prepared));
    if (problems.length === 0) return { id: c.id, status: "verified", files: Object.keys(expected).length, dataDir };
  }

  for (const s of Object.values(spec.sources)) resolveSource(s);
  fs.mkdirSync(paths.root, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(paths.root, ".prepare-"));
  // Exported R datasets live beside the scratch folder, not in it: they are inputs, not outputs.
  const exported = fs.mkdtempSync(path.join(paths.root, ".sources-"));
  try {
    const sources = materializeSources(spec.sources, exported);
    const pub = path.join(scratch, "public");
    const priv = path.join(scratch, "private");
    fs.mkdirSync(pub);
    fs.mkdirSync(priv);
    await (await spec.preparer()).prepare({ sources, public: pub, private: priv });
    fs.copyFileSync(path.join(spec.assets, "description.md"), path.join(pub, "description.md"));
    const actual = checksumTree(scratch);
    if (opts.updateChecksums) {
      writeFileAtomic(path.join(sourceAssets(spec.assets), "checksums.json"), JSON.stringify(actual, null, 2) + "\n");
    } else {
      const problems = hasExpected ? compareChecksums(expected, actual) : ["no checksums.json recorded"];
      if (problems.length > 0) {
        throw new Error(
          `Prepared files for "${c.id}" do not match the recorded checksums (the source data or the ` +
            `preparer changed):\n  ${problems.join("\n  ")}`,
        );
      }
    }
    fs.rmSync(prepared, { recursive: true, force: true });
    fs.renameSync(scratch, prepared);
    // mkdtemp creates the folder private to its owner; agents run as another user and must read public/.
    fs.chmodSync(prepared, 0o755);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(exported, { recursive: true, force: true });
  }
  // A competition whose reference leaderboard is still being generated has none yet.
  if (fs.existsSync(leaderboardSrc)) writeFileAtomic(paths.leaderboard, fs.readFileSync(leaderboardSrc));
  return { id: c.id, status: "prepared", files: Object.keys(checksumTree(prepared)).length, dataDir };
}

/** The competition folder under src/ when running from the build (dist/), so recorded files land in the sources. */
function sourceAssets(assets: string): string {
  const src = assets.replace(/([\\/])dist([\\/])competitions([\\/])/, "$1src$2competitions$3");
  return src !== assets && fs.existsSync(src) ? src : assets;
}
