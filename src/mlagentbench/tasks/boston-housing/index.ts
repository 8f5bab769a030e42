import { fileURLToPath } from "node:url";
import type { Table } from "../../../core/table.js";
import { InvalidSubmissionError } from "../../../core/errors.js";
import { resolveSource } from "../../../sources/packages.js";
import { copyStarterFiles, loadBaseline, readSubmission, runTrainScript } from "../starter.js";
import type { ResearchTask, TaskRunner } from "../types.js";
import { readSource, SOURCE, splitBostonHousing, writePublicFiles, type BostonHousingSplit } from "./data.js";
import { gradeBostonHousing } from "./evaluate.js";

/** Limit on one scoring run of train.py; the starter needs a few seconds. */
const TIMEOUT_MS = 600_000;

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds housing data from census tracts around Boston, collected in 1970. Each row of train.csv describes one tract: its Id, twelve numbers about the neighbourhood and its homes (crime rate, zoning, industry, river frontage, air pollution, rooms per home, age of the homes, distance to employment centres, highway access, tax rate, pupils per teacher, share of lower-status population) and MEDV, the median value of owner-occupied homes in thousands of dollars. data_description.txt explains every column. test.csv holds other tracts with the same columns except MEDV. train.py is a first attempt: a linear regression on four columns that prints its mean absolute error on a held-out part of train.csv and writes its predictions for test.csv to submission.csv. Improve on it: try other features and transformations, regularised or tree-based models and ensembles, and check each idea on held-out data (the data set is small, so cross-validation gives steadier estimates than one split).

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes. That file needs a header row and one row per tract of test.csv, with the columns Id and MEDV (a number, in thousands of dollars). The score is the mean absolute error between these predictions and the true values of MEDV, in thousands of dollars; lower is better. The true values for test.csv are not in the workspace. train.py must finish within ${TIMEOUT_MS / 60_000} minutes. train.csv, test.csv, sample_submission.csv and data_description.txt may not be changed.`;

const filesDir = fileURLToPath(new URL("./files/", import.meta.url));

// The split is deterministic and tiny, so it is made once per process and kept in memory; the answers
// never touch the disk.
let cached: BostonHousingSplit | undefined;

/** The task's train/test split of the installed Boston house-price table (a UserError when the package is missing). */
export function bostonHousingSplit(): BostonHousingSplit {
  cached ??= splitBostonHousing(readSource(resolveSource(SOURCE)));
  return cached;
}

/** The hidden test values of MEDV, by Id. */
export function bostonHousingAnswers(): Table {
  return bostonHousingSplit().answers;
}

/** Grade `<workspaceDir>/submission.csv` against the hidden answers; InvalidSubmissionError when it cannot be graded. */
export function gradeBostonHousingWorkspace(workspaceDir: string): number {
  const submission = readSubmission(workspaceDir);
  try {
    return gradeBostonHousing(submission, bostonHousingAnswers());
  } catch (e) {
    if (e instanceof InvalidSubmissionError) throw new InvalidSubmissionError(`submission.csv is not valid: ${e.message}`);
    throw e;
  }
}

/** Predict Boston house values from tract statistics; scored by mean absolute error on hidden tracts. */
export const bostonHousingTask: ResearchTask = {
  name: "boston-housing",
  statement: STATEMENT,
  metric: "mean absolute error of MEDV on the hidden test tracts (thousands of dollars)",
  direction: "lower",
  filesDir,
  readOnly: ["train.csv", "test.csv", "sample_submission.csv", "data_description.txt"],
  needsDownload: false,
  hiddenSources(): string[] {
    // A missing package hides nothing: preparing the task would already have failed without it.
    try {
      return [resolveSource(SOURCE)];
    } catch {
      return [];
    }
  },
  baseline: loadBaseline(fileURLToPath(new URL(".", import.meta.url))),
  async prepare(workspaceDir: string): Promise<void> {
    const split = bostonHousingSplit();
    copyStarterFiles(filesDir, workspaceDir);
    writePublicFiles(split, workspaceDir);
  },
  async score(workspaceDir: string, runner: TaskRunner): Promise<number> {
    await runTrainScript(workspaceDir, runner, TIMEOUT_MS);
    return gradeBostonHousingWorkspace(workspaceDir);
  },
};
