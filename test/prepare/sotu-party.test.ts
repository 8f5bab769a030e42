import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/sotu-party/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { readAddresses } from "../../src/competitions/sotu-party/prepare.js";
import { competitionPaths } from "../../src/core/paths.js";
import { type Column, type Table, makeTable } from "../../src/core/table.js";
import { gradeSubmission, loadLeaderboard } from "../../src/grading/grade.js";
import { readCsv, readCsvHeader } from "../../src/io/csv-read.js";
import { writeCsv } from "../../src/io/csv-write.js";
import { checksumTree, prepareCompetition, recordedChecksums } from "../../src/prepare/prepare.js";
import { resolveSource } from "../../src/sources/packages.js";
import { tempDir } from "../helpers/data-dir.js";

const competition = await loadGrader(entry);

const dataDir = tempDir("mlebench-sotu-");
const p = competitionPaths(dataDir, competition.id);

interface Source {
  party: string;
  text: string;
}

/** The addresses as the package ships them, read here without the preparer's code. */
function readSource(): Source[] {
  const dir = resolveSource(competition.offline!.sources.addresses);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Source);
}

function strings(t: Table, name: string): string[] {
  const col = t.data.get(name);
  if (!col || col.kind !== "string") throw new Error(`expected a text column "${name}"`);
  return col.values.map((v) => v ?? "");
}

function ints(t: Table, name: string): number[] {
  const col = t.data.get(name);
  if (!col || col.kind !== "int") throw new Error(`expected an integer column "${name}"`);
  return Array.from(col.values);
}

const KEY_WORDS = 8;

/**
 * For each passage, every address holding a verbatim copy of it that starts at a word: an index
 * of the passages' first words, checked against every word position of every address.
 */
function locate(passages: string[], sources: Source[]): Set<number>[] {
  const byKey = new Map<string, number[]>();
  passages.forEach((text, i) => {
    const key = (text.match(/\S+/g) ?? []).slice(0, KEY_WORDS).join(" ");
    byKey.set(key, [...(byKey.get(key) ?? []), i]);
  });
  const found = passages.map(() => new Set<number>());
  sources.forEach((s, k) => {
    const words = [...s.text.matchAll(/\S+/g)];
    for (let w = 0; w + KEY_WORDS <= words.length; w++) {
      const hits = byKey.get(words.slice(w, w + KEY_WORDS).map((m) => m[0]).join(" "));
      if (!hits) continue;
      for (const i of hits) if (s.text.startsWith(passages[i], words[w].index)) found[i].add(k);
    }
  });
  return found;
}

/** Macro F1 over the sorted union of labels, computed from scratch. */
function macroF1(truth: string[], pred: string[]): number {
  const labels = [...new Set([...truth, ...pred])].sort();
  let sum = 0;
  for (const c of labels) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    truth.forEach((t, i) => {
      if (pred[i] === c && t === c) tp++;
      else if (pred[i] === c) fp++;
      else if (t === c) fn++;
    });
    sum += tp + fp + fn === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  return sum / labels.length;
}

function submission(rows: [number, string][], columns: [string, string] = ["id", "party"]): Table {
  const ids: Column = { kind: "int", values: Float64Array.from(rows, ([id]) => id) };
  const labels: Column = { kind: "string", values: rows.map(([, l]) => l) };
  return makeTable([
    [columns[0], ids],
    [columns[1], labels],
  ]);
}

function writeSubmission(name: string, table: Table): string {
  const file = path.join(dataDir, name);
  writeCsv(file, table);
  return file;
}

