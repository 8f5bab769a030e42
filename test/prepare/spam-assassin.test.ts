import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { competitionPaths } from "../../src/core/paths.js";
import { makeTable, type Table } from "../../src/core/table.js";
import { competition as entry } from "../../src/competitions/spam-assassin/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { type CorpusMessage, isSpam, readCorpus, stripMailboxHeaders } from "../../src/competitions/spam-assassin/prepare.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv, readCsvHeader } from "../../src/io/csv-read.js";
import { checksumTree, prepareCompetition, recordedChecksums } from "../../src/prepare/prepare.js";
import { resolveSource } from "../../src/sources/packages.js";
import { tempDir } from "../helpers/data-dir.js";

const competition = await loadGrader(entry);

const dataDir = tempDir("mlebench-spam-");
const p = competitionPaths(dataDir, competition.id);
let source: CorpusMessage[];
let train: Table;
let test: Table;
let answers: Table;

const ints = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const strings = (t: Table, name: string) => t.data.get(name)!.values as string[];

beforeAll(async () => {
  await prepareCompetition(competition, dataDir);
  source = readCorpus(resolveSource(competition.offline!.sources.corpus));
  train = readCsv(path.join(p.public, "train.csv"));
  test = readCsv(path.join(p.public, "test.csv"));
  answers = readCsv(path.join(p.private, "test.csv"));
});

describe("spam-assassin", () => {
  it("prepares files matching the recorded checksums", () => {
    expect(Object.keys(recordedChecksums(competition)).length).toBe(5);
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits every source message into train or test, with the same share of spam on both sides", () => {
    expect(source.length).toBe(6046);
    expect(train.rowCount + test.rowCount).toBe(source.length);
    expect(test.rowCount / source.length).toBeCloseTo(0.3, 2);
    const share = (labels: number[]) => labels.reduce((a, b) => a + b, 0) / labels.length;
    expect(Math.abs(share(ints(train, "label")) - share(ints(answers, "label")))).toBeLessThan(0.01);
  });

  it("uses disjoint ids 1..N, sorted, and keeps the label out of the public test file", () => {
    const trainIds = ints(train, "id");
    const testIds = ints(test, "id");
    const all = new Set([...trainIds, ...testIds]);
    expect(all.size).toBe(source.length);
    expect(Math.min(...all)).toBe(1);
    expect(Math.max(...all)).toBe(source.length);
    for (const ids of [trainIds, testIds]) expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ints(answers, "id")).toEqual(testIds);
    expect(readCsvHeader(path.join(p.public, "test.csv"))).toEqual(["id", "text"]);
    expect(train.columns).toEqual(["id", "text", "label"]);
    expect(answers.columns).toEqual(["id", "label"]);
  });

  it("round-trips every message text (less the mailbox headers), with labels that match the source group", () => {
    const groupOf = new Map(source.map((m) => [stripMailboxHeaders(m.text), m.group]));
    // Texts are unique in the corpus, so each one identifies its source message.
    expect(groupOf.size).toBe(source.length);
    const trainText = strings(train, "text");
    const trainLabel = ints(train, "label");
    trainText.forEach((t, i) => expect(trainLabel[i]).toBe(isSpam(groupOf.get(t) ?? "missing")));
    const answerLabel = ints(answers, "label");
    strings(test, "text").forEach((t, i) => expect(answerLabel[i]).toBe(isSpam(groupOf.get(t) ?? "missing")));
    // The awkward cases for CSV quoting must be among them, and come back unchanged.
    const written = new Set([...trainText, ...strings(test, "text")]);
    for (const tricky of [/"/, /\n/, /,/, /\r/, /\uFFFD/]) {
      const examples = source.filter((m) => tricky.test(m.text)).slice(0, 3);
      expect(examples.length, String(tricky)).toBeGreaterThan(0);
      for (const m of examples) expect(written.has(stripMailboxHeaders(m.text))).toBe(true);
    }
  });

  it("removes the mailbox-client headers, folded lines included, and nothing else", () => {
    const msg = "From: a@b\nX-Keywords: \nStatus: RO\nX-Status: A\n  continued\nSubject: hi\n\nStatus: kept in the body\n";
    expect(stripMailboxHeaders(msg)).toBe("From: a@b\nSubject: hi\n\nStatus: kept in the body\n");
    const written = [...strings(train, "text"), ...strings(test, "text")];
    const headerOf = (t: string) => t.slice(0, Math.max(0, t.search(/\r?\n\r?\n/)));
    expect(written.filter((t) => /^(X-Keywords|X-Status|Status):/im.test(headerOf(t)))).toEqual([]);
    expect(source.filter((m) => /^X-Keywords:/im.test(headerOf(m.text))).length).toBeGreaterThan(500);
  });

  it("grades the sample submission as valid with score 0.5, and a perfect one as 1", () => {
    const report = gradeSubmission(competition, path.join(p.public, competition.sampleSubmission), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.5);
    expect(competition.grade(answers, answers)).toBe(1);
    const sample = readCsv(path.join(p.public, competition.sampleSubmission));
    expect(sample.columns).toEqual(["id", "label"]);
    expect(ints(sample, "id")).toEqual(ints(test, "id"));
  });

  it("rejects probabilities outside [0, 1]", () => {
    const ids = answers.data.get("id")!;
    const bad = makeTable([["id", ids], ["label", { kind: "float", values: new Float64Array(answers.rowCount).fill(2) }]]);
    expect(() => competition.grade(bad, answers)).toThrow(/between 0 and 1/);
  });
});

describe("spam-assassin source checks", () => {
  const dir = tempDir("mlebench-spam-src-");
  const write = (name: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
    return path.join(dir, name);
  };

  it("names the file when the file list is not a list", () => {
    const list = write("a/file_list.json", '{"not": "a list"}');
    expect(() => readCorpus(list)).toThrow(/file_list\.json: expected a non-empty JSON array/);
  });

  it("names the message file when it is missing", () => {
    const list = write("b/file_list.json", '["spam-1/00001.abc.txt"]');
    expect(() => readCorpus(list)).toThrow(/00001\.abc\.json \(entry 1 of .*\): cannot read the message/);
  });

  it("refuses an unknown group or one that contradicts the folder", () => {
    write("c/spam-1/1.json", JSON.stringify({ group: "maybe-spam", text: "x" }));
    expect(() => readCorpus(write("c/file_list.json", '["spam-1/1.txt"]'))).toThrow(/unknown message group "maybe-spam"/);
    write("d/spam-1/1.json", JSON.stringify({ group: "easy-ham-1", text: "x" }));
    expect(() => readCorpus(write("d/file_list.json", '["spam-1/1.txt"]'))).toThrow(/does not match its folder/);
    write("e/spam-1/1.json", JSON.stringify({ group: "spam-1" }));
    expect(() => readCorpus(write("e/file_list.json", '["spam-1/1.txt"]'))).toThrow(/missing or empty message text/);
  });
});
