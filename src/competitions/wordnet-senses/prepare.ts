import fs from "node:fs";
import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { randomIds } from "../_shared/random-ids.js";

/** Synsets drawn at random from all noun synsets: the test set, and the training set after it. */
const TEST_ROWS = 6000;
const TRAIN_ROWS = 30000;
const SEED = 19850301;

/**
 * The label columns: high-level categories, each a noun synset (by its offset in data.noun, with
 * its first lemma as a check). A synset belongs to a category when the category is the synset
 * itself or one of its ancestors through hypernym and instance-hypernym links. Some categories
 * nest (a person is an organism, an act is an event), and a synset with several hypernyms can
 * reach several unrelated ones.
 */
export const CATEGORIES: [name: string, offset: string, lemma: string][] = [
  ["person", "00007846", "person"],
  ["animal", "00015388", "animal"],
  ["plant", "00017222", "plant"],
  ["organism", "00004475", "organism"],
  ["artifact", "00021939", "artifact"],
  ["device", "03183080", "device"],
  ["food", "00021265", "food"],
  ["location", "00027167", "location"],
  ["act", "00030358", "act"],
  ["event", "00029378", "event"],
  ["attribute", "00024264", "attribute"],
  ["communication", "00033020", "communication"],
  ["cognition", "00023271", "cognition"],
  ["matter", "00020827", "matter"],
  ["body_part", "05220461", "body_part"],
  ["group", "00031264", "group"],
  ["state", "00024720", "state"],
  ["measure", "00033615", "measure"],
];

/** What the dictionary says about one noun synset. */
export interface Synset {
  offset: string;
  lemmas: string[];
  /** Offsets of its hypernyms and instance hypernyms. */
  parents: string[];
  gloss: string;
}

/**
 * The noun synsets of a WordNet `data.noun` file, in file order. Lines starting with two spaces
 * are the licence header; every other line must be a well-formed synset record
 * (`offset lex_filenum n w_cnt word lex_id ... p_cnt ptr ... | gloss`), or it is an error
 * naming the line.
 */
export function readNounSynsets(file: string): Synset[] {
  const out: Synset[] = [];
  fs.readFileSync(file, "latin1").split("\n").forEach((line, i) => {
    if (line === "" || line.startsWith("  ")) return;
    const bad = (why: string) => new Error(`${file}: line ${i + 1} is not a noun synset record (${why}): ${JSON.stringify(line.slice(0, 80))}`);
    const bar = line.indexOf(" | ");
    if (bar < 0) throw bad("no gloss");
    const f = line.slice(0, bar).trim().split(" ");
    if (!/^\d{8}$/.test(f[0]) || f[2] !== "n") throw bad("offset or part of speech");
    const words = parseInt(f[3], 16);
    if (!/^[0-9a-f]{2}$/i.test(f[3]) || words < 1) throw bad("word count");
    const lemmas = Array.from({ length: words }, (_, k) => f[4 + 2 * k]);
    const at = 4 + 2 * words;
    const pointers = Number(f[at]);
    if (!/^\d{3}$/.test(f[at] ?? "") || f.length < at + 1 + 4 * pointers || lemmas.some((l) => !l)) throw bad("pointer count");
    const parents: string[] = [];
    for (let k = 0; k < pointers; k++) {
      const [symbol, target, pos] = f.slice(at + 1 + 4 * k, at + 4 + 4 * k);
      if ((symbol === "@" || symbol === "@i") && pos === "n") parents.push(target);
    }
    out.push({ offset: f[0], lemmas, parents, gloss: line.slice(bar + 3).trim() });
  });
  return out;
}

/** For every synset, the set of category names among itself and its ancestors. */
function categoriesOf(synsets: Synset[], file: string): Map<string, Set<string>> {
  const byOffset = new Map(synsets.map((s) => [s.offset, s]));
  for (const [name, offset, lemma] of CATEGORIES) {
    if (byOffset.get(offset)?.lemmas[0] !== lemma) throw new Error(`${file}: category "${name}" expects synset ${offset} to be "${lemma}"`);
  }
  const root = new Map(CATEGORIES.map(([name, offset]) => [offset, name]));
  const memo = new Map<string, Set<string>>();
  const visit = (offset: string, path: Set<string>): Set<string> => {
    const known = memo.get(offset);
    if (known) return known;
    const s = byOffset.get(offset);
    if (!s) throw new Error(`${file}: a hypernym link points to the missing synset ${offset}`);
    if (path.has(offset)) throw new Error(`${file}: the hypernym links of synset ${offset} form a cycle`);
    path.add(offset);
    const out = new Set<string>();
    const own = root.get(offset);
    if (own) out.add(own);
    for (const p of s.parents) for (const c of visit(p, path)) out.add(c);
    path.delete(offset);
    memo.set(offset, out);
    return out;
  };
  for (const s of synsets) visit(s.offset, new Set());
  return memo;
}

/** The gloss with the synset's own lemmas (and their plurals in -s/-es) replaced by `___`, longest lemma first. */
export function maskLemmas(gloss: string, lemmas: readonly string[]): string {
  const forms = [...new Set(lemmas.map((l) => l.replace(/_/g, " ")))].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  let out = gloss;
  for (const form of forms) {
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escaped}(?:e?s)?(?![A-Za-z0-9])`, "gi"), "___");
  }
  return out;
}

/**
 * Draw 36,000 of the 82,115 noun synsets at random (seeded): 6,000 are the test set, 30,000 the
 * training set. Each row publishes the synset's lemmas and its gloss (the synset's own lemmas
 * masked); its offset and lexicographer file, which encode its place in the hierarchy, are not
 * published. Ids come from a second seeded shuffle; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const file = path.join(ctx.sources.wordnet, "data.noun");
  const synsets = readNounSynsets(file);
  if (synsets.length < TEST_ROWS + TRAIN_ROWS) throw new Error(`${file}: only ${synsets.length} noun synsets, expected at least ${TEST_ROWS + TRAIN_ROWS}`);
  const labels = categoriesOf(synsets, file);

  const rng = new Mulberry32(SEED);
  const drawn = rng.shuffle(synsets.map((_, i) => i)).slice(0, TEST_ROWS + TRAIN_ROWS);
  const id = randomIds(rng, drawn);
  const test = id.sortById(drawn.slice(0, TEST_ROWS));
  const train = id.sortById(drawn.slice(TEST_ROWS));

  const ids = id.column;
  const text = (rows: number[]): [string, Column][] => [
    ["lemmas", { kind: "string", values: rows.map((i) => synsets[i].lemmas.map((l) => l.replace(/_/g, " ")).join("; ")) }],
    ["gloss", { kind: "string", values: rows.map((i) => maskLemmas(synsets[i].gloss, synsets[i].lemmas)) }],
  ];
  const targets = (rows: number[]): [string, Column][] =>
    CATEGORIES.map(([name]) => [name, { kind: "int", values: Float64Array.from(rows, (i) => (labels.get(synsets[i].offset)!.has(name) ? 1 : 0)) }]);
  const constant = (rows: number[]): [string, Column][] =>
    CATEGORIES.map(([name]) => [name, { kind: "float", values: new Float64Array(rows.length).fill(0.5) }]);

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...text(train), ...targets(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...text(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ...constant(test)]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), ...targets(test)]));
}
