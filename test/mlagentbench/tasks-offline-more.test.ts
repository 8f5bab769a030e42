import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { competition as fashionCompetition } from "../../src/competitions/fashion-mnist/index.js";
import { InvalidSubmissionError } from "../../src/core/errors.js";
import { makeTable, type Table } from "../../src/core/table.js";
import { readCsv, readCsvHeader } from "../../src/io/csv-read.js";
import { writeCsv } from "../../src/io/csv-write.js";
import { SOURCE as HOUSE_SOURCE, readSource } from "../../src/mlagentbench/tasks/boston-housing/data.js";
import { gradeBostonHousing } from "../../src/mlagentbench/tasks/boston-housing/evaluate.js";
import { gradeBostonHousingWorkspace, bostonHousingAnswers } from "../../src/mlagentbench/tasks/boston-housing/index.js";
import { getTask } from "../../src/mlagentbench/tasks/registry.js";
import { OFFLINE_TASKS } from "../../src/mlagentbench/tasks/offline-tasks.js";
import { hostRunner } from "../../src/mlagentbench/tasks/runner.js";
import { gradeSubmission, loadAnswers } from "../../src/mlagentbench/tasks/starter.js";
import { resolveSource } from "../../src/sources/packages.js";
import { tempDir } from "../helpers/data-dir.js";

/** Tasks without downloads keep nothing in their data folder. */
const CTX = { dataDir: tempDir("mlab-data-") };
const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "fixtures", "mlagentbench", "boston-housing");
/** Golden values from scripts/golden/mlab_boston_housing.py (scikit-learn). */
const EXPECTED = JSON.parse(fs.readFileSync(path.join(FIXTURES, "expected.json"), "utf8")) as {
  fixture_mae: number;
  split: {
    train_rows: number;
    test_rows: number;
    test_medv: number[];
    first_test_features: Record<string, number>;
    train_median: number;
    median_mae: number;
  };
};

/** A train.py that ignores the data and copies `file` to submission.csv. */
function copier(file: string): string {
  return `import shutil\nshutil.copyfile(${JSON.stringify(file)}, "submission.csv")\n`;
}

/** Column `name` of `table` as an array of plain values. */
function column(table: Table, name: string): unknown[] {
  const col = table.data.get(name);
  if (!col) throw new Error(`no column ${name}`);
  return Array.from(col.values as ArrayLike<unknown>);
}

/** Every file under `dir`, relative to it, sorted. */
function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

/** The error `fn` throws (or the rejection of the promise it returns). */
async function failure(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure");
}

