import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { readCsv, readCsvHeader } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { oneHotColumns } from "../_shared/one-hot-columns.js";
import { textValues } from "../_shared/source-columns.js";
import { CLASSES } from "./classes.js";

/** Share of each novel's chapters (not passages) held out as the test set. */
const TEST_FRACTION = 0.3;
const SEED = 1811;

/** A passage is this many consecutive non-empty lines of one chapter (about 65 words). */
export const PASSAGE_LINES = 6;
/** Fewer chapters than this means the source is not the whole novel. */
const MIN_CHAPTERS = 10;

/** Volume and chapter headings, e.g. "VOLUME I", "CHAPTER XII", "Chapter 3". */
const HEADING = /^(CHAPTER|Chapter|VOLUME)\s+([IVXLC]+|\d+)\.?$/;
/** Lines that close a novel; what follows (an editor's note on the text) is not the novel. */
const END_MARKERS = new Set(["THE END", "FINIS", "Finis", "A NOTE ON THE TEXT"]);

/** One passage: its novel (an index into CLASSES), its chapter within the novel, and its text. */
export interface Passage {
  novel: number;
  chapter: number;
  text: string;
}

/**
 * The lines of one novel as the R package ships it (a one-column CSV, one text line a row,
 * empty rows for blank lines), or an error naming the file.
 */
function readLines(file: string): string[] {
  const header = readCsvHeader(file);
  if (header.length !== 1) throw new Error(`${file}: expected one column of text lines, found ${header.length} (${header.join(", ")})`);
  const table = readCsv(file, { file, text: header });
  return textValues(table.data.get(header[0])!, header[0], file).map((v) => v ?? "");
}

/**
 * Cut a novel into passages of PASSAGE_LINES consecutive non-empty lines, chapter by chapter:
 * the title page and any preface before the first chapter heading, the headings themselves and
 * everything from an end marker on are left out, and so is the last fewer-than-PASSAGE_LINES
 * lines of each chapter, so that every passage has the same length and lies within one chapter.
 */
export function novelPassages(lines: readonly string[], novel: number, file: string): Passage[] {
  const chapters: string[][] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (END_MARKERS.has(line)) break;
    const heading = HEADING.exec(line);
    if (heading) {
      if (heading[1] !== "VOLUME") chapters.push([]);
      continue;
    }
    if (line.length > 0 && chapters.length > 0) chapters[chapters.length - 1].push(line);
  }
  if (chapters.length < MIN_CHAPTERS) {
    throw new Error(`${file}: found ${chapters.length} chapter headings ("CHAPTER I", "Chapter 1"), expected at least ${MIN_CHAPTERS}`);
  }
  const passages: Passage[] = [];
  chapters.forEach((body, chapter) => {
    for (let i = 0; i + PASSAGE_LINES <= body.length; i += PASSAGE_LINES) {
      passages.push({ novel, chapter, text: body.slice(i, i + PASSAGE_LINES).join(" ") });
    }
  });
  return passages;
}

/**
 * Turn the six novels into passages labelled with their novel and split them by chapter: 30%
 * of each novel's chapters, drawn at random, are the test set, so every passage of a chapter is
 * on the same side and no passage's neighbours are in the other set. A passage text that occurs
 * twice is dropped. Ids come from a seeded shuffle of all passages; each file is sorted by id.
 */
export function prepare(ctx: PrepareContext): void {
  const all = CLASSES.flatMap((name, k) => novelPassages(readLines(ctx.sources[name]), k, ctx.sources[name]));
  const copies = new Map<string, number>();
  for (const p of all) copies.set(p.text, (copies.get(p.text) ?? 0) + 1);
  const passages = all.filter((p) => copies.get(p.text) === 1);

  const rng = new Mulberry32(SEED);
  const testChapters = new Set<string>();
  CLASSES.forEach((_, k) => {
    const chapters = [...new Set(passages.filter((p) => p.novel === k).map((p) => p.chapter))];
    for (const c of rng.shuffle(chapters).slice(0, Math.round(chapters.length * TEST_FRACTION))) testChapters.add(`${k}/${c}`);
  });
  const isTest = (p: Passage) => testChapters.has(`${p.novel}/${p.chapter}`);
  const { sortById, column: ids } = randomIds(rng, indices(passages.length));
  const rows = (test: boolean) => sortById(indices(passages.length).filter((i) => isTest(passages[i]) === test));
  const train = rows(false);
  const test = rows(true);

  const texts = (r: number[]): [string, Column] => ["text", { kind: "string", values: r.map((i) => passages[i].text) }];

  // Training passages carry their chapter (its position in the novel, from 1), so that validation
  // folds can keep a chapter together as the test split does; test passages do not.
  const chapter: [string, Column] = ["chapter", { kind: "int", values: Float64Array.from(train, (i) => passages[i].chapter + 1) }];
  const novel: [string, Column] = ["novel", { kind: "string", values: train.map((i) => CLASSES[passages[i].novel]) }];
  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), texts(train), chapter, novel]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), texts(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, () => 1 / CLASSES.length, "float")]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, (i, _name, k) => (passages[i].novel === k ? 1 : 0), "int")]));
}
