import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/flight-delays/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { readFlights } from "../../src/competitions/flight-delays/prepare.js";
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
const span = (d: string[]) => [d.reduce((a, b) => (a < b ? a : b)), d.reduce((a, b) => (a > b ? a : b))];

describe("flight-delays preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  // Oracle: pandas on the prepared files, e.g. len(train), train.date.nunique(), (train.delay > 15).sum().
  it("splits the 20,000 flights at random within each of the 90 days, ids 1 … 20,000 at random", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([13991, 6009]);
    const features = ["id", "date", "departure_time", "origin", "destination", "distance"];
    expect(train.columns).toEqual([...features, "delay"]);
    expect(test.columns).toEqual(features);
    expect(span(strings(train, "date") as string[])).toEqual(["2001-01-01", "2001-03-31"]);
    expect(span(strings(test, "date") as string[])).toEqual(["2001-01-01", "2001-03-31"]);
    // Every day is split: the same 90 days on both sides, at least 56 test and 130 training flights each.
    const perDay = (t: Table) => {
      const count = new Map<string, number>();
      for (const d of strings(t, "date")) count.set(d!, (count.get(d!) ?? 0) + 1);
      return count;
    };
    const trainDays = perDay(train);
    const testDays = perDay(test);
    expect([...testDays.keys()].sort()).toEqual([...trainDays.keys()].sort());
    expect(trainDays.size).toBe(90);
    expect([Math.min(...trainDays.values()), Math.min(...testDays.values())]).toEqual([130, 56]);
    for (const [day, k] of testDays) expect(Math.abs(k - 0.3 * (k + trainDays.get(day)!)), day).toBeLessThanOrEqual(0.5);
    for (const t of [train, test]) expect((strings(t, "departure_time") as string[]).every((s) => /^([01]\d|2[0-3]):[0-5]\d$/.test(s))).toBe(true);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 20000 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    const delay = numbers(train, "delay");
    expect(delay.filter((v) => v > 15)).toHaveLength(3060);
    expect(delay.filter((v) => v < 0)).toHaveLength(6767);
    expect([Math.min(...delay), Math.max(...delay), delay.reduce((a, b) => a + b, 0)]).toEqual([-58, 518, 110248]);
    expect(new Set(strings(train, "origin")).size).toBe(217);
  });

  it("writes the answers for exactly the test ids, and the 224 airports the flights use", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "delay"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
    const delay = numbers(answers, "delay");
    expect([delay.filter((v) => v > 15).length, Math.min(...delay), Math.max(...delay), delay.reduce((a, b) => a + b, 0)]).toEqual([1289, -59, 522, 43830]);
    const airports = readCsv(path.join(p.public, "airports.csv"));
    expect(airports.columns).toEqual(["code", "name", "city", "state", "latitude", "longitude"]);
    expect(airports.rowCount).toBe(224);
    const codes = strings(airports, "code");
    // The source leaves Marquette's city and state as NA; they stay empty.
    const mqt = codes.indexOf("MQT");
    expect([strings(airports, "city")[mqt], strings(airports, "state")[mqt]]).toEqual([null, null]);
    expect(strings(airports, "state").filter((s) => s === null)).toHaveLength(1);
    const train = readCsv(path.join(p.public, "train.csv"));
    const used = new Set([...strings(train, "origin"), ...strings(train, "destination")]);
    expect([...used].every((c) => codes.includes(c))).toBe(true);
  });

  it("names the file, record and field of a bad source flight", () => {
    const dir = tempDir("flight-delays-source-");
    const file = path.join(dir, "flights.json");
    const good = { date: "2001/01/01 06:02", delay: -6, distance: 500, origin: "LAS", destination: "PHX" };
    const write = (bad: Record<string, unknown>) => fs.writeFileSync(file, JSON.stringify([good, { ...good, ...bad }]));
    write({ date: "2001/02/30 06:02" });
    expect(() => readFlights(file)).toThrow(`${file}: record 2 has date "2001/02/30 06:02", which is not a real date and time`);
    write({ delay: "late" });
    expect(() => readFlights(file)).toThrow(`${file}: record 2 has delay "late", expected a whole number of minutes within a day`);
    write({ distance: 0 });
    expect(() => readFlights(file)).toThrow(`${file}: record 2 has distance 0, expected a positive whole number of miles`);
    write({ destination: "LAS" });
    expect(() => readFlights(file)).toThrow(`${file}: record 2 flies from LAS to itself`);
    write({ origin: "las" });
    expect(() => readFlights(file)).toThrow(`${file}: record 2 has origin "las", expected a three-character airport code`);
  });
});

