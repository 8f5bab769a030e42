import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { competitionPaths } from "../core/paths.js";
import { writeFileAtomic } from "../core/atomic.js";
import { extractArchive } from "../io/extract.js";
import { parseChecksumsYaml } from "../sources/upstream/index.js";
import { md5File } from "./prepare.js";

/** Checksums as upstream's checksums.yaml holds them, flattened: "zip", "public/<file>", "private/<file>". */
export type FlatChecksums = Record<string, string>;

/** What the prepare pipeline needs from the outside world (Kaggle, upstream), so tests can stand in. */
export interface UpstreamDeps {
  /** Upstream metadata: description text, checksums and leaderboard file; null where unavailable (with why). */
  metadata(id: string): Promise<{ description: string | null; checksums: FlatChecksums | null; leaderboard: string | null; problems: string[] }>;
  /** Download the competition's data zip (all files) to `dest`. */
  download(id: string, dest: string): Promise<void>;
}

/** The upstream prepare flags, with upstream's meanings. */
export interface UpstreamPrepareOptions {
  keepRaw?: boolean;
  skipVerification?: boolean;
  overwriteChecksums?: boolean;
  overwriteLeaderboard?: boolean;
}

/** What a prepare did, and what it could not do (metadata that was offline, say). */
export interface UpstreamPrepareResult {
  id: string;
  status: "prepared" | "verified";
  warnings: string[];
}

/** Files upstream checksums: those directly in public/ or private/ with these extensions. */
const CHECKSUMMED = /\.(csv|json|jsonl|parquet|bson)$/;

/** md5 of the checksummed files directly under dir, keyed "<prefix>/<name>". */
export function topLevelChecksums(dir: string, prefix: string): FlatChecksums {
  const out: FlatChecksums = {};
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile() && CHECKSUMMED.test(e.name)) out[`${prefix}/${e.name}`] = md5File(path.join(dir, e.name));
  }
  return out;
}

/** A unified-diff-like listing of checksum differences, one line per key. */
export function checksumDiff(expected: FlatChecksums, actual: FlatChecksums): string {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  const lines: string[] = [];
  for (const k of keys) {
    if (expected[k] === actual[k]) continue;
    if (expected[k] !== undefined) lines.push(`- ${k}: ${expected[k]}`);
    if (actual[k] !== undefined) lines.push(`+ ${k}: ${actual[k]}`);
  }
  return lines.join("\n");
}

/** Nest flat checksums back into upstream's YAML shape (zip, public: {...}, private: {...}). */
export function checksumsYaml(flat: FlatChecksums): string {
  const nested: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const i = k.indexOf("/");
    if (i < 0) nested[k] = v;
    else ((nested[k.slice(0, i)] ??= {}) as Record<string, string>)[k.slice(i + 1)] = v;
  }
  return YAML.stringify(nested);
}

