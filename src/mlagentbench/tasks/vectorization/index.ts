import { fileURLToPath } from "node:url";
import { copyStarterFiles, loadBaseline } from "../starter.js";
import type { ResearchTask } from "../types.js";
import { evaluateVectorization } from "./evaluate.js";

const TASK_DIR = fileURLToPath(new URL(".", import.meta.url));
const FILES_DIR = fileURLToPath(new URL("./files/", import.meta.url));

/** The research problem, in the task's own words. */
export const STATEMENT = `train.py implements a 2-D convolution layer (the class Conv2DLayer) with numpy, but its forward pass visits every image, output position and filter in nested Python loops, so it is slow. Run the script first to see how long one forward pass takes now: it times a pass over a batch of 32 random 64x64 images with 3 channels through 8 filters of size 3x3 with stride 2, padding 2 and a ReLU, and writes the time to submission.csv. Then make the forward function as fast as you can by vectorising its computation with numpy alone (no scipy, numba, torch or other numerical libraries). Study the whole script to find every part of the work that can be done with array operations instead of loops.

How your work is scored: the evaluator imports train.py, builds Conv2DLayer(3, 8, 3, 2, 2, 'relu'), sets its kernel_matrices (shape [3, 3, 3, 8]) and biases (shape [1, 1, 1, 8]) to its own values, and times forward() on several fresh random batches of shape [32, 64, 64, 3] with numpy limited to one thread. The score is the median time of one forward pass in seconds; lower is better. Every output must have shape [32, 33, 33, 8] and equal the true convolution to within 1e-4; a wrong output is not scored, however fast it is. So keep the class name, its constructor arguments, the kernel_matrices and biases attributes and the forward() method.`;

/** Speed up a numpy convolution layer's forward pass (upstream MLAgentBench's "vectorization"). */
export const vectorizationTask: ResearchTask = {
  name: "vectorization",
  statement: STATEMENT,
  metric: "median run time of Conv2DLayer.forward on a [32, 64, 64, 3] batch, seconds",
  direction: "lower",
  filesDir: FILES_DIR,
  readOnly: [],
  needsDownload: false,
  machineDependent: true,
  hiddenSources: () => [],
  baseline: loadBaseline(TASK_DIR),
  async prepare(workspaceDir: string): Promise<void> {
    copyStarterFiles(FILES_DIR, workspaceDir);
  },
  async score(workspaceDir, runner) {
    return (await evaluateVectorization(workspaceDir, runner)).score;
  },
};
