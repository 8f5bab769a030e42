import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidSubmissionError } from "../../src/core/errors.js";
import { readCsv } from "../../src/io/csv-read.js";
import { makeTable, type Table } from "../../src/core/table.js";
import { writeCsv } from "../../src/io/csv-write.js";
import { competition as spamCompetition } from "../../src/competitions/spam-assassin/index.js";
import { competition as titanicCompetition } from "../../src/competitions/titanic/index.js";
import { getTask, taskNames } from "../../src/mlagentbench/tasks/registry.js";
import { hostRunner } from "../../src/mlagentbench/tasks/runner.js";
import { gradeSubmission, loadAnswers } from "../../src/mlagentbench/tasks/starter.js";
import { tempDir } from "../helpers/data-dir.js";

/** Tasks without downloads keep nothing in their data folder. */
const CTX = { dataDir: tempDir("mlab-data-") };

const CASES = [
  { name: "titanic", competition: titanicCompetition, id: "PassengerId", target: "Survived", tolerance: 0.02 },
  { name: "spam", competition: spamCompetition, id: "id", target: "label", tolerance: 0.01 },
] as const;

/** A train.py that ignores the data and copies `file` to submission.csv. */
function copier(file: string): string {
  return `import shutil\nshutil.copyfile(${JSON.stringify(file)}, "submission.csv")\n`;
}

/** The values of column `name` of `table`, as strings. */
function values(table: Table, name: string): string[] {
  const column = table.data.get(name);
  if (!column) throw new Error(`no column ${name}`);
  return Array.from(column.values as ArrayLike<unknown>, String);
}

/** Every file under `dir`, relative to it. */
function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

describe.each(CASES)("research task $name", async ({ name, competition, id, target, tolerance }) => {
  const task = await getTask(name);
  let workspace: string;

  beforeAll(async () => {
    workspace = tempDir(`mlab-${name}-`);
    await task.prepare(workspace, CTX);
  }, 120_000);

  it("is registered, needs no download and has a measured baseline", () => {
    expect(taskNames()).toContain(name);
    expect(task.needsDownload).toBe(false);
    expect(task.direction).toBe("higher");
    expect(task.baseline?.score).toBeGreaterThan(0.5);
    expect(task.baseline?.machine).toMatch(/CPUs/);
  });

  it("puts the data and starter code in the workspace but no test labels", async () => {
    expect(listFiles(workspace).sort()).toEqual(["sample_submission.csv", "test.csv", "train.csv", "train.py"]);
    const test = readCsv(path.join(workspace, "test.csv"));
    expect(test.columns).not.toContain(target);
    const answers = await loadAnswers(competition);
    const testIds = new Set(values(answers, id));
    expect(values(test, id).sort()).toEqual([...testIds].sort());
    const trainIds = values(readCsv(path.join(workspace, "train.csv")), id);
    expect(trainIds.some((v) => testIds.has(v))).toBe(false);
    const sample = readCsv(path.join(workspace, "sample_submission.csv"));
    expect(new Set(values(sample, target)).size).toBe(1);
    for (const file of task.readOnly) expect(fs.existsSync(path.join(workspace, file))).toBe(true);
  });

  it("runs the starter and scores near its recorded baseline", async () => {
    const score = await task.score(workspace, hostRunner(workspace), CTX);
    expect(Math.abs(score - task.baseline!.score)).toBeLessThanOrEqual(tolerance);
    expect(fs.existsSync(path.join(workspace, "submission.csv"))).toBe(true);
  }, 300_000);

  it("gives a perfect submission a score of 1", async () => {
    const dir = tempDir(`mlab-${name}-perfect-`);
    const perfect = path.join(dir, "perfect.csv");
    writeCsv(perfect, await loadAnswers(competition));
    const ws = tempDir(`mlab-${name}-ws-`);
    fs.writeFileSync(path.join(ws, "train.py"), copier(perfect));
    expect(await task.score(ws, hostRunner(ws), CTX)).toBe(1);
    expect(await gradeSubmission(competition, ws)).toBe(1);
  }, 120_000);

  it("rejects a submission with a missing column, with a clear message", async () => {
    const ws = tempDir(`mlab-${name}-bad-`);
    const bad = path.join(ws, "..", `${path.basename(ws)}-bad.csv`);
    const answers = await loadAnswers(competition);
    writeCsv(bad, makeTable([[id, answers.data.get(id)!], ["guess", answers.data.get(target)!]]));
    fs.writeFileSync(path.join(ws, "train.py"), copier(bad));
    const err = await task.score(ws, hostRunner(ws), CTX).catch((e: unknown) => e);
    fs.rmSync(bad, { force: true });
    expect(err).toBeInstanceOf(InvalidSubmissionError);
    expect((err as Error).message).toMatch(/^submission\.csv is not valid: .*/);
    expect((err as Error).message).toMatch(new RegExp(target));
  }, 120_000);

  it("rejects a workspace whose train.py fails or writes no submission", async () => {
    const ws = tempDir(`mlab-${name}-fail-`);
    fs.writeFileSync(path.join(ws, "train.py"), "raise SystemExit('no model yet')\n");
    await expect(task.score(ws, hostRunner(ws), CTX)).rejects.toThrow(/train\.py failed with exit code 1:\nno model yet/);
    fs.writeFileSync(path.join(ws, "train.py"), "print('nothing written')\n");
    await expect(task.score(ws, hostRunner(ws), CTX)).rejects.toThrow(/submission\.csv is missing from the workspace/);
    fs.rmSync(path.join(ws, "train.py"));
    await expect(task.score(ws, hostRunner(ws), CTX)).rejects.toThrow(InvalidSubmissionError);
  }, 120_000);
});
