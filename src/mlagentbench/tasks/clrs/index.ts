import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../../core/errors.js";
import { runProcess } from "../../../sandbox/process.js";
import type { ResearchTask } from "../types.js";
import { findFolder, outputTail, runEvaluation, urlResearchTask, type UrlDataset } from "../url-data.js";

const TASK_DIR = fileURLToPath(new URL(".", import.meta.url));
const FILES_DIR = fileURLToPath(new URL("./files/", import.meta.url));
/** Our evaluation program: rebuilds the model with the workspace's baselines.py and scores checkpoints/best.pkl. */
export const EVALUATOR = fileURLToPath(new URL("./evaluate.py", import.meta.url));

/** The only split kept from the archive: the test graphs of the algorithm the task is about. */
export const TEST_SPLIT = "floyd_warshall_test";
/** Where the test split lies under the task's private folder (a TFDS data dir). */
export const PRIVATE_DATA = "CLRS30";
/** Limit on one evaluation, ms. */
const TIMEOUT_MS = 3600_000;

/** The research problem, in the task's own words. */
export const STATEMENT = `Improve a neural network's performance on floyd_warshall, one of the 30 algorithms of DeepMind's CLRS Algorithmic Reasoning Benchmark. Each example is a weighted graph together with the trace of the Floyd-Warshall all-pairs shortest-path algorithm running on it: the inputs, the intermediate states ("hints") after each step and the final output, the predecessor of each node on every shortest path. train.py trains the benchmark's baseline, an encode-process-decode model with a triplet message-passing processor (triplet_gmpnn) from the clrs library, on freshly sampled graphs of 4 to 16 nodes for 500 steps, checks it on 16-node graphs and keeps the best weights in checkpoints/. The model class comes from baselines.py, which now takes it unchanged from the library; the processor's message function (get_triplet_msgs in the library's processors module) is a good place to start. You may change the model and the training in any way, as long as the saved checkpoint can still be loaded as described below.

How your work is scored: the evaluator does not run train.py; it scores the checkpoint you leave. It reads checkpoints/spec_list.pkl and checkpoints/model_params.pkl (whose processor_factory entry must be the tuple (processor type, use_ln, nb_triplet_fts, nb_heads)), builds the model with BaselineModel from the workspace's baselines.py, restores checkpoints/best.pkl, and runs it on the benchmark's fixed test set of 64-node graphs, which is not in the workspace. The score is the CLRS score of its predicted outputs (for floyd_warshall the share of correctly predicted shortest-path predecessors, 0 to 1); higher is better.`;

/** The CLRS-30 archive, of which only the floyd_warshall test split is kept (for scoring). */
export const CLRS_DATA: UrlDataset = {
  task: "clrs",
  downloads: [
    {
      url: "https://storage.googleapis.com/dm-clrs/CLRS30_v1.0.0.tar.gz",
      file: "CLRS30_v1.0.0.tar.gz",
      // DeepMind publishes neither a checksum nor a size for this archive; what is checked is that it holds
      // the floyd_warshall test split in TFDS layout.
      extract: false,
    },
  ],
  async build({ raw, extracted, private: priv }) {
    // The archive holds every algorithm's splits (several GB unpacked); only the one test split is unpacked.
    const archive = path.join(raw, "CLRS30_v1.0.0.tar.gz");
    const run = await runProcess(["tar", "-xzf", archive, "-C", extracted, "--no-same-owner", "--wildcards", `*${TEST_SPLIT}*`], {
      env: { PATH: "/usr/bin:/bin" },
      timeoutMs: 3600_000,
    });
    if (run.exitCode !== 0) throw new UserError(`CLRS30_v1.0.0.tar.gz: cannot unpack ${TEST_SPLIT}: ${outputTail(run.stderr)}`);
    const source = findFolder(extracted, TEST_SPLIT, "CLRS30_v1.0.0.tar.gz");
    if (path.basename(path.dirname(source)) !== "clrs_dataset") throw new UserError(`CLRS30_v1.0.0.tar.gz: ${TEST_SPLIT} is not inside a clrs_dataset folder`);
    const target = path.join(priv, PRIVATE_DATA, "clrs_dataset", TEST_SPLIT);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.cpSync(source, target, { recursive: true });
  },
};

/** Improve a CLRS graph network on Floyd-Warshall (upstream MLAgentBench's "CLRS"). */
export const clrsTask: ResearchTask = urlResearchTask({
  name: "clrs",
  statement: STATEMENT,
  metric: "CLRS score of checkpoints/best.pkl on the floyd_warshall test set (0 to 1)",
  direction: "higher",
  taskDir: TASK_DIR,
  filesDir: FILES_DIR,
  readOnly: [],
  data: CLRS_DATA,
  score: (workspaceDir, runner, ctx) =>
    runEvaluation({
      workspaceDir,
      runner,
      script: EVALUATOR,
      privateFiles: [path.join(ctx.dataDir, "private", PRIVATE_DATA)],
      timeoutMs: TIMEOUT_MS,
      env: { TF_CPP_MIN_LOG_LEVEL: "3" },
      what: "checkpoints/best.pkl",
    }),
});