describe("sotu-party", () => {
  let train: Table;
  let test: Table;
  let answers: Table;

  beforeAll(async () => {
    const result = await prepareCompetition(competition, dataDir);
    expect(result.status).toBe("prepared");
    train = readCsv(path.join(p.public, "train.csv"));
    test = readCsv(path.join(p.public, "test.csv"));
    answers = readCsv(path.join(p.private, "test.csv"));
  });

  it("prepares files matching the recorded checksums", () => {
    expect(Object.keys(recordedChecksums(competition)).sort()).toEqual([
      "private/test.csv",
      "public/description.md",
      "public/sample_submission.csv",
      "public/test.csv",
      "public/train.csv",
    ]);
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("gives agents the text only: test.csv has no party column, ids are sorted and disjoint", () => {
    expect(readCsvHeader(path.join(p.public, "test.csv"))).toEqual(["id", "text"]);
    expect(train.columns).toEqual(["id", "text", "party"]);
    expect(answers.columns).toEqual(["id", "party"]);
    const trainIds = ints(train, "id");
    const testIds = ints(test, "id");
    for (const ids of [trainIds, testIds]) expect(ids.every((id, i) => i === 0 || ids[i - 1] < id)).toBe(true);
    expect(ints(answers, "id")).toEqual(testIds);
    const all = [...trainIds, ...testIds].sort((a, b) => a - b);
    expect(all).toEqual(all.map((_, i) => i + 1));
  });

  it("splits by address: every passage traces back to one address, and no address is on both sides", () => {
    const sources = readSource();
    const trainText = strings(train, "text");
    const testText = strings(test, "text");
    const passages = [...trainText, ...testText];
    const found = locate(passages, sources);
    const unmatched = found.filter((s) => s.size !== 1).length;
    expect(unmatched, "passages found in no address or in several").toBe(0);

    const side = new Map<number, Set<string>>();
    found.forEach((s, i) => {
      const k = [...s][0];
      side.set(k, (side.get(k) ?? new Set()).add(i < trainText.length ? "train" : "test"));
    });
    const both = [...side.entries()].filter(([, s]) => s.size > 1).map(([k]) => k);
    expect(both).toEqual([]);
    // Roughly 70/30 by address, and the passage counts follow.
    const testAddresses = [...side.values()].filter((s) => s.has("test")).length;
    expect(testAddresses / side.size).toBeGreaterThan(0.25);
    expect(testAddresses / side.size).toBeLessThan(0.35);

    // Labels are the source party, with the parties of fewer than ten addresses merged into "Other".
    const perParty = new Map<string, number>();
    for (const s of sources) perParty.set(s.party, (perParty.get(s.party) ?? 0) + 1);
    const expected = (k: number) => (perParty.get(sources[k].party)! >= 10 ? sources[k].party : "Other");
    const labels = [...strings(train, "party"), ...strings(answers, "party")];
    const wrong = found.filter((s, i) => labels[i] !== expected([...s][0])).length;
    expect(wrong).toBe(0);
  });

  it("drops short passages and keeps the four party classes on both sides", () => {
    for (const t of [train, test]) {
      expect(strings(t, "text").every((s) => (s.match(/\S+/g) ?? []).length >= 20)).toBe(true);
    }
    const trainLabels = new Set(strings(train, "party"));
    const testLabels = new Set(strings(answers, "party"));
    expect([...trainLabels].sort()).toEqual(["Democratic", "Democratic-Republican", "Other", "Republican"]);
    expect([...testLabels].filter((l) => !trainLabels.has(l))).toEqual([]);
  });

  it("grades the sample submission as valid, with the macro F1 computed independently", () => {
    const sample = readCsv(path.join(p.public, competition.sampleSubmission));
    const counts = new Map<string, number>();
    for (const l of strings(train, "party")) counts.set(l, (counts.get(l) ?? 0) + 1);
    const majority = [...counts.entries()].sort(([, a], [, b]) => b - a)[0][0];
    expect(new Set(strings(sample, "party"))).toEqual(new Set([majority]));

    const expected = macroF1(strings(answers, "party"), strings(sample, "party"));
    expect(competition.grade(sample, answers)).toBeCloseTo(expected, 12);
    const report = gradeSubmission(competition, path.join(p.public, competition.sampleSubmission), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.valid_submission).toBe(true);
    expect(Math.abs(report.score! - expected)).toBeLessThanOrEqual(5e-6 + 1e-12);
    const board = loadLeaderboard(p.leaderboard);
    expect(board.length).toBeGreaterThanOrEqual(100);
    expect(board[0]).toBeGreaterThan(report.score!);
    expect(report.any_medal).toBe(false);
  });

  it("scores a mixed submission, shuffled rows and an invented label included, like the reference", () => {
    const ids = ints(answers, "id");
    const truth = strings(answers, "party");
    const classes = ["Democratic", "Democratic-Republican", "Other", "Republican", "Bull Moose"];
    const pred = truth.map((t, i) => (i % 3 === 0 ? t : classes[(i * 7) % classes.length]));
    const rows = ids.map((id, i) => [id, pred[i]] as [number, string]).reverse();
    expect(competition.grade(submission(rows), answers)).toBeCloseTo(macroF1(truth, pred), 12);
    expect(competition.grade(submission(ids.map((id, i) => [id, truth[i]])), answers)).toBe(1);
  });

  it("rejects submissions with a missing id, an extra id, an unknown id or no party column", () => {
    const ids = ints(answers, "id");
    const rows = ids.map((id) => [id, "Democratic"] as [number, string]);
    const reason = (name: string, t: Table) =>
      gradeSubmission(competition, writeSubmission(name, t), dataDir).invalid_reason ?? "";

    expect(reason("missing-id.csv", submission(rows.slice(1)))).toMatch(
      new RegExp(`Submission has ${ids.length - 1} rows but the answers have ${ids.length}`),
    );
    expect(reason("extra-id.csv", submission([...rows, [999999, "Democratic"]]))).toMatch(
      new RegExp(`Submission has ${ids.length + 1} rows but the answers have ${ids.length}`),
    );
    const swapped = rows.map(([id, l], i) => [i === 0 ? 999999 : id, l] as [number, string]);
    expect(reason("unknown-id.csv", submission(swapped))).toMatch(/"id" values do not match the answers.*999999/);
    expect(reason("no-party.csv", submission(rows, ["id", "label"]))).toMatch(/must have a "party" column; found/);
    const blank = rows.map(([id], i) => [id, i === 0 ? "" : "Other"] as [number, string]);
    expect(reason("blank-party.csv", submission(blank))).toMatch(/"party" is empty in 1 row/);
  });
});

describe("sotu-party source checks", () => {
  const record = (dir: string, name: string, body: unknown) =>
    fs.writeFileSync(path.join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
  const good = { year: 1801, name: "Thomas Jefferson", party: "Democratic-Republican", text: "Fellow citizens." };

  it("names the file and the problem when the data folder is missing or malformed", () => {
    expect(() => readAddresses(path.join(dataDir, "no-such-dir"))).toThrow(/not a directory.*datasets-sotu/);
    const empty = tempDir("mlebench-sotu-src-");
    expect(() => readAddresses(empty)).toThrow(/no \.json address records/);

    const cases: [string, unknown, RegExp][] = [
      ["1801_thomas_jefferson_dr.json", "{not json", /1801_thomas_jefferson_dr\.json: cannot read the address record/],
      ["1801_thomas_jefferson_dr.json", { ...good, party: "Federalist" }, /does not match the file name's code "dr"/],
      ["1801_thomas_jefferson_xx.json", good, /unknown party code "xx"/],
      ["1802_thomas_jefferson_dr.json", good, /year 1801 does not match the file name/],
      ["1801_thomas_jefferson_dr.json", { ...good, text: " " }, /missing or empty address text/],
      ["jefferson.json", good, /file name is not <year>_<president>_<party code>\.json/],
    ];
    for (const [name, body, message] of cases) {
      const dir = tempDir("mlebench-sotu-src-");
      record(dir, name, body);
      expect(() => readAddresses(dir)).toThrow(message);
    }
    const dir = tempDir("mlebench-sotu-src-");
    record(dir, "1801_thomas_jefferson_dr.json", good);
    expect(readAddresses(dir)).toEqual([
      {
        file: "1801_thomas_jefferson_dr.json",
        year: 1801,
        president: "Thomas Jefferson",
        party: "Democratic-Republican",
        text: "Fellow citizens.",
      },
    ]);
  });
});
