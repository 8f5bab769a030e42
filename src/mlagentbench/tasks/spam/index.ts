import { fileURLToPath } from "node:url";
import { competition } from "../../../competitions/spam-assassin/index.js";
import { offlineResearchTask } from "../starter.js";

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds e-mails from the SpamAssassin public corpus, each the full raw message with headers and body. train.csv has the columns id, text and label (1 for spam, 0 for legitimate mail); test.csv has id and text only. train.py is a first attempt: it turns the texts into TF-IDF word features, fits a logistic regression, prints its ROC AUC on a held-out part of train.csv and writes a spam score for every message of test.csv to submission.csv. Improve on it: the headers, the structure of the message (HTML, attachments, links) and other features or models may all help; check each idea on held-out data.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes. That file needs a header row and one row per message of test.csv, with the columns id and label, where label is a number that is larger the more likely the message is spam (a probability is fine). The score is the ROC AUC of these numbers against the true labels (from 0 to 1); higher is better. ROC AUC is used rather than accuracy because it judges how well spam is ranked above legitimate mail at every threshold, so it does not depend on where a cut-off is placed and still separates strong solutions when nearly every message is classified correctly. The true labels for test.csv are not in the workspace. train.csv, test.csv and sample_submission.csv may not be changed.`;

/** Tell spam from legitimate mail in the offline spam-assassin competition's split. */
export const spamTask = offlineResearchTask({
  name: "spam",
  statement: STATEMENT,
  metric: "ROC AUC of the spam scores on the hidden test messages (0 to 1)",
  competition,
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  timeoutMs: 600_000,
  // The starter is within a few points of a perfect score: a 10% higher score is out of reach, a 10%
  // smaller error takes real work.
  improvementOf: "error",
});
