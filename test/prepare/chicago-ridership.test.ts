import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/chicago-ridership/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { FIRST_TEST_DAY, GAMES, WEATHER } from "../../src/competitions/chicago-ridership/prepare.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const column = (file: string, name: string) => readCsv(file).data.get(name)!.values;
const numbers = (file: string, name: string) => Array.from(column(file, name) as Float64Array);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("chicago-ridership preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits the 5,698 days by time: the last two years are the test set, the lagged station counts are left out", () => {
    const trainFile = path.join(p.public, "train.csv");
    const testFile = path.join(p.public, "test.csv");
    const columns = ["id", "date", ...WEATHER, ...GAMES];
    expect(readCsv(trainFile).columns).toEqual([...columns, "ridership"]);
    expect(readCsv(testFile).columns).toEqual(columns);
    const trainDays = (column(trainFile, "date") as string[]).slice().sort();
    const testDays = (column(testFile, "date") as string[]).slice().sort();
    expect([trainDays.length, trainDays[0], trainDays.at(-1)]).toEqual([4967, "2001-01-22", "2014-08-28"]);
    expect([testDays.length, testDays[0], testDays.at(-1)]).toEqual([731, FIRST_TEST_DAY, "2016-08-28"]);
    // Debian's R on modeldata's Chicago: ridership sums to 65757.2935 before 2014-08-29 and 11845.670
    // from it; the Bears played 20 home games and temp_max sums to 44630.4 in the test period.
    expect(sum(numbers(trainFile, "ridership"))).toBeCloseTo(65757.2935, 6);
    expect(sum(numbers(path.join(p.private, "test.csv"), "ridership"))).toBeCloseTo(11845.67, 6);
    expect(sum(numbers(testFile, "Bears_Home"))).toBe(20);
    expect(sum(numbers(testFile, "temp_max"))).toBeCloseTo(44630.4, 6);
    const ids = [...numbers(trainFile, "id"), ...numbers(testFile, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 5698 }, (_, i) => i + 1));
    expect(numbers(path.join(p.private, "test.csv"), "id")).toEqual(numbers(testFile, "id"));
  });
});

describe("chicago-ridership grader", () => {
  it("scores the sample (the last training year's mean) and that year's weekday means as scikit-learn does, in any row order", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    // sqrt(sklearn.metrics.mean_squared_error(answers, 15.134 everywhere)) = 7.013522999113722.
    expect([report.valid_submission, report.score, report.is_lower_better, report.any_medal]).toEqual([true, 7.01352, true, false]);
    expect(fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").split("\n")[1]).toMatch(/,15\.134$/);
    // pandas: the mean ridership per weekday (Monday first) from 2013-08-29 to 2014-08-28; RMSE 3.025650566018623.
    const byWeekday = [17.886, 19.166, 19.157, 19.408, 18.678, 6.446, 5.113];
    const trainFile = path.join(p.public, "train.csv");
    const trainDates = column(trainFile, "date") as string[];
    const trainCounts = numbers(trainFile, "ridership");
    const weekday = (d: string) => (new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7;
    const means = byWeekday.map((_, w) => {
      const own = trainCounts.filter((_, i) => trainDates[i] >= "2013-08-29" && weekday(trainDates[i]) === w);
      return sum(own) / own.length;
    });
    expect(means.map((m) => Math.round(m * 1000) / 1000)).toEqual(byWeekday);
    const testFile = path.join(p.public, "test.csv");
    const ids = numbers(testFile, "id");
    const dates = column(testFile, "date") as string[];
    const rows = ids.map((id, i) => `${id},${means[weekday(dates[i])]}`);
    expect(grade("weekday", ["id,ridership", ...rows.reverse()].join("\n") + "\n").score).toBe(3.02565);
  });

  it("rejects missing days, empty and non-numeric estimates", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toMatch(/^Submission/);
    const id = rows[0].split(",")[0];
    for (const [name, value] of [["empty", ""], ["text", "many"]]) {
      const r = grade(name, [header, `${id},${value}`, ...rows.slice(1)].join("\n") + "\n");
      expect(r.valid_submission, name).toBe(false);
      expect(r.invalid_reason, name).toMatch(/ridership/);
    }
  });
});