describe("research task boston-housing", async () => {
  const task = await getTask("boston-housing");
  let workspace: string;

  beforeAll(async () => {
    workspace = tempDir("mlab-house-");
    await task.prepare(workspace, CTX);
  });

  it("is registered offline, lower is better, with a measured baseline", () => {
    expect(OFFLINE_TASKS.map((t) => t.name)).toContain("boston-housing");
    expect(task.needsDownload).toBe(false);
    expect(task.direction).toBe("lower");
    expect(task.baseline!.score).toBeGreaterThan(1);
    expect(task.baseline!.score).toBeLessThan(EXPECTED.split.median_mae);
    expect(task.baseline!.machine).toMatch(/CPUs/);
    expect(task.hiddenSources()).toEqual([HOUSE_SOURCE.path]);
  });

  it("splits the source exactly as scikit-learn's train_test_split does", () => {
    const answers = bostonHousingAnswers();
    expect(answers.columns).toEqual(["Id", "MEDV"]);
    expect(column(answers, "MEDV")).toEqual(EXPECTED.split.test_medv);
    const train = readCsv(path.join(workspace, "train.csv"));
    const test = readCsv(path.join(workspace, "test.csv"));
    expect(train.rowCount).toBe(EXPECTED.split.train_rows);
    expect(test.rowCount).toBe(EXPECTED.split.test_rows);
    const features = Object.keys(EXPECTED.split.first_test_features);
    expect(test.columns).toEqual(["Id", ...features]);
    expect(Object.fromEntries(features.map((f) => [f, column(test, f)[0]]))).toEqual(EXPECTED.split.first_test_features);
  });

  it("puts only public files in the workspace: no test values, no column B", () => {
    expect(listFiles(workspace)).toEqual(["data_description.txt", "sample_submission.csv", "test.csv", "train.csv", "train.py"]);
    for (const file of task.readOnly) expect(fs.existsSync(path.join(workspace, file))).toBe(true);
    const train = readCsv(path.join(workspace, "train.csv"));
    const test = readCsv(path.join(workspace, "test.csv"));
    expect(train.columns).toContain("MEDV");
    expect(train.columns).not.toContain("B");
    expect(test.columns).not.toContain("MEDV");
    expect(test.columns).not.toContain("B");
    expect(column(train, "Id")).toEqual(Array.from({ length: 404 }, (_, i) => i + 1));
    expect(column(test, "Id")).toEqual(column(bostonHousingAnswers(), "Id"));
    const sample = readCsv(path.join(workspace, "sample_submission.csv"));
    expect(sample.columns).toEqual(["Id", "MEDV"]);
    expect(new Set(column(sample, "MEDV"))).toEqual(new Set([EXPECTED.split.train_median]));
  });

  it("computes the mean absolute error scikit-learn computes, matching rows by Id", () => {
    const score = gradeBostonHousing(readCsv(path.join(FIXTURES, "submission.csv")), readCsv(path.join(FIXTURES, "answers.csv")));
    expect(score).toBeCloseTo(EXPECTED.fixture_mae, 12);
  });

  it("scores the sample submission at the golden median error and a perfect one at 0", async () => {
    const ws = tempDir("mlab-house-sample-");
    fs.writeFileSync(path.join(ws, "train.py"), copier(path.join(workspace, "sample_submission.csv")));
    expect(await task.score(ws, hostRunner(ws), CTX)).toBeCloseTo(EXPECTED.split.median_mae, 12);
    writeCsv(path.join(ws, "submission.csv"), bostonHousingAnswers());
    expect(gradeBostonHousingWorkspace(ws)).toBe(0);
  });

  it("runs the starter and scores near its recorded baseline", async () => {
    const score = await task.score(workspace, hostRunner(workspace), CTX);
    expect(Math.abs(score - task.baseline!.score)).toBeLessThanOrEqual(0.01);
    expect(readCsv(path.join(workspace, "submission.csv")).rowCount).toBe(EXPECTED.split.test_rows);
  }, 120_000);

  it("rejects malformed submissions, naming the row and column", () => {
    const answers = bostonHousingAnswers();
    const ids = answers.data.get("Id")!.values as Float64Array;
    const ws = tempDir("mlab-house-bad-");
    const write = (text: string) => fs.writeFileSync(path.join(ws, "submission.csv"), text);
    const rows = (value: (i: number) => string, id: (i: number) => string = (i) => String(ids[i])) =>
      "Id,MEDV\n" + Array.from(ids, (_, i) => `${id(i)},${value(i)}`).join("\n") + "\n";
    const grade = () => gradeBostonHousingWorkspace(ws);

    expect(grade).toThrow(/submission\.csv is missing from the workspace/);
    write("Id,price\n" + Array.from(ids, (v) => `${v},20`).join("\n") + "\n");
    expect(grade).toThrow(InvalidSubmissionError);
    expect(grade).toThrow(/^submission\.csv is not valid: submission\.csv must have the columns Id and MEDV; found "Id", "price"$/);
    write(rows((i) => (i === 3 ? "" : "20")));
    expect(grade).toThrow(`submission.csv data row 4 (line 5) (Id ${ids[3]}): MEDV is empty, expected a finite number`);
    write(rows((i) => (i === 0 ? "cheap" : "20")));
    expect(grade).toThrow(`submission.csv data row 1 (line 2) (Id ${ids[0]}): MEDV is "cheap", expected a finite number`);
    write(rows((i) => (i === 2 ? "inf" : "20")));
    expect(grade).toThrow(/data row 3 \(line 4\) .*MEDV is Infinity, expected a finite number/);
    write(rows(() => "20", (i) => (i === 5 ? "3" : String(ids[i]))));
    expect(grade).toThrow(`submission.csv data row 6 (line 7): Id 3 is not a house of test.csv`);
    write(rows(() => "20", (i) => (i === 5 ? String(ids[4]) : String(ids[i]))));
    expect(grade).toThrow(`submission.csv data row 6 (line 7): Id ${ids[4]} appears again (first on data row 5)`);
    write(rows(() => "20", (i) => (i === 1 ? "x1" : String(ids[i]))));
    expect(grade).toThrow(`submission.csv data row 2 (line 3): Id is "x1", expected a whole number from test.csv`);
    write("Id,MEDV\n" + Array.from(ids.subarray(0, 100), (v) => `${v},20`).join("\n") + "\n");
    expect(grade).toThrow(`submission.csv has no row for 2 of the 102 houses of test.csv (Id ${ids[100]}, ${ids[101]})`);
  });

  it("refuses a source file that is not the expected table, naming the line and column", () => {
    const lines = fs.readFileSync(HOUSE_SOURCE.path, "utf8").split("\n");
    const dir = tempDir("mlab-house-source-");
    const broken = (edit: (copy: string[]) => void) => {
      const copy = [...lines];
      edit(copy);
      const file = path.join(dir, "boston.csv");
      fs.writeFileSync(file, copy.join("\n"));
      return () => readSource(file);
    };
    expect(readSource(HOUSE_SOURCE.path).columns).not.toContain("B");
    expect(broken((c) => c.shift())).toThrow(/boston\.csv line 1: expected the row count 506 before the header, found "\\"CRIM/);
    expect(broken((c) => (c[1] = c[1].replace('"RM"', '"ROOMS"')))).toThrow(/boston\.csv line 2: expected the columns CRIM, .*found CRIM, ZN, INDUS, CHAS, NOX, ROOMS/);
    expect(broken((c) => (c[6] = c[6].replace(/^[^,]*,[^,]*,/, "0.1,,")))).toThrow(/boston\.csv line 7: column ZN is empty or not finite/);
    expect(broken((c) => c.splice(10, 1))).toThrow(/boston\.csv: 505 data rows, expected 506/);
    expect(() => resolveSource({ ...HOUSE_SOURCE, path: path.join(dir, "absent.csv") })).toThrow(/apt-get install python3-sklearn/);
  });

  it("rejects a train.py that fails", async () => {
    const ws = tempDir("mlab-house-fail-");
    fs.writeFileSync(path.join(ws, "train.py"), "raise SystemExit('no model yet')\n");
    await expect(task.score(ws, hostRunner(ws), CTX)).rejects.toThrow(/train\.py failed with exit code 1:\nno model yet/);
  });
});