describe("flight-delays grader", () => {
  it("grades the sample submission (the training mean for every flight) as scikit-learn does, valid, no medal", () => {
    const sample = readCsv(path.join(p.public, "sample_submission.csv"));
    expect(sample.columns).toEqual(["id", "delay"]);
    // train.delay.mean(): 7.87992280751912.
    expect([...new Set(numbers(sample, "delay"))]).toEqual([7.87992280751912]);
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // numpy.sqrt(sklearn.metrics.mean_squared_error(answers.delay, sample.delay)): 30.629100079590803.
    expect(report.score).toBe(30.6291);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores zero for every flight and the training mean by day as scikit-learn does", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    const delay = numbers(train, "delay");
    const ids = numbers(test, "id");
    const submit = (name: string, value: (i: number) => number) => grade(name, ["id,delay", ...ids.map((id, i) => `${id},${value(i)}`)].join("\n") + "\n");

    // numpy.sqrt(mean_squared_error(answers.delay, 0)): 31.48018155264439.
    expect(submit("zero", () => 0).score).toBe(31.48018);

    // test.date.map(train.groupby("date").delay.mean()) (every test day has training flights);
    // numpy.sqrt(mean_squared_error(...)): 30.16763211013336.
    const byDay = new Map<string, [number, number]>();
    strings(train, "date").forEach((d, i) => {
      const [sum, k] = byDay.get(d!) ?? [0, 0];
      byDay.set(d!, [sum + delay[i], k + 1]);
    });
    const testDates = strings(test, "date");
    const daily = submit("day-mean", (i) => {
      const [sum, k] = byDay.get(testDates[i]!)!;
      return sum / k;
    });
    expect(daily.invalid_reason).toBeNull();
    expect(daily.score).toBe(30.16763);

    const answers = fs.readFileSync(path.join(p.private, "test.csv"), "utf8");
    expect(grade("perfect", answers).score).toBe(0);
  });

  it("rejects a missing column, missing, unknown or repeated ids, text, empty and infinite predictions", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const id = rows[0].split(",")[0];
    const body = (lines: string[]) => [header, ...lines].join("\n") + "\n";
    const cases: [string, string, string][] = [
      ["short", body(rows.slice(1)), "Submission has 6008 rows but the answers have 6009; submit one row per test id."],
      [
        "unknown-id",
        body(["20001,0", ...rows.slice(1)]),
        'Submission "id" values do not match the answers (1 of 6009 answer ids have no matching row): 1 answer id(s) are missing (e.g. 3); 1 id(s) are not in the answers (e.g. 20001). Submit exactly one row for every id in the sample submission.',
      ],
      [
        "repeated-id",
        body([rows[1], ...rows.slice(1)]),
        'Submission "id" values do not match the answers (1 of 6009 answer ids have no matching row): 1 answer id(s) are missing (e.g. 3); 1 row(s) repeat an id. Submit exactly one row for every id in the sample submission.',
      ],
      ["text", body([`${id},late`, ...rows.slice(1)]), 'Column "delay" must hold numbers, but data row 1 holds "late".'],
      ["empty", body([`${id},`, ...rows.slice(1)]), 'Column "delay" must hold finite numbers, but data row 1 holds a missing value (NaN).'],
      ["infinite", body([`${id},inf`, ...rows.slice(1)]), 'Column "delay" must hold finite numbers, but data row 1 holds inf.'],
      ["wrong-column", ["id,arrival_delay", ...rows].join("\n") + "\n", 'Submission must have a "delay" column; found "id", "arrival_delay".'],
      ["no-id", ["delay", ...rows.map((r) => r.split(",")[1])].join("\n") + "\n", 'Submission must have a "id" column; found "delay".'],
    ];
    for (const [name, text, reason] of cases) {
      const report = grade(name, text);
      expect(report.valid_submission, name).toBe(false);
      expect(report.invalid_reason, name).toBe(reason);
    }
  });
});
