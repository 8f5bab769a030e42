#!/usr/bin/env node
// Regenerates src/competitions/catalog.ts from a local mirror of openai/mle-bench, so the
// list of upstream competitions is derived from upstream's own configs rather than typed by hand.
//
// Usage: node scripts/upstream/catalog.mjs [mirror-git-dir] [--check]
//   mirror-git-dir  a (bare) clone of openai/mle-bench; default /work/.mirror/openai+mle-bench/repo
//   --check         exit 1 if the checked-in file differs from what would be generated (writes nothing)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const OUT = path.join(REPO, "src", "competitions", "catalog.ts");
const SPLITS_TS = path.join(REPO, "src", "competitions", "splits.ts");
const DEFAULT_MIRROR = "/work/.mirror/openai+mle-bench/repo";
// The commit the rest of the project is pinned to; a mirror at another commit still works but is flagged.
const PINNED = "783b15af77404fbaffe7255b0c4a934b46153389";

const args = process.argv.slice(2);
const check = args.includes("--check");
const mirror = args.find((a) => !a.startsWith("--")) ?? DEFAULT_MIRROR;

/** Run git against the mirror; a bare dir needs --git-dir, a work tree accepts it too. */
function git(...gitArgs) {
  return execFileSync("git", ["--git-dir", gitDir(mirror), ...gitArgs], { encoding: "utf8", maxBuffer: 64 << 20 });
}

/** Accept either a bare repository or a checkout that has a .git directory. */
function gitDir(dir) {
  const dotGit = path.join(dir, ".git");
  return fs.existsSync(dotGit) ? dotGit : dir;
}

/** Quoted ids of one `export const NAME = [...]` list in splits.ts; the TS file is the project's source of truth. */
function splitList(source, name) {
  const m = source.match(new RegExp(`export const ${name} = \\[([\\s\\S]*?)\\];`));
  if (!m) throw new Error(`${SPLITS_TS}: no list ${name}`);
  return [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]);
}

/** Strip `<id>/prepared/<dir>/` so paths are relative to the directory the project joins them to. */
function relativeTo(id, dir, p, key) {
  const prefix = `${id}/prepared/${dir}/`;
  if (p.startsWith(prefix)) return p.slice(prefix.length);
  // A few upstream sample submissions live in private/; keep them reachable from public/.
  const other = dir === "public" ? "private" : "public";
  const otherPrefix = `${id}/prepared/${other}/`;
  if (p.startsWith(otherPrefix)) return `../${other}/${p.slice(otherPrefix.length)}`;
  throw new Error(`${id}: ${key} path "${p}" is not under ${id}/prepared/`);
}

/** Categories that upstream states itself: the Lite table in its README (id | category | size). */
function readmeCategories(readme) {
  const out = new Map();
  for (const line of readme.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 4 || !/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(cells[1]) || cells[1] === "Competition") continue;
    if (cells[2] && !/^-+$/.test(cells[2])) out.set(cells[1], cells[2]);
  }
  return out;
}

const commit = git("rev-parse", "HEAD").trim();
if (commit !== PINNED) console.error(`warning: mirror is at ${commit}, the project pins ${PINNED}`);

const splitsSource = fs.readFileSync(SPLITS_TS, "utf8");
const tiers = { low: splitList(splitsSource, "LOW"), medium: splitList(splitsSource, "MEDIUM"), high: splitList(splitsSource, "HIGH") };
const dev = new Set(splitList(splitsSource, "DEV"));

// splits.ts was typed from upstream's split files; refuse to generate if the two have drifted apart.
for (const [tier, ids] of Object.entries({ ...tiers, dev: [...dev] })) {
  const upstream = git("show", `HEAD:experiments/splits/${tier}.txt`).split("\n").map((s) => s.trim()).filter(Boolean);
  const a = [...ids].sort().join(",");
  const b = [...upstream].sort().join(",");
  if (a !== b) throw new Error(`splits.ts ${tier.toUpperCase()} differs from upstream experiments/splits/${tier}.txt`);
}

const complexityOf = new Map();
for (const [tier, ids] of Object.entries(tiers)) for (const id of ids) complexityOf.set(id, tier);
const categories = readmeCategories(git("show", "HEAD:README.md"));

