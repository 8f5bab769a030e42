import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/us-births/index.js";
import { prepare } from "../../src/competitions/us-births/prepare.js";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { tempDir } from "../helpers/data-dir.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("us-births preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  // Oracle: pandas on the source CSV (train: year <= 1986; test: 1987 and 1988), e.g. tr["count"].sum().
  it("splits the 7,305 days at 1987-01-01: every day of 1969-1986 is train, every day of 1987-1988 is test", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([6574, 731]);
    const features = ["id", "date", "year", "month", "day_of_month", "day_of_week"];
    expect(train.columns).toEqual([...features, "count"]);
    expect(test.columns).toEqual(features);
    const trainDates = strings(train, "date") as string[];
    const testDates = strings(test, "date") as string[];
    const span = (d: string[]) => [d.reduce((a, b) => (a < b ? a : b)), d.reduce((a, b) => (a > b ? a : b))];
    expect(span(trainDates)).toEqual(["1969-01-01", "1986-12-31"]);
    expect(span(testDates)).toEqual(["1987-01-01", "1988-12-31"]);
    expect(new Set([...trainDates, ...testDates]).size).toBe(7305);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 7305 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    expect(sum(numbers(train, "count"))).toBe(62758511);
    // The ids are shuffled: the first rows of the train file are not the first days.
    expect(trainDates.slice(0, 2)).toEqual(["1986-01-20", "1972-10-12"]);
  });

  it("writes the counts of exactly the test ids as answers", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "count"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    expect(sum(numbers(answers, "count"))).toBe(7726997);
    expect(numbers(answers, "count").slice(0, 3)).toEqual([10386, 11049, 8049]);
  });
});

describe("us-births preparer on a malformed source", () => {
  const header = "year,month,date_of_month,day_of_week,births";
  const run = (lines: string[], head = header) => {
    const dir = tempDir("mlebench-us-births-bad-");
    const file = path.join(dir, "data.csv");
    fs.writeFileSync(file, [head, ...lines].join("\n") + "\n");
    fs.mkdirSync(path.join(dir, "public"));
    fs.mkdirSync(path.join(dir, "private"));
    return () => prepare({ sources: { births: file }, public: path.join(dir, "public"), private: path.join(dir, "private") });
  };

  it("names the row of a wrong weekday, a gap or a missing column", () => {
    expect(run(["1986,12,30,2,9000", "1986,12,31,4,9100"])).toThrow(/data row 2 \(1986-12-31\) has day_of_week 4, but that day is 3/);
    expect(run(["1986,12,30,2,9000", "1987,1,1,4,9100"])).toThrow(/data row 2 \(1987-01-01\) does not follow the day before it \(1986-12-30\)/);
    expect(run(["1986,2,30,7,9000"])).toThrow(/data row 1 is not a calendar date/);
    expect(run(["1986,12,30,2,9000"], "year,month,date_of_month,day_of_week,count")).toThrow(
      /data\.csv: no column "births" \(columns: year, month, date_of_month, day_of_week, count\)/,
    );
    expect(run(["1986,12,30,2,9000", "1986,12,31,3,-1"])).toThrow(/data row 2 \(1986-12-31\) has -1 births/);
  });
});

describe("us-births grader", () => {
  it("grades the sample submission (1986's mean, 10,303, every day) as scikit-learn does, valid, no medal", () => {
    const sample = readCsv(path.join(p.public, "sample_submission.csv"));
    expect(new Set(numbers(sample, "count"))).toEqual(new Set([10303]));
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // 100 * sklearn.metrics.mean_absolute_percentage_error(answers, sample): 11.064176828819832.
    expect(report.score).toBe(11.06418);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores calendar-mean forecasts built from train as scikit-learn does", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    const mean = (keep: (i: number) => boolean, key: (i: number) => string) => {
      const acc = new Map<string, [number, number]>();
      const count = numbers(train, "count");
      for (let i = 0; i < train.rowCount; i++) {
        if (!keep(i)) continue;
        const k = key(i);
        const [s, c] = acc.get(k) ?? [0, 0];
        acc.set(k, [s + count[i], c + 1]);
      }
      return (k: string) => acc.get(k)![0] / acc.get(k)![1];
    };
    const [year, month, dow] = ["year", "month", "day_of_week"].map((c) => numbers(train, c));
    const [tMonth, tDow] = ["month", "day_of_week"].map((c) => numbers(test, c));
    const ids = numbers(test, "id");
    const submit = (name: string, value: (i: number) => number) =>
      grade(name, ["id,count", ...ids.map((id, i) => `${id},${value(i)}`)].join("\n") + "\n");

    // 1986's mean by day of week; pandas groupby("day_of_week").mean() and 100 * sklearn MAPE: 4.33351955784123.
    const byDow = mean((i) => year[i] === 1986, (i) => String(dow[i]));
    const weekly = submit("dow-1986", (i) => byDow(String(tDow[i])));
    expect(weekly.invalid_reason).toBeNull();
    expect(weekly.score).toBe(4.33352);

    // The day of week x month mean over 1984-1986, times 1.02: 3.218763563647864.
    const byCell = mean((i) => year[i] >= 1984, (i) => `${dow[i]}|${month[i]}`);
    const cells = submit("dow-month", (i) => byCell(`${tDow[i]}|${tMonth[i]}`) * 1.02);
    expect(cells.score).toBe(3.21876);

    const answers = fs.readFileSync(path.join(p.private, "test.csv"), "utf8");
    expect(grade("perfect", answers).score).toBe(0);
  });

  it("rejects a submission missing a test id, holding text or an empty forecast", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const id = rows[0].split(",")[0];
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 730 rows but the answers have 731; submit one row per test id.");
    const text = grade("text", [header, `${id},many`, ...rows.slice(1)].join("\n") + "\n");
    expect(text.invalid_reason).toBe('Column "count" must hold numbers, but data row 1 holds "many".');
    const empty = grade("empty", [header, `${id},`, ...rows.slice(1)].join("\n") + "\n");
    expect(empty.invalid_reason).toBe('Column "count" must hold finite numbers, but data row 1 holds a missing value (NaN).');
    const wrong = grade("wrong-column", ["id,births", ...rows].join("\n") + "\n");
    expect(wrong.invalid_reason).toBe('Submission must have a "count" column; found "id", "births".');
  });
});
