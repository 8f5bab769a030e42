import fs from "node:fs";
import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { randomIds } from "../_shared/random-ids.js";

/** Words drawn at random from the eligible ones: the test set, and the training set after it. */
const TEST_WORDS = 3000;
const TRAIN_WORDS = 30000;
const SEED = 19930401;

/** The 39 ARPAbet phonemes of the dictionary; vowels carry a stress digit in the source. */
export const PHONEMES = [
  "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH", "IH", "IY", "JH", "K",
  "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH",
];

/**
 * Words that CSV readers with pandas' defaults take for a missing value; published, they would
 * come back as empty cells, so they are left out.
 */
const READ_AS_MISSING = new Set(["nan", "null"]);

/** The sample submission's guess for every word: the commonest phoneme of English words. */
const SAMPLE_GUESS = "AH";

/** One dictionary entry kept for the competition. */
export interface Entry {
  word: string;
  phonemes: string;
}

/**
 * The letters-only words of the dictionary file with their first listed pronunciation, in file
 * order, lower-cased, stress digits removed. Entries with other characters (apostrophes, dots,
 * digits) and alternative pronunciations (`WORD(1)`) are skipped; a line that is not
 * `WORD  PHONEME ...`, or a phoneme outside ARPAbet, is an error naming the line.
 */
export function readDictionary(file: string): Entry[] {
  const known = new Set(PHONEMES);
  const seen = new Set<string>();
  const entries: Entry[] = [];
  fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
    if (line === "") return;
    const m = /^(\S+) {2}(\S.*)$/.exec(line);
    if (!m) throw new Error(`${file}: line ${i + 1} is not "WORD  PHONEMES": ${JSON.stringify(line)}`);
    const [, head, pron] = m;
    const base = head.replace(/\(\d+\)$/, "");
    if (!/^[A-Za-z]+$/.test(base)) return;
    const word = base.toLowerCase();
    if (seen.has(word)) return;
    seen.add(word);
    const phonemes = pron.trim().split(/\s+/).map((token) => {
      const bare = token.replace(/[012]$/, "");
      if (!known.has(bare)) throw new Error(`${file}: line ${i + 1} (${head}) has the unknown phoneme "${token}"`);
      return bare;
    });
    if (!READ_AS_MISSING.has(word)) entries.push({ word, phonemes: phonemes.join(" ") });
  });
  return entries;
}

/**
 * Draw 33,000 of the dictionary's letters-only words at random (seeded): 3,000 are the test set,
 * 30,000 the training set; the rest are not used. The split is by word, so a test word never
 * appears in train, though related forms of it (a plural, a compound) may. Ids come from a second
 * seeded shuffle, so they carry nothing of the word's alphabetical place; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.dictionary;
  const entries = readDictionary(file);
  if (entries.length < TEST_WORDS + TRAIN_WORDS) {
    throw new Error(`${file}: only ${entries.length} letters-only words, expected at least ${TEST_WORDS + TRAIN_WORDS}`);
  }
  const rng = new Mulberry32(SEED);
  const drawn = rng.shuffle(entries.map((_, i) => i)).slice(0, TEST_WORDS + TRAIN_WORDS);
  const id = randomIds(rng, drawn);
  const test = id.sortById(drawn.slice(0, TEST_WORDS));
  const train = id.sortById(drawn.slice(TEST_WORDS));

  const ids = id.column;
  const text = (name: string, values: string[]): [string, Column] => [name, { kind: "string", values }];
  const words = (rows: number[]) => text("word", rows.map((i) => entries[i].word));
  const phonemes = (rows: number[]) => text("phonemes", rows.map((i) => entries[i].phonemes));

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), words(train), phonemes(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), words(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), text("phonemes", test.map(() => SAMPLE_GUESS))]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), phonemes(test)]));
}
