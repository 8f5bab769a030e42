#!/usr/bin/env node
// Regenerates src/competitions/catalog.json, the metadata of every upstream competition (its
// config.yaml, its complexity from experiments/splits/*.txt, its category from the README's Lite
// table), and upstream's named subsets (experiments/splits/systemcard.txt, in its own order), from a
// local mirror of openai/mle-bench, so none of it is typed by hand.
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
const OUT = path.join(REPO, "src", "competitions", "catalog.json");
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

/** The ids of one of upstream's split files (experiments/splits/<name>.txt), one per line. */
function splitFile(name) {
  return git("show", `HEAD:experiments/splits/${name}.txt`).split("\n").map((s) => s.trim()).filter(Boolean);
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

const tiers = { low: splitFile("low"), medium: splitFile("medium"), high: splitFile("high") };
const dev = new Set(splitFile("dev"));
const complexityOf = new Map();
for (const [tier, ids] of Object.entries(tiers)) for (const id of ids) complexityOf.set(id, tier);
// Named subsets upstream publishes beside the tiers, kept in the order of their files.
const NAMED_SPLITS = ["systemcard"];
const namedSplits = Object.fromEntries(NAMED_SPLITS.map((name) => [name, splitFile(name)]));
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
for (const id of [...complexityOf.keys(), ...dev, ...Object.values(namedSplits).flat()]) {
  if (!known.has(id)) throw new Error(`split id "${id}" has no upstream competition directory`);
}

const data = { upstream: { repository: "openai/mle-bench", commit }, competitions: entries, splits: namedSplits };
const text = `${JSON.stringify(data, null, 2)}\n`;

if (check) {
  const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, "utf8") : "";
  if (current !== text) {
    console.error(`${path.relative(REPO, OUT)} is out of date; run node scripts/upstream/catalog.mjs`);
    process.exit(1);
  }
  console.log(`${path.relative(REPO, OUT)} is up to date (${entries.length} competitions)`);
} else {
  const tmp = `${OUT}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, OUT);
  const devCount = entries.filter((e) => e.dev).length;
  console.log(`wrote ${path.relative(REPO, OUT)}: ${entries.length} competitions (${entries.length - devCount} + ${devCount} dev)`);
}
