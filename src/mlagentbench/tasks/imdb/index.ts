import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../../core/errors.js";
import { makeTable } from "../../../core/table.js";
import { writeCsv } from "../../../io/csv-write.js";
import { probabilityAccuracy, readLabels, readSubmission } from "../cifar10/probabilities.js";
import type { ResearchTask, TaskContext } from "../types.js";
import { findFolder, urlResearchTask, type UrlDataset } from "../url-data.js";

const TASK_DIR = fileURLToPath(new URL(".", import.meta.url));
const FILES_DIR = fileURLToPath(new URL("./files/", import.meta.url));

/** Where the answers live under the task's private folder. */
export const ANSWERS = "test_labels.csv";
/** Limit on one run of train.py when scoring, ms. */
const TIMEOUT_MS = 3 * 3600_000;
const POLARITIES = [
  { folder: "neg", label: 0 },
  { folder: "pos", label: 1 },
] as const;

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds the IMDb movie review collection (Maas et al., 2011): data/train.csv has 25,000 reviews (columns text and label, 0 for a negative and 1 for a positive review) and data/test.csv has 25,000 other reviews (columns idx and text) whose labels are withheld. Reviews contain HTML line breaks (<br />). train.py is a first attempt: a bag-of-words model in PyTorch that prints its accuracy on held-out training reviews and writes the probability of each class for every test review to submission.csv. Build a better sentiment classifier, for example by fine-tuning a pretrained transformer such as DistilBERT where the environment provides one, or with better features and models otherwise.

How your work is scored: the evaluator runs train.py and reads the submission.csv it writes. That file needs an index column named idx (the test review's idx from data/test.csv) followed by two columns with the probabilities of classes 0 (negative) and 1 (positive), like the file train.py writes now. The score is the share of test reviews whose more probable class is the true one (accuracy, 0 to 1); higher is better. Everything under data/ is read-only.`;

/** Sort key of a review file that says nothing about its label, so the test order does not give labels away. */
export function reviewOrderKey(relativePath: string): string {
  return createHash("sha256").update(relativePath).digest("hex");
}

interface Review {
  key: string;
  text: string;
  label: number;
}

/** The reviews of one split (`train` or `test`) of an unpacked aclImdb folder, in label-blind order. */
function readSplit(root: string, split: "train" | "test"): Review[] {
  const reviews: Review[] = [];
  for (const { folder, label } of POLARITIES) {
    const dir = path.join(root, split, folder);
    if (!fs.existsSync(dir)) throw new UserError(`aclImdb_v1.tar.gz: aclImdb/${split}/${folder}/ is missing`);
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith(".txt")) continue;
      reviews.push({ key: reviewOrderKey(`${split}/${folder}/${name}`), text: fs.readFileSync(path.join(dir, name), "utf8"), label });
    }
  }
  if (reviews.length === 0) throw new UserError(`aclImdb_v1.tar.gz: aclImdb/${split}/ holds no reviews`);
  return reviews.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The Stanford IMDb archive and how its test labels are kept out of the workspace. */
export const IMDB_DATA: UrlDataset = {
  task: "imdb",
  downloads: [
    {
      url: "https://ai.stanford.edu/~amaas/data/sentiment/aclImdb_v1.tar.gz",
      file: "aclImdb_v1.tar.gz",
      // The SHA-256 TensorFlow Datasets records for this archive (the site itself publishes none).
      sha256: "c40f74a18d3b61f90feba1e17730e0d38e8b97c05fde7008942e91923d1658fe",
    },
  ],
  async build({ extracted, public: pub, private: priv }) {
    const root = findFolder(extracted, "aclImdb", "aclImdb_v1.tar.gz");
    const train = readSplit(root, "train");
    const test = readSplit(root, "test");
    const data = path.join(pub, "data");
    fs.mkdirSync(data, { recursive: true });
    writeCsv(
      path.join(data, "train.csv"),
      makeTable([
        ["text", { kind: "string", values: train.map((r) => r.text) }],
        ["label", { kind: "int", values: Float64Array.from(train, (r) => r.label) }],
      ]),
    );
    const idx = Float64Array.from(test, (_, i) => i);
    writeCsv(path.join(data, "test.csv"), makeTable([["idx", { kind: "int", values: idx }], ["text", { kind: "string", values: test.map((r) => r.text) }]]));
    writeCsv(path.join(priv, ANSWERS), makeTable([["idx", { kind: "int", values: idx }], ["label", { kind: "int", values: Float64Array.from(test, (r) => r.label) }]]));
  },
};

/** Sentiment classification of IMDb reviews (upstream MLAgentBench's "imdb"). */
export const imdbTask: ResearchTask = urlResearchTask({
  name: "imdb",
  statement: STATEMENT,
  metric: "accuracy on the 25,000 IMDb test reviews (0 to 1)",
  direction: "higher",
  taskDir: TASK_DIR,
  filesDir: FILES_DIR,
  // Upstream's data came from a library cache outside the workspace; here it is in data/, kept unchanged the same way.
  readOnly: ["data"],
  data: IMDB_DATA,
  timeoutMs: TIMEOUT_MS,
  score: (workspaceDir, _runner, ctx) => gradeImdb(workspaceDir, ctx),
});

/** Accuracy of the workspace's submission.csv against the prepared IMDb test labels. */
export function gradeImdb(workspaceDir: string, ctx: TaskContext): number {
  const labels = readLabels(path.join(ctx.dataDir, "private", ANSWERS));
  return probabilityAccuracy(readSubmission(workspaceDir), labels, { indexColumn: "idx", classes: 2 });
}
