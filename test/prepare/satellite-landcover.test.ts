import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLASSES } from "../../src/competitions/satellite-landcover/grade.js";
import { competition } from "../../src/competitions/satellite-landcover/index.js";
import { featureName } from "../../src/competitions/satellite-landcover/prepare.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const { paths: p, grade } = preparedOffline(competition);

const numbers = (file: string, name: string) => Array.from(readCsv(file).data.get(name)!.values as Float64Array);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const FEATURES = Array.from({ length: 36 }, (_, k) => featureName(k + 1));

describe("satellite-landcover preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("names x.k by its pixel and band: x.17 is the central pixel's first band", () => {
    expect([featureName(1), featureName(4), featureName(17), featureName(20), featureName(36)]).toEqual(["p1_b1", "p1_b4", "p5_b1", "p5_b4", "p9_b4"]);
  });

  it("publishes all 6,435 windows, 30% of each class in test", () => {
    const trainFile = path.join(p.public, "train.csv");
    const testFile = path.join(p.public, "test.csv");
    const train = readCsv(trainFile);
    expect(train.columns).toEqual(["id", ...FEATURES, "class"]);
    expect(readCsv(testFile).columns).toEqual(["id", ...FEATURES]);
    const labels = train.data.get("class")!.values as string[];
    // pandas value_counts of train's class, in CLASSES order.
    expect(CLASSES.map((c) => labels.filter((v) => v === c).length)).toEqual([1073, 492, 951, 438, 495, 1056]);
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", ...CLASSES]);
    expect(CLASSES.map((c) => sum(Array.from(answers.data.get(c)!.values as Float64Array)))).toEqual([460, 211, 407, 188, 212, 452]);
    // Debian's R on mlbench's Satellite: sum(x.17) = 444309 over all rows.
    expect(sum(numbers(trainFile, "p5_b1")) + sum(numbers(testFile, "p5_b1"))).toBe(444309);
    // ...and the 36 values of the "cotton crop" windows sum to 2032776.
    const cotton = labels.flatMap((v, i) => (v === "cotton_crop" ? [i] : []));
    const testRows = Array.from(answers.data.get("cotton_crop")!.values as Float64Array).flatMap((v, i) => (v === 1 ? [i] : []));
    const cellsOf = (file: string, rows: number[]) => {
      const t = readCsv(file);
      return sum(FEATURES.map((f) => sum(rows.map((i) => (t.data.get(f)!.values as Float64Array)[i]))));
    };
    const trainCotton = cellsOf(trainFile, cotton);
    const testCotton = cellsOf(testFile, testRows);
    expect(trainCotton + testCotton).toBe(2032776);
    const ids = [...numbers(trainFile, "id"), ...numbers(testFile, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 6435 }, (_, i) => i + 1));
  });
});

describe("satellite-landcover grader", () => {
  const sample = () => fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");

  it("gives the uniform sample ln 6, the training shares and a nearest-mean rule sklearn's log loss, rows in any order", () => {
    const report = grade("sample", sample().join("\n") + "\n");
    expect([report.valid_submission, report.score, report.is_lower_better, report.any_medal]).toEqual([true, 1.79176, true, false]);
    const test = readCsv(path.join(p.public, "test.csv"));
    const ids = Array.from(test.data.get("id")!.values as Float64Array);
    const shares = [1073, 492, 951, 438, 495, 1056].map((k) => k / 4505);
    // sklearn.metrics.log_loss(test classes, the training shares on every row) = 1.7214286617991055.
    const prior = ids.map((id) => `${id},${shares.join(",")}`);
    expect(grade("prior", [`id,${CLASSES.join(",")}`, ...prior.reverse()].join("\n") + "\n").score).toBe(1.72143);
    // The central pixel's four bands against each class's mean in train, probabilities exp(-d²/200)
    // normalised: sklearn.metrics.log_loss = 1.0556748223715622.
    const trainFile = path.join(p.public, "train.csv");
    const labels = readCsv(trainFile).data.get("class")!.values as string[];
    const bands = [1, 2, 3, 4].map((b) => numbers(trainFile, `p5_b${b}`));
    const means = CLASSES.map((c) => bands.map((col) => {
      const own = col.filter((_, i) => labels[i] === c);
      return sum(own) / own.length;
    }));
    const testBands = [1, 2, 3, 4].map((b) => Array.from(test.data.get(`p5_b${b}`)!.values as Float64Array));
    const rows = ids.map((id, i) => {
      const w = means.map((m) => Math.exp(-sum(m.map((v, b) => (testBands[b][i] - v) ** 2)) / 200));
      const total = sum(w);
      return `${id},${w.map((v) => v / total).join(",")}`;
    });
    expect(grade("nearest-mean", [`id,${CLASSES.join(",")}`, ...rows].join("\n") + "\n").score).toBe(1.05567);
  });

  it("rejects rows that do not sum to one, a missing class and missing ids, naming what is wrong", () => {
    const [header, ...rows] = sample();
    const bad = (name: string, lines: string[]) => grade(name, lines.join("\n") + "\n").invalid_reason;
    const id = rows[0].split(",")[0];
    expect(bad("sum", [header, `${id},0.5,0.5,0,0,0,0.5`, ...rows.slice(1)])).toMatch(/sum to one/);
    expect(bad("no-class", [header.replace(",very_damp_grey_soil", ""), ...rows.map((r) => r.split(",").slice(0, 6).join(","))])).toBe(
      'Submission is missing 1 required column(s): "very_damp_grey_soil"; found "id", "red_soil", "cotton_crop", "grey_soil", "damp_grey_soil", "vegetation_stubble".',
    );
    expect(bad("short", [header, ...rows.slice(1)])).toBe('Submission has 1929 rows but the answers have 1930; there must be exactly one row per "id".');
  });
});