const dirs = git("ls-tree", "-d", "--name-only", "HEAD", "mlebench/competitions/")
  .split("\n")
  .filter(Boolean)
  .map((p) => p.slice("mlebench/competitions/".length))
  .filter((d) => !d.startsWith("_"));

const entries = [];
for (const dir of dirs) {
  const cfg = parseYaml(git("show", `HEAD:mlebench/competitions/${dir}/config.yaml`));
  const id = cfg.id;
  if (id !== dir) throw new Error(`${dir}/config.yaml has id "${id}"`);
  if (cfg.competition_type !== "simple" && cfg.competition_type !== "code") {
    throw new Error(`${id}: unexpected competition_type "${cfg.competition_type}"`);
  }
  if (typeof cfg.awards_medals !== "boolean") throw new Error(`${id}: awards_medals is not a boolean`);
  const ds = cfg.dataset ?? {};
  if (!ds.answers || !ds.sample_submission || !cfg.grader?.name) throw new Error(`${id}: incomplete config`);
  entries.push({
    id,
    name: String(cfg.name),
    type: cfg.competition_type,
    awardsMedals: cfg.awards_medals,
    answers: relativeTo(id, "private", ds.answers, "answers"),
    sampleSubmission: relativeTo(id, "public", ds.sample_submission, "sample_submission"),
    grader: String(cfg.grader.name),
    goldSubmission: ds.gold_submission ? relativeTo(id, "private", ds.gold_submission, "gold_submission") : null,
    complexity: complexityOf.get(id) ?? null,
    dev: dev.has(id),
    category: categories.get(id) ?? null,
  });
}
entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

const known = new Set(entries.map((e) => e.id));
for (const id of [...complexityOf.keys(), ...dev]) {
  if (!known.has(id)) throw new Error(`split id "${id}" has no upstream competition directory`);
}

const q = (v) => (v === null ? "null" : JSON.stringify(v));
const body = entries
  .map((e) => `  {\n${Object.entries(e).map(([k, v]) => `    ${k}: ${q(v)},`).join("\n")}\n  },`)
  .join("\n");

const text = `// Generated by scripts/upstream/catalog.mjs from upstream openai/mle-bench at commit
// ${commit}. Do not edit by hand: rerun the script.

/** One upstream MLE-bench competition as its config.yaml and the split lists describe it. */
export interface CatalogEntry {
  id: string;
  name: string;
  /** Upstream's competition_type. */
  type: "simple" | "code";
  awardsMedals: boolean;
  /** Answers file, relative to \`<id>/prepared/private\`. */
  answers: string;
  /** Relative to \`<id>/prepared/public\`; a few upstream ones sit in private/ and read "../private/…". */
  sampleSubmission: string;
  /** Upstream grader name, e.g. "accuracy". */
  grader: string;
  /** Relative to \`<id>/prepared/private\`; upstream uses it for sanity checks, not grading. */
  goldSubmission: string | null;
  /** Complexity tier; null for dev competitions, which sit outside the 75. */
  complexity: "low" | "medium" | "high" | null;
  dev: boolean;
  /** As upstream's README states it (Lite table only); null where upstream states none. */
  category: string | null;
}

/** Every upstream competition directory, sorted by id. */
export const CATALOG: readonly CatalogEntry[] = [
${body}
];

const BY_ID: ReadonlyMap<string, CatalogEntry> = new Map(CATALOG.map((e) => [e.id, e]));

/** The catalogued upstream competition with this id, if upstream has one. */
export function catalogEntry(id: string): CatalogEntry | undefined {
  return BY_ID.get(id);
}
`;

if (check) {
  const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, "utf8") : "";
  if (current !== text) {
    console.error(`${path.relative(REPO, OUT)} is out of date; run node scripts/upstream/catalog.mjs`);
    process.exit(1);
  }
  console.log(`${path.relative(REPO, OUT)} is up to date (${entries.length} competitions)`);
} else {
  fs.writeFileSync(OUT, text);
  const devCount = entries.filter((e) => e.dev).length;
  console.log(`wrote ${path.relative(REPO, OUT)}: ${entries.length} competitions (${entries.length - devCount} + ${devCount} dev)`);
}
