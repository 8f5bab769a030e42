import { fileURLToPath } from "node:url";
import { mcrmse } from "../../../metrics/mcrmse.js";
import { alignRows, kaggleResearchTask, numbersAt, range, readAnswers, readSubmissionWithIds, splitTrainFile, textCells } from "../kaggle-data.js";
import type { TaskContext } from "../types.js";

/** The Kaggle competition the data comes from. */
export const COMPETITION = "feedback-prize-english-language-learning";

/** The six scored measures of writing proficiency, in the order submissions list them. */
export const DIMENSIONS = ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"] as const;

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds argumentative essays written by English language learners in grades 8 to 12 (data_description.txt describes them). train.csv has one row per essay: its id (text_id), its text (full_text) and six scores of writing proficiency, each from 1.0 to 5.0 in steps of 0.5: cohesion, syntax, vocabulary, phraseology, grammar and conventions. test.csv lists other essays with text_id and full_text only. train.py is a first attempt: a ridge regression on TF-IDF word features that prints its error on a held-out part of train.csv and writes predictions for test.csv to submission.csv. Improve on it: better text features, other regressors, or a fine-tuned language model if one is available offline, checking every idea on held-out data.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes. That file needs a header row and one row per essay of test.csv, with the columns text_id, cohesion, syntax, vocabulary, phraseology, grammar and conventions. The score is MCRMSE: the root mean squared error of each of the six measures over the test essays, averaged over the six; lower is better. The true scores of the test essays are not in the workspace. train.csv and test.csv may not be changed.`;

/** Upstream's split: shuffle Kaggle's train.csv (seed 42), the first 98% train, the rest the test set. */
export function splitFeedback(raw: string, pub: string, priv: string): void {
  splitTrainFile(raw, pub, priv, {
    shuffleSeed: 42,
    trainFraction: 0.98,
    answerColumns: ["text_id", ...DIMENSIONS],
    hiddenColumns: [...DIMENSIONS],
  });
}

/** MCRMSE of submission.csv's six measures against the answers, matched by text_id. */
export function gradeFeedback(workspaceDir: string, ctx: TaskContext): number {
  const answers = readAnswers(ctx, "answer.csv", ["text_id"]);
  const ids = textCells(answers.data.get("text_id")!) as string[];
  const submission = readSubmissionWithIds(workspaceDir, ["text_id"]);
  const rows = alignRows(submission, "text_id", ids);
  const all = range(0, ids.length);
  return mcrmse(
    DIMENSIONS.map((d) => numbersAt(answers, d, all, "answer.csv")),
    DIMENSIONS.map((d) => numbersAt(submission, d, rows)),
  );
}

/** Score the writing proficiency of English language learners' essays. */
export const feedbackTask = kaggleResearchTask({
  name: "feedback",
  competition: COMPETITION,
  statement: STATEMENT,
  metric: "MCRMSE of the six proficiency scores on the held-out essays (mean of per-measure RMSEs)",
  direction: "lower",
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  readOnly: ["train.csv", "test.csv"],
  timeoutMs: 1_800_000,
  split: splitFeedback,
  grade: gradeFeedback,
});
