import fs from "node:fs";
import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { decodeLine, readRawLines } from "../../io/lines.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { oneHotColumns } from "../_shared/one-hot-columns.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { stratifiedRows } from "../_shared/stratified-rows.js";
import { CLASSES } from "./grade.js";

/** Share of each collection's fortunes held out as the test set. */
const TEST_FRACTION = 0.3;
const SEED = 1979;
/** Fewer fortunes than this in a collection means the file is not the package's collection. */
const MIN_FORTUNES = 100;

/**
 * A line that opens an attribution: dashes after indentation ("\t\t-- Mark Twain"), or dashes
 * then a space at the very start of a fortune's last line.
 */
const ATTRIBUTION = /^(\s+-{2,3}\s*\S|-{2,3}\s+\S)/;
/** Control characters left once overstriking is resolved and tabs are spaces (bells, stray escapes). */
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** One fortune: its collection (an index into CLASSES) and its cleaned text. */
export interface Fortune {
  collection: number;
  text: string;
}

/**
 * A line as a terminal would show it: a backspace steps back one cell and the next character
 * overwrites it, except that an underscore printed over a letter (underlining) keeps the letter,
 * so "_\bI" and "*___\b\b\band*" read "I" and "*and*".
 */
export function resolveOverstrike(line: string): string {
  if (!line.includes("\b")) return line;
  const cells: string[] = [];
  let at = 0;
  for (const ch of line) {
    if (ch === "\b") {
      at = Math.max(0, at - 1);
      continue;
    }
    if (at < cells.length) {
      if (ch !== "_") cells[at] = ch;
    } else {
      cells.push(ch);
    }
    at++;
  }
  return cells.join("");
}

/** Whether a line starts with white space (an indented line, as attributions and their continuations are). */
const indented = (line: string) => /^\s/.test(line);

/**
 * The text of one fortune from its raw lines: overstriking resolved, tabs turned into spaces and
 * other control characters dropped, the trailing attribution block ("-- Author, work" and its
 * indented continuation lines) removed, and all runs of white space, line breaks included,
 * collapsed into single spaces. Empty when nothing but an attribution or blank lines remains.
 */
export function cleanFortune(raw: readonly string[]): string {
  let lines = raw.map((l) => resolveOverstrike(l).replace(/\t/g, " ").replace(CONTROL, ""));
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  // Walk up through the indented tail: the attribution is its topmost line that opens one.
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (ATTRIBUTION.test(line) && (indented(line) || i === lines.length - 1) && lines.slice(i + 1).every((l) => indented(l) || l.trim() === "")) {
      lines = lines.slice(0, i);
      break;
    }
    if (!indented(line)) break;
  }
  return lines.join(" ").split(/\s+/).filter((w) => w.length > 0).join(" ");
}

/**
 * The fortunes of one collection file, as lists of raw lines: a line holding only "%" ends a
 * fortune. Invalid UTF-8 is an error naming the file and line.
 */
export function readFortunes(file: string): string[][] {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new Error(`${file}: no such collection file in the fortune package's folder`);
  const fortunes: string[][] = [[]];
  let lineNo = 0;
  for (const { bytes } of readRawLines(file)) {
    const line = decodeLine(bytes, file, ++lineNo);
    if (line === "%") fortunes.push([]);
    else fortunes[fortunes.length - 1].push(line);
  }
  return fortunes;
}

/**
 * All fortunes of the chosen collections, cleaned; empty ones are skipped, a text repeated
 * within a collection is kept once, and a text found in two collections is dropped from both
 * (it could not have one right answer). A collection with too few fortunes is an error naming
 * its file.
 */
export function collectFortunes(dir: string): Fortune[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`${dir}: not a directory; expected the fortune package's data folder`);
  const owners = new Map<string, Set<number>>();
  const perCollection = CLASSES.map((name, k) => {
    const file = path.join(dir, name);
    const texts = [...new Set(readFortunes(file).map(cleanFortune).filter((t) => t.length > 0))];
    if (texts.length < MIN_FORTUNES) throw new Error(`${file}: found ${texts.length} fortunes, expected at least ${MIN_FORTUNES}`);
    for (const t of texts) {
      if (!owners.has(t)) owners.set(t, new Set());
      owners.get(t)!.add(k);
    }
    return texts;
  });
  return perCollection.flatMap((texts, k) => texts.filter((t) => owners.get(t)!.size === 1).map((text) => ({ collection: k, text })));
}

/**
 * Label each fortune with its collection and hold out 30% of every collection, drawn by a
 * seeded shuffle, as the test set. Ids come from a second seeded shuffle of all fortunes and
 * each file is sorted by id, so neither ids nor row order tell where a fortune came from.
 */
export function prepare(ctx: PrepareContext): void {
  const fortunes = collectFortunes(ctx.sources.fortunes);
  const rng = new Mulberry32(SEED);
  const order = rng.shuffle(indices(fortunes.length));
  const testRows = stratifiedRows(order, (i) => fortunes[i].collection, indices(CLASSES.length), TEST_FRACTION);
  const { sortById, column: ids } = randomIds(rng, indices(fortunes.length));
  const train = sortById(indices(fortunes.length).filter((i) => !testRows.has(i)));
  const test = sortById(indices(fortunes.length).filter((i) => testRows.has(i)));

  const texts = (r: number[]): [string, Column] => ["text", { kind: "string", values: r.map((i) => fortunes[i].text) }];
  const collection: [string, Column] = ["collection", { kind: "string", values: train.map((i) => CLASSES[fortunes[i].collection]) }];
  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), texts(train), collection]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), texts(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), ...oneHotColumns(CLASSES, test, () => 1 / CLASSES.length, "float")]));
  writeCsv(
    path.join(ctx.private, "test.csv"),
    makeTable([ids(test), ...oneHotColumns(CLASSES, test, (i, _name, k) => (fortunes[i].collection === k ? 1 : 0), "int")]),
  );
}
