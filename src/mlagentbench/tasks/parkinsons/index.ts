import { fileURLToPath } from "node:url";
import { InvalidSubmissionError } from "../../../core/errors.js";
import { smapePlusOne } from "../../../metrics/smape.js";
import { alignRows, kaggleResearchTask, numbersAt, range, readAnswers, readSubmissionWithIds, textCells } from "../kaggle-data.js";
import type { TaskContext } from "../types.js";
import { splitParkinsons } from "./split.js";

/** The Kaggle competition the data comes from. */
export const COMPETITION = "amp-parkinsons-disease-progression-prediction";

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds clinical and molecular data of patients with Parkinson's disease (data_description.txt describes it). At each visit a patient's symptoms were rated on the four parts of the MDS-UPDRS scale (updrs_1 to updrs_4; higher is worse), and at many visits a sample of cerebrospinal fluid was analysed: train_peptides.csv holds peptide abundances from mass spectrometry, train_proteins.csv protein expression aggregated from them, train_clinical_data.csv the ratings per visit, and supplemental_clinical_data.csv more ratings without samples. For each test visit, predict the four ratings at that visit and 6, 12 and 24 months later. The test visits are served month by month through the API in public_timeseries_testing_util.py (MockApi), reading example_test_files/, so that a model cannot look ahead; the API writes submission.csv at the end. train.py is a first attempt: per rating and horizon, a random forest on the visit month alone, with its cross-validated score printed. Improve on it, for instance with the protein and peptide data or per-patient trends, checking every idea with grouped cross-validation.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes, with the columns prediction_id (as in example_test_files/sample_submission.csv, e.g. 55_0_updrs_1_plus_6_months) and rating. Every prediction_id of the sample submission needs a non-negative rating. The score is SMAPE of rating + 1 over the forecasts whose visit took place: 100 · mean(|p − t| / ((p + t) / 2 + 1)), from 0 to 200; lower is better. The true future ratings are not in the workspace. The data files and example_test_files/ may not be changed.`;

/** SMAPE+1 of submission.csv's ratings against the answers, matched by prediction_id. */
export function gradeParkinsons(workspaceDir: string, ctx: TaskContext): number {
  const answers = readAnswers(ctx, "answer.csv", ["prediction_id"]);
  const ids = textCells(answers.data.get("prediction_id")!) as string[];
  const submission = readSubmissionWithIds(workspaceDir, ["prediction_id"]);
  const rows = alignRows(submission, "prediction_id", ids);
  const predicted = numbersAt(submission, "rating", rows);
  for (let k = 0; k < rows.length; k++) {
    if (predicted[k] < 0) throw new InvalidSubmissionError(`submission.csv row ${rows[k] + 1}: rating must not be negative, got ${predicted[k]}`);
  }
  return smapePlusOne(numbersAt(answers, "rating", range(0, ids.length), "answer.csv"), predicted);
}

/** Forecast the progression of Parkinson's disease from clinical ratings and protein data. */
export const parkinsonsTask = kaggleResearchTask({
  name: "parkinsons",
  competition: COMPETITION,
  statement: STATEMENT,
  metric: "SMAPE of UPDRS rating + 1 on the held-out patients' forecasts (0 to 200)",
  direction: "lower",
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  readOnly: [
    "example_test_files",
    "supplemental_clinical_data.csv",
    "train_clinical_data.csv",
    "train_peptides.csv",
    "train_proteins.csv",
  ],
  timeoutMs: 1_800_000,
  split: splitParkinsons,
  grade: gradeParkinsons,
});
