import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/grant-applications/index.js";
import { prepare } from "../../src/competitions/grant-applications/prepare.js";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Table } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { readCsv } from "../../src/io/csv-read.js";
import { checksumTree, recordedChecksums } from "../../src/prepare/prepare.js";
import { tempDir } from "../helpers/data-dir.js";
import { preparedOffline } from "../helpers/offline.js";

const competition = await loadGrader(entry);

const { dataDir, paths: p, grade } = preparedOffline(competition);

const numbers = (t: Table, name: string) => Array.from(t.data.get(name)!.values as Float64Array);
const strings = (t: Table, name: string) => t.data.get(name)!.values as (string | null)[];

/** The test file's rows as `id,score` submission text, scored by `score` from the row's cells. */
function submission(score: (row: (name: string) => number | string) => number): string {
  const test = readCsv(path.join(p.public, "test.csv"));
  const ids = numbers(test, "id");
  const lines = ids.map((id, i) => `${id},${score((name) => {
    const col = test.data.get(name)!;
    return col.kind === "string" ? col.values[i]! : (col.values as Float64Array)[i];
  })}`);
  return ["id,successful", ...lines].join("\n") + "\n";
}

describe("grant-applications preparer", () => {
  it("matches the recorded checksums", () => {
    expect(checksumTree(path.dirname(p.public))).toEqual(recordedChecksums(competition));
  });

  it("trains on the 6,633 pre-2008 applications and tests on the 2,075 of 2008", () => {
    // Oracle: pandas on R's exports: grants_other rows listed in grants_2008 (6,633; 3,233 successful) vs the other
    // 1,557 rows of grants_other plus the 518 of grants_test (759 successful); no test row repeats a training row.
    const train = readCsv(path.join(p.public, "train.csv"));
    const test = readCsv(path.join(p.public, "test.csv"));
    expect([train.rowCount, test.rowCount]).toEqual([6633, 2075]);
    expect(train.columns).toHaveLength(1504);
    expect(train.columns.slice(0, 3)).toEqual(["id", "num_ci", "num_dr"]);
    expect(train.columns.at(-1)).toBe("successful");
    expect(test.columns).toEqual(train.columns.slice(0, -1));
    expect(train.columns).not.toContain("class");
    expect(numbers(train, "successful").filter((v) => v === 1)).toHaveLength(3233);
    expect(numbers(train, "successful").every((v) => v === 0 || v === 1)).toBe(true);
    expect(strings(train, "contract_value_band").filter((v) => v === "Unk")).toHaveLength(2719);
    expect(new Set(strings(train, "sponsor_code")).size).toBe(246);
    const ids = [...numbers(train, "id"), ...numbers(test, "id")].sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 8708 }, (_, i) => i + 1));
    for (const t of [train, test]) {
      const col = numbers(t, "id");
      expect(col).toEqual([...col].sort((a, b) => a - b));
    }
  });

  it("writes 0/1 answers for exactly the test ids and a 0.5 sample", () => {
    const answers = readCsv(path.join(p.private, "test.csv"));
    const sample = readCsv(path.join(p.public, "sample_submission.csv"));
    expect(answers.columns).toEqual(["id", "successful"]);
    expect(sample.columns).toEqual(["id", "successful"]);
    const ids = numbers(readCsv(path.join(p.public, "test.csv")), "id");
    expect(numbers(answers, "id")).toEqual(ids);
    expect(numbers(sample, "id")).toEqual(ids);
    expect(numbers(sample, "successful").every((v) => v === 0.5)).toBe(true);
    expect(numbers(answers, "successful").filter((v) => v === 1)).toHaveLength(759);
  });

  it("names the file, row and column of bad source data", () => {
    const dir = tempDir();
    const header = '"class","num_ci","sponsor_code","contract_value_band","category_code","day","month","weekday"';
    const good = `${header}\n"successful",1,"2B","A","10A",3,"Jan","Mon"\n"unsuccessful",2,"Unk","Unk","30B",40,"Feb","Fri"\n`;
    const files = { other: path.join(dir, "other.csv"), test: path.join(dir, "test.csv"), before2008: path.join(dir, "early.csv") };
    const run = (other: string, later: string, early: string) => {
      fs.writeFileSync(files.other, other);
      fs.writeFileSync(files.test, later);
      fs.writeFileSync(files.before2008, early);
      return () => prepare({ sources: files, public: dir, private: dir });
    };
    expect(run(good, good.replace('"unsuccessful"', '"pending"'), '"x"\n1\n')).toThrow(
      `${files.test}: data row 2 has class "pending", expected "successful" or "unsuccessful"`,
    );
    expect(run(good.replace(",40,", ",4.5,"), good, '"x"\n1\n')).toThrow(`${files.other}: column "day" should hold whole numbers, but data row 2 holds 4.5`);
    expect(run(good, good, '"x"\n1\n3\n')).toThrow(`${files.before2008}: data row 2 holds 3, expected a row number from 1 to 2 listed once`);
    expect(run(good, good.replace(',"weekday"', ',"weekday2"'), '"x"\n1\n')).toThrow(`${files.test}: no column "weekday"`);
    run(good, good, '"x"\n1\n')();
    expect(readCsv(path.join(dir, "train.csv")).rowCount).toBe(1);
    // The later frame repeats both rows: its copy of the training row is dropped, the other stays beside the original.
    expect(readCsv(path.join(dir, "test.csv")).rowCount).toBe(2);
  });
});

