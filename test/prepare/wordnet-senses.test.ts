import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition } from "../../src/competitions/wordnet-senses/index.js";
import { CATEGORIES, maskLemmas } from "../../src/competitions/wordnet-senses/prepare.js";
import type { Table } from "../../src/core/table.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const { paths: p, grade } = preparedOffline(competition);

const LABELS = CATEGORIES.map(([name]) => name);
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const sums = (t: Table) => Object.fromEntries(LABELS.map((n) => [n, numbers(t, n).reduce((a, b) => a + b, 0)]));

// Golden values: scripts/golden/offline_wordnet_senses.py, which labels the prepared rows again with
// NLTK's WordNet reader (27,053 train rows it can match to one labelling: all agree) and scores with
// scikit-learn's roc_auc_score.
describe("wordnet-senses preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("draws 30,000 + 6,000 synsets with lemmas, a masked gloss and 18 labels that NLTK's hierarchy gives", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect([train.rowCount, test.rowCount, answers.rowCount]).toEqual([30000, 6000, 6000]);
    expect(train.columns).toEqual(["id", "lemmas", "gloss", ...LABELS]);
    expect(test.columns).toEqual(["id", "lemmas", "gloss"]);
    expect(answers.columns).toEqual(["id", ...LABELS]);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 36000 }, (_, i) => i + 1));
    expect(numbers(answers, "id")).toEqual(numbers(test, "id"));
    expect(sums(train)).toEqual({
      person: 3770, animal: 1493, plant: 1627, organism: 7128, artifact: 3878, device: 983, food: 594, location: 1228, act: 2470,
      event: 2954, attribute: 2663, communication: 1704, cognition: 1634, matter: 2469, body_part: 634, group: 2993, state: 1341, measure: 834,
    });
    expect(sums(answers)).toEqual({
      person: 740, animal: 306, plant: 322, organism: 1417, artifact: 821, device: 214, food: 107, location: 258, act: 512,
      event: 603, attribute: 520, communication: 345, cognition: 346, matter: 469, body_part: 127, group: 572, state: 255, measure: 187,
    });
  });

  it("masks a synset's own lemmas and their plurals in its gloss, whole words only", () => {
    expect(maskLemmas("dogs and a dog; the dogma of dog-eared dogs", ["dog"])).toBe("___ and a ___; the dogma of ___-eared ___");
    expect(maskLemmas("a hot dog is not a dog", ["dog", "hot_dog"])).toBe("a ___ is not a ___");
    expect(maskLemmas("Boxes of box", ["box"])).toBe("___ of ___");
    const train = readCsv(path.join(p.public, "train.csv"));
    const lemmas = train.data.get("lemmas")!.values as string[];
    const glosses = train.data.get("gloss")!.values as string[];
    const leaks = lemmas.filter((l, i) => l.split("; ").some((w) => new RegExp(`(^|[^A-Za-z0-9])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^A-Za-z0-9])`, "i").test(glosses[i])));
    expect(leaks).toEqual([]);
  });
});

describe("wordnet-senses grader", () => {
  const sample = () => fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");

  it("gives the constant sample 0.5 and the answers 1, valid, and scores as scikit-learn does", () => {
    const report = grade("sample", sample().join("\n") + "\n");
    expect([report.valid_submission, report.score, report.is_lower_better]).toEqual([true, 0.5, false]);
    expect(grade("perfect", fs.readFileSync(path.join(p.private, "test.csv"), "utf8")).score).toBe(1);
    // The gloss's word count (over 100, to stay a probability) as every label's score: mean roc_auc_score over the
    // 18 columns = 0.5083730176212806.
    const test = readCsv(path.join(p.public, "test.csv"));
    const glosses = test.data.get("gloss")!.values as string[];
    const rows = numbers(test, "id").map((id, i) => [id, ...LABELS.map(() => glosses[i].split(/\s+/).filter(Boolean).length / 100)].join(","));
    expect(grade("gloss-length", [`id,${LABELS.join(",")}`, ...rows.reverse()].join("\n") + "\n").score).toBe(0.50837);
  });

  it("rejects a missing column, text, values outside [0, 1] and missing rows, naming what is wrong", () => {
    const [header, ...rows] = sample();
    const bad = (name: string, lines: string[]) => grade(name, lines.join("\n") + "\n").invalid_reason;
    expect(bad("no-measure", [header.replace(",measure", ""), ...rows.map((r) => r.replace(/,0\.5$/, ""))])).toMatch(/^Submission must have a "measure" column; found "id", "person"/);
    expect(bad("text", [header, rows[0].replace(/0\.5$/, "x"), ...rows.slice(1)])).toBe('Column "measure" must hold numbers, but data row 1 holds "x".');
    expect(bad("big", [header, rows[0].replace(/0\.5$/, "1.5"), ...rows.slice(1)])).toBe('Column "measure" must hold probabilities between 0 and 1, but data row 1 holds 1.5.');
    expect(bad("short", [header, ...rows.slice(1)])).toBe("Submission has 5999 rows but the answers have 6000; submit one row per test id.");
  });
});