function nonEmptyDir(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/**
 * Prepare an upstream competition as upstream's `mlebench prepare` does: leaderboard → data zip
 * (unless raw/ is already populated) → md5 of the zip → extract → the competition's preparer →
 * public/description.md → md5 of public/ and private/ files → optionally drop raw/. Work happens
 * in scratch folders renamed into place, so an interrupted prepare never looks finished.
 */
export async function prepareUpstream(
  c: Competition,
  dataDir: string,
  deps: UpstreamDeps,
  opts: UpstreamPrepareOptions = {},
): Promise<UpstreamPrepareResult> {
  const loadSpec = c.upstream;
  // Checked before anything is downloaded: Kaggle archives can be many gigabytes.
  if (!loadSpec) {
    throw new UserError(
      `The preparer of "${c.id}" is not implemented yet, so its public/private split cannot be made (nothing was downloaded); ` +
        "see mlebench list --all for what can be prepared",
    );
  }
  const p = competitionPaths(dataDir, c.id);
  const warnings: string[] = [];
  const verify = !opts.skipVerification;
  fs.mkdirSync(p.root, { recursive: true });

  const meta = await deps.metadata(c.id);
  for (const problem of meta.problems) {
    warnings.push(`${problem}; fetch it later with: mlebench prepare -c ${c.id}`);
  }
  if (meta.leaderboard && (opts.overwriteLeaderboard || !fs.existsSync(p.leaderboard))) {
    writeFileAtomic(p.leaderboard, fs.readFileSync(meta.leaderboard));
  }
  const localChecksums = fs.existsSync(p.checksums) ? parseChecksumsYaml(fs.readFileSync(p.checksums, "utf8"), p.checksums) : null;
  const expected = opts.overwriteChecksums ? null : (localChecksums ?? meta.checksums);
  if (verify && !expected && !opts.overwriteChecksums) {
    throw new UserError(
      `No checksums for "${c.id}" (upstream's checksums.yaml could not be fetched); run again online, or pass --skip-verification`,
    );
  }

  const actual: FlatChecksums = {};
  if (!nonEmptyDir(p.raw)) {
    const zip = path.join(p.root, `${c.id}.zip`);
    if (!fs.existsSync(zip)) await deps.download(c.id, zip);
    if (verify || opts.overwriteChecksums) {
      actual.zip = md5File(zip);
      if (expected?.zip !== undefined && expected.zip !== actual.zip) {
        throw new UserError(`Checksum of ${zip} does not match: expected ${expected.zip}, got ${actual.zip}. Delete it and prepare again.`);
      }
    }
    const scratch = `${p.raw}.partial`;
    fs.rmSync(scratch, { recursive: true, force: true });
    await extractArchive(zip, scratch);
    fs.rmSync(p.raw, { recursive: true, force: true });
    fs.renameSync(scratch, p.raw);
  } else if (expected?.zip !== undefined) {
    // Data unpacked by hand has no zip to check; the prepared files are still checked below.
    actual.zip = expected.zip;
  }

  const prepared = path.dirname(p.public);
  const scratch = `${prepared}.partial`;
  fs.rmSync(scratch, { recursive: true, force: true });
  const pub = path.join(scratch, "public");
  const priv = path.join(scratch, "private");
  fs.mkdirSync(pub, { recursive: true });
  fs.mkdirSync(priv, { recursive: true });
  const spec = await loadSpec();
  await spec.prepare({ raw: p.raw, public: pub, private: priv });
  if (meta.description !== null) fs.writeFileSync(path.join(pub, "description.md"), meta.description);
  else warnings.push(`public/description.md was not written (upstream description unavailable); fetch it later with: mlebench prepare -c ${c.id}`);
  for (const [dir, label] of [[pub, "public"], [priv, "private"]] as const) {
    if (!nonEmptyDir(dir)) throw new UserError(`The preparer of "${c.id}" left ${label}/ empty`);
  }
  // Agents see public/: a copy of the answers there would be a leak, whatever its name.
  const answers = path.join(priv, c.answers);
  if (fs.existsSync(answers)) {
    const secret = md5File(answers);
    const leaked = fs.readdirSync(pub).filter((f) => fs.statSync(path.join(pub, f)).isFile() && md5File(path.join(pub, f)) === secret);
    if (leaked.length > 0) {
      fs.rmSync(scratch, { recursive: true, force: true });
      throw new UserError(`The preparer of "${c.id}" put a copy of the private answers in public/ (${leaked.join(", ")}); refusing to publish it`);
    }
  }

  if (verify || opts.overwriteChecksums) {
    Object.assign(actual, topLevelChecksums(pub, "public"), topLevelChecksums(priv, "private"));
    if (opts.overwriteChecksums || !expected) {
      writeFileAtomic(p.checksums, checksumsYaml(actual));
    } else {
      const skipped = new Set(spec.unverifiable ?? []);
      for (const f of skipped) {
        if (f in actual) warnings.push(`${f}: not compared with upstream's checksum (same content, different bytes; see the competition's README.md)`);
      }
      const keep = (sums: FlatChecksums) => Object.fromEntries(Object.entries(sums).filter(([k]) => !skipped.has(k)));
      const diff = checksumDiff(keep(expected), keep(actual));
      if (diff) {
        fs.rmSync(scratch, { recursive: true, force: true });
        throw new UserError(`Checksums of the prepared files of "${c.id}" do not match (- expected, + actual):\n${diff}`);
      }
    }
  }
  fs.rmSync(prepared, { recursive: true, force: true });
  fs.renameSync(scratch, prepared);
  if (!opts.keepRaw) fs.rmSync(p.raw, { recursive: true, force: true });
  return { id: c.id, status: "prepared", warnings };
}