describe("grant-applications grader", () => {
  it("grades the constant sample submission 0.5, valid, no medal", () => {
    const report = gradeSubmission(competition, path.join(p.public, "sample_submission.csv"), dataDir);
    expect(report.invalid_reason).toBeNull();
    expect(report.score).toBe(0.5);
    expect(report.is_lower_better).toBe(false);
    expect(report.any_medal).toBe(false);
  });

  it("scores one-column rules as scikit-learn's roc_auc_score does", () => {
    // sklearn.metrics.roc_auc_score(answers.successful, test.contract_value_band != "Unk") on the id-merged frames: 0.8144364885807995.
    const band = submission((row) => (row("contract_value_band") === "Unk" ? 0 : 1));
    expect(grade("band", band).score).toBe(0.81444);
    // roc_auc_score(answers.successful, (test.success_ci - test.unsuccess_ci + 50) / 100): 0.7120646467316217.
    const history = submission((row) => ((row("success_ci") as number) - (row("unsuccess_ci") as number) + 50) / 100);
    expect(grade("history", history).score).toBe(0.71206);
    // roc_auc_score(answers.successful, test.day / 366): 0.4270161306470279.
    const day = submission((row) => (row("day") as number) / 366);
    expect(grade("day", day).score).toBe(0.42702);
    expect(grade("perfect", fs.readFileSync(path.join(p.private, "test.csv"), "utf8")).score).toBe(1);
  });

  it("rejects bad submissions with a message naming the column, id or value", () => {
    const [header, ...rows] = fs.readFileSync(path.join(p.public, "sample_submission.csv"), "utf8").trimEnd().split("\n");
    const firstId = rows[0].split(",")[0];
    const bad = (name: string, lines: string[]) => {
      const report = grade(name, lines.join("\n") + "\n");
      expect(report.valid_submission).toBe(false);
      return report.invalid_reason;
    };
    expect(bad("short", [header, ...rows.slice(1)])).toBe("Submission has 2074 rows but the answers have 2075; submit one row per test id.");
    expect(bad("wrong-column", ["id,score", ...rows])).toBe('Submission must have a "successful" column; found "id", "score".');
    expect(bad("extra-id", [header, "99999,0.5", ...rows.slice(1)])).toBe(
      `Submission "id" values do not match the answers (1 of 2075 answer ids have no matching row): 1 answer id(s) are missing (e.g. ${firstId}); ` +
        "1 id(s) are not in the answers (e.g. 99999). Submit exactly one row for every id in the sample submission.",
    );
    expect(bad("empty", [header, `${firstId},`, ...rows.slice(1)])).toBe(
      `Column "successful" must hold a probability on every row, but data row 1 (id ${firstId}) is empty (NaN).`,
    );
    expect(bad("range", [header, `${firstId},1.5`, ...rows.slice(1)])).toBe(
      'Column "successful" must hold probabilities between 0 and 1, but data row 1 holds 1.5.',
    );
    expect(bad("text", [header, `${firstId},high`, ...rows.slice(1)])).toBe('Column "successful" must hold numbers, but data row 1 holds "high".');
  });
});