describe("research task fashion-mnist", async () => {
  const task = await getTask("fashion-mnist");
  let workspace: string;
  let answers: Table;

  beforeAll(async () => {
    workspace = tempDir("mlab-fashion-");
    await task.prepare(workspace, CTX);
    answers = await loadAnswers(fashionCompetition);
  }, 120_000);

  it("is registered offline, higher is better, with a measured baseline and hidden sources", () => {
    expect(OFFLINE_TASKS.map((t) => t.name)).toContain("fashion-mnist");
    expect(task.needsDownload).toBe(false);
    expect(task.direction).toBe("higher");
    expect(task.baseline!.score).toBeGreaterThan(0.75);
    expect(task.hiddenSources().map((f) => path.basename(f)).sort()).toEqual([
      "t10k-images-idx3-ubyte.gz",
      "t10k-labels-idx1-ubyte.gz",
      "train-images-idx3-ubyte.gz",
      "train-labels-idx1-ubyte.gz",
    ]);
  });

  it("puts the public files and starter in the workspace but no test labels", () => {
    expect(listFiles(workspace)).toEqual(["classes.csv", "sample_submission.csv", "test.csv", "train.csv", "train.py"]);
    expect(task.readOnly).toContain("classes.csv");
    for (const file of task.readOnly) expect(fs.existsSync(path.join(workspace, file))).toBe(true);
    expect(readCsvHeader(path.join(workspace, "train.csv")).slice(0, 3)).toEqual(["id", "label", "pixel0"]);
    const test = readCsv(path.join(workspace, "test.csv"));
    expect(test.columns).not.toContain("label");
    expect(test.columns.length).toBe(1 + 784);
    expect(column(test, "id")).toEqual(column(answers, "id"));
  });

  it("runs the starter and scores near its recorded baseline", async () => {
    const score = await task.score(workspace, hostRunner(workspace), CTX);
    expect(Math.abs(score - task.baseline!.score)).toBeLessThanOrEqual(0.01);
  }, 300_000);

  it("scores a perfect submission 1 and a constant one by its class share", async () => {
    const dir = tempDir("mlab-fashion-perfect-");
    const perfect = path.join(dir, "perfect.csv");
    writeCsv(perfect, answers);
    const ws = tempDir("mlab-fashion-ws-");
    fs.writeFileSync(path.join(ws, "train.py"), copier(perfect));
    expect(await task.score(ws, hostRunner(ws), CTX)).toBe(1);
    const ids = answers.data.get("id")!;
    writeCsv(path.join(ws, "submission.csv"), makeTable([["id", ids], ["label", { kind: "int", values: new Float64Array(ids.values.length).fill(7) }]]));
    const sevens = column(answers, "label").filter((v) => v === 7).length;
    expect(await gradeSubmission(fashionCompetition, ws)).toBe(sevens / answers.rowCount);
  }, 120_000);

  it("rejects a submission without the label column, naming it", async () => {
    const ws = tempDir("mlab-fashion-bad-");
    writeCsv(path.join(ws, "submission.csv"), makeTable([["id", answers.data.get("id")!], ["class", answers.data.get("label")!]]));
    const err = await failure(() => gradeSubmission(fashionCompetition, ws));
    expect(err).toBeInstanceOf(InvalidSubmissionError);
    expect(err.message).toMatch(/^submission\.csv is not valid: .*"label"/);
  });
});
