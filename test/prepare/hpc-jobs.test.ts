import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COSTS } from "../../src/competitions/hpc-jobs/grade.js";
import { competition as entry } from "../../src/competitions/hpc-jobs/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { FEATURES } from "../../src/competitions/hpc-jobs/prepare.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];
const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const count = (values: (string | null)[]) => Object.fromEntries(["VF", "F", "M", "L"].map((c) => [c, values.filter((v) => v === c).length]));

describe("hpc-jobs preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("splits the 4,331 jobs 70/30, stratified by class, publishing every source column", () => {
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([3032, 1299]);
    expect(train.columns).toEqual(["id", ...FEATURES, "class"]);
    expect(test.columns).toEqual(["id", ...FEATURES]);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 4331 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
    // The source (pandas value_counts) has VF 2211, F 1347, M 514, L 259; 30% of each is test.
    expect(count(strings(train, "class"))).toEqual({ VF: 1548, F: 943, M: 360, L: 181 });
    expect(count(strings(readCsv(path.join(p.private, "test.csv")), "class"))).toEqual({ VF: 663, F: 404, M: 154, L: 78 });
    // pandas: train.protocol.nunique() == 14 and every weekday occurs.
    expect(new Set(strings(train, "protocol")).size).toBe(14);
    expect(new Set(strings(train, "day")).size).toBe(7);
  });

  it("writes class answers for exactly the test ids", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    expect(answers.columns).toEqual(["id", "class"]);
    expect(numbers(answers, "id")).toEqual(numbers(readCsv(path.join(p.public, "test.csv")), "id"));
  });
});

describe("hpc-jobs grader", () => {
  it("charges Kuhn & Johnson's costs, rows the true class", () => {
    expect(COSTS).toEqual([
      [0, 1, 1, 1],
      [1, 0, 1, 1],
      [5, 5, 0, 1],
      [10, 5, 1, 0],
    ]);
  });

  it("grades the all-VF sample submission as numpy's mean of the costs, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    // numpy: COSTS[true_index, 0].mean() == 1.50423402617398
    expect(report.score).toBe(1.50423);
    expect(report.is_lower_better).toBe(true);
    expect(report.any_medal).toBe(false);
  });

  it("scores a rule on the number of compounds as numpy does, rows in any order", () => {
    const test = readCsv(path.join(p.public, "test.csv"));
    const compounds = numbers(test, "compounds");
    const band = (c: number) => (c < 200 ? "VF" : c < 500 ? "F" : c < 2000 ? "M" : "L");
    const rows = numbers(test, "id").map((id, i) => `${id},${band(compounds[i])}`).reverse();
    // numpy: COSTS[true_index, np.digitize(compounds, [200, 500, 2000])].mean() == 0.9299461123941494
    const report = grade("bands", ["id,class", ...rows].join("\n") + "\n");
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.92995);
    expect(grade("perfect", fs.readFileSync(path.join(p.private, "test.csv"), "utf8")).score).toBe(0);
  });

  it("rejects missing rows and labels outside VF, F, M, L, naming the row", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const short = grade("short", [header, ...rows.slice(1)].join("\n") + "\n");
    expect(short.valid_submission).toBe(false);
    expect(short.invalid_reason).toBe("Submission has 1298 rows but the answers have 1299; submit one row per test id.");
    const lower = grade("lower", [header, rows[0], "5,vf", ...rows.slice(2)].join("\n") + "\n");
    expect(lower.valid_submission).toBe(false);
    expect(lower.invalid_reason).toBe('Column "class" must hold one of VF, F, M, L on every row, but data row 2 (id 5) holds "vf".');
    const empty = grade("empty", [header, rows[0], "5,", ...rows.slice(2)].join("\n") + "\n");
    expect(empty.invalid_reason).toBe('Column "class" must hold one of VF, F, M, L on every row, but data row 2 (id 5) holds nothing.');
    const number = grade("number", [header, rows[0], "5,2", ...rows.slice(2)].join("\n") + "\n");
    expect(number.valid_submission).toBe(false);
  });
});
