import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../../core/errors.js";
import { runProcess } from "../../../sandbox/process.js";
import { PYTHON } from "../runner.js";
import type { ResearchTask, TaskContext } from "../types.js";
import { findFolder, outputTail, urlResearchTask, type UrlDataset } from "../url-data.js";
import { probabilityAccuracy, readLabels, readSubmission } from "./probabilities.js";

const TASK_DIR = fileURLToPath(new URL(".", import.meta.url));
const FILES_DIR = fileURLToPath(new URL("./files/", import.meta.url));
const SPLIT_SCRIPT = fileURLToPath(new URL("./split_test.py", import.meta.url));

/** Where the answers live under the task's private folder. */
export const ANSWERS = "test_labels.csv";
/** The training batches copied unchanged into the workspace. */
export const TRAIN_FILES = ["data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4", "data_batch_5", "batches.meta"];
/** Limit on one run of train.py when scoring, ms. */
const TIMEOUT_MS = 3 * 3600_000;

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds the CIFAR-10 image collection in data/cifar-10-batches-py/: five training batches (data_batch_1 to data_batch_5, 50,000 colour images of 32x32 pixels with their labels, stored as Python pickles), batches.meta with the names of the 10 classes, and test_batch with 10,000 test images whose labels are withheld. train.py trains a small convolutional network for 5 epochs and writes the predicted probability of each class for every test image to submission.csv. Improve the model's accuracy over what train.py currently reaches with its present hyperparameters, while keeping training to at most 10 epochs so a run stays short.

How your work is scored: the evaluator runs train.py and reads the submission.csv it writes. That file must have an index column (the test image's position in test_batch, 0 to 9999) and then 10 columns with the probabilities of classes 0 to 9, like the file train.py writes now. The score is the share of test images whose most probable class is the true one (accuracy, 0 to 1); higher is better. Everything under data/ is read-only.`;

/** The CIFAR-10 download and how its test labels are kept out of the workspace. */
export const CIFAR10_DATA: UrlDataset = {
  task: "cifar10",
  downloads: [
    {
      url: "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz",
      file: "cifar-10-python.tar.gz",
      // The MD5 the dataset's page publishes (torchvision checks the same value).
      md5: "c58f30108f718f92721af3b95e74349a",
    },
  ],
  async build({ extracted, public: pub, private: priv }) {
    const source = findFolder(extracted, "cifar-10-batches-py", "cifar-10-python.tar.gz");
    const target = path.join(pub, "data", "cifar-10-batches-py");
    fs.mkdirSync(target, { recursive: true });
    for (const name of TRAIN_FILES) {
      const file = path.join(source, name);
      if (!fs.existsSync(file)) throw new UserError(`cifar-10-python.tar.gz: cifar-10-batches-py/${name} is missing`);
      fs.copyFileSync(file, path.join(target, name));
    }
    const run = await runProcess([PYTHON, SPLIT_SCRIPT, source, target, path.join(priv, ANSWERS)], {
      env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
      timeoutMs: 600_000,
    });
    if (run.exitCode !== 0) throw new UserError(`Cannot split CIFAR-10's test batch: ${outputTail(run.stderr || run.stdout)}`);
  },
};

/** Improve a CNN on CIFAR-10 (upstream MLAgentBench's "cifar10"). */
export const cifar10Task: ResearchTask = urlResearchTask({
  name: "cifar10",
  statement: STATEMENT,
  metric: "accuracy on the 10,000 CIFAR-10 test images (0 to 1)",
  direction: "higher",
  taskDir: TASK_DIR,
  filesDir: FILES_DIR,
  readOnly: ["data"],
  data: CIFAR10_DATA,
  timeoutMs: TIMEOUT_MS,
  score: (workspaceDir, _runner, ctx) => gradeCifar10(workspaceDir, ctx),
});

/** Accuracy of the workspace's submission.csv against the prepared CIFAR-10 test labels. */
export function gradeCifar10(workspaceDir: string, ctx: TaskContext): number {
  const labels = readLabels(path.join(ctx.dataDir, "private", ANSWERS));
  return probabilityAccuracy(readSubmission(workspaceDir), labels, { indexColumn: null, classes: 10 });
}
