import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition } from "../../src/competitions/dna-splice/index.js";
import { decodeSequences } from "../../src/competitions/dna-splice/prepare.js";
import { makeTable } from "../../src/core/table.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const { paths: p, grade } = preparedOffline(competition);

const count = (values: string[]) => Object.fromEntries([...new Set(values)].sort().map((v) => [v, values.filter((x) => x === v).length]));
const texts = (file: string, name: string) => readCsv(file).data.get(name)!.values as string[];

// Golden values: scripts/golden/offline_dna_splice.py (R decodes mlbench's DNA by its own code;
// scores by sklearn.metrics.log_loss).
describe("dna-splice preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("publishes the 3,000 distinct single-label windows as 60-letter sequences, 30% of each class in test", () => {
    const trainFile = path.join(p.public, "train.csv");
    const testFile = path.join(p.public, "test.csv");
    expect(readCsv(trainFile).columns).toEqual(["id", "sequence", "class"]);
    expect(readCsv(testFile).columns).toEqual(["id", "sequence"]);
    expect(count(texts(trainFile, "class"))).toEqual({ EI: 475, IE: 468, N: 1156 });
    const sequences = [...texts(trainFile, "sequence"), ...texts(testFile, "sequence")];
    expect(sequences).toHaveLength(3000);
    expect(new Set(sequences).size).toBe(3000);
    expect(sequences.every((s) => /^[ACGT]{60}$/.test(s))).toBe(true);
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "EI", "IE", "N"]);
    const sums = ["EI", "IE", "N"].map((c) => Array.from(answers.data.get(c)!.values as Float64Array).reduce((a, b) => a + b, 0));
    expect(sums).toEqual([204, 201, 496]);
    const ids = [...readCsv(trainFile).data.get("id")!.values, ...readCsv(testFile).data.get("id")!.values].sort((a, b) => Number(a) - Number(b));
    expect(ids).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
  });

  it("decodes StatLog's three indicators per base and names the row and position of a bad code", () => {
    // One source row whose 180 indicator cells repeat `bits`.
    const cols = (bits: string) => Array.from({ length: 180 }, (_, k) => [`V${k + 1}`, { kind: "string" as const, values: [bits[k % bits.length]] }] as [string, { kind: "string"; values: string[] }]);
    expect(decodeSequences(makeTable(cols("100010001000")), "dna.csv")).toEqual(["ACGT".repeat(15)]);
    expect(() => decodeSequences(makeTable(cols("1")), "dna.csv")).toThrow("dna.csv: data row 1 encodes position 1 as 111, which is no nucleotide");
    expect(() => decodeSequences(makeTable(cols("2")), "dna.csv")).toThrow('dna.csv: data row 1 has V1 "2", expected 0 or 1');
  });
});

describe("dna-splice grader", () => {
  const sample = () => fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");

  it("gives the uniform sample ln 3 and a consensus rule sklearn's log loss, valid, rows in any order", () => {
    const report = grade("sample", sample().join("\n") + "\n");
    expect([report.valid_submission, report.score, report.is_lower_better, report.any_medal]).toEqual([true, 1.09861, true, false]);
    const test = readCsv(path.join(p.public, "test.csv"));
    const ids = Array.from(test.data.get("id")!.values as Float64Array);
    const seqs = test.data.get("sequence")!.values as string[];
    const rows = seqs.map((s, i) => {
      const gt = s.slice(30, 32) === "GT";
      const ag = s.slice(28, 30) === "AG";
      const probs = gt && ag ? "0.4,0.4,0.2" : gt ? "0.6,0.2,0.2" : ag ? "0.2,0.6,0.2" : "0.1,0.1,0.8";
      return `${ids[i]},${probs}`;
    });
    // sklearn.metrics.log_loss of the same rule: 0.5123191697316902.
    expect(grade("rule", ["id,EI,IE,N", ...rows.reverse()].join("\n") + "\n").score).toBe(0.51232);
  });

  it("rejects rows that do not sum to one, a missing class and missing ids, naming what is wrong", () => {
    const [header, ...rows] = sample();
    const bad = (name: string, lines: string[]) => grade(name, lines.join("\n") + "\n").invalid_reason;
    const id = rows[0].split(",")[0];
    expect(bad("sum", [header, `${id},0.5,0.5,0.5`, ...rows.slice(1)])).toMatch(/sum to one/);
    expect(bad("no-n", [header.replace(",N", ""), ...rows.map((r) => r.split(",").slice(0, 3).join(","))])).toBe('Submission is missing 1 required column(s): "N"; found "id", "EI", "IE".');
    expect(bad("short", [header, ...rows.slice(1)])).toBe('Submission has 900 rows but the answers have 901; there must be exactly one row per "id".');
  });
});
