import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidSubmissionError, UserError } from "../../src/core/errors.js";
import { readNpy, writeNpy } from "../../src/mlagentbench/tasks/npy.js";
import { getTask, loadTasks, taskNames } from "../../src/mlagentbench/tasks/registry.js";
import { KAGGLE_TASKS } from "../../src/mlagentbench/tasks/kaggle-tasks.js";
import { OFFLINE_TASKS } from "../../src/mlagentbench/tasks/offline-tasks.js";
import { URL_TASKS } from "../../src/mlagentbench/tasks/url-tasks.js";
import { hostRunner, sandboxRunner } from "../../src/mlagentbench/tasks/runner.js";
import { evaluateVectorization, median } from "../../src/mlagentbench/tasks/vectorization/evaluate.js";
import { localBackend } from "../../src/sandbox/local.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { tempDir } from "../helpers/data-dir.js";

/** Tasks without downloads keep nothing in their data folder. */
const CTX = { dataDir: tempDir("mlab-data-") };

/** A vectorised forward pass: all windows gathered with stride tricks, then one tensordot with the filters. */
const VECTORISED = `import numpy as np


class Conv2DLayer:
    def __init__(self, input_channels, num_filters, kernel_size, stride, padding, activation="relu"):
        self.kernel_matrices = np.random.randn(kernel_size, kernel_size, input_channels, num_filters)
        self.biases = np.random.randn(1, 1, 1, num_filters)
        self.stride = stride
        self.padding = padding
        self.activation = activation

    def forward(self, batch):
        p, s = self.padding, self.stride
        k = self.kernel_matrices.shape[0]
        padded = np.pad(batch, ((0, 0), (p, p), (p, p), (0, 0)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(1, 2))[:, ::s, ::s]
        out = np.tensordot(windows, self.kernel_matrices, axes=([4, 5, 3], [0, 1, 2])) + self.biases
        return np.maximum(out, 0.0) if self.activation == "relu" else out
`;

/** Fast, right shape, but it forgets the ReLU. */
const NO_RELU = VECTORISED.replace('np.maximum(out, 0.0) if self.activation == "relu" else out', "out");

const task = (await getTask("vectorization"));

/** A fresh workspace prepared by the task, with train.py replaced when `code` is given. */
async function workspace(code?: string): Promise<string> {
  const dir = path.join(tempDir("mlab-task-"), "workspace");
  await task.prepare(dir, CTX);
  if (code !== undefined) fs.writeFileSync(path.join(dir, "train.py"), code);
  return dir;
}

describe("research task registry", () => {
  it("lists vectorization and refuses unknown names with the known ones", async () => {
    expect(taskNames()).toContain("vectorization");
    await expect(getTask("no-such-task")).rejects.toThrow(UserError);
    await expect(getTask("no-such-task")).rejects.toThrow(/Known tasks: .*vectorization/);
  });

  it("imports each task by the name it is listed under, every one in list order", async () => {
    const tasks = await loadTasks();
    expect(tasks.map((t) => t.name)).toEqual(taskNames());
    expect(taskNames()).toEqual([...OFFLINE_TASKS, ...KAGGLE_TASKS, ...URL_TASKS].map((t) => t.name));
    for (const t of tasks) expect(await getTask(t.name)).toBe(t);
  });

  it("describes vectorization: lower is better, no download, a recorded baseline from a real run", () => {
    expect(task.direction).toBe("lower");
    expect(task.needsDownload).toBe(false);
    expect(task.statement).toMatch(/Conv2DLayer/);
    expect(task.baseline).not.toBeNull();
    expect(task.baseline!.score).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(task.baseline!.measuredAt))).toBe(false);
    expect(task.baseline!.machine).toMatch(/CPUs.*Python.*numpy/);
  });
});

describe("npy files", () => {
  it("round-trips through numpy", async () => {
    const dir = tempDir("mlab-npy-");
    writeNpy(path.join(dir, "a.npy"), { shape: [2, 3], data: Float64Array.from([1, -2.5, 3, 4, 5e-300, 6]) });
    const run = await hostRunner(dir)({
      argv: ["/usr/bin/python3", "-c", "import numpy as np; a = np.load('a.npy'); assert a.shape == (2, 3), a.shape; np.save('b.npy', a * 2)"],
      timeoutMs: 60_000,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readNpy(path.join(dir, "b.npy"))).toEqual({ shape: [2, 3], data: Float64Array.from([2, -5, 6, 8, 1e-299, 12]) });
  });
});

describe("vectorization task", () => {
  it("prepare copies the starter files into a new workspace", async () => {
    const dir = await workspace();
    expect(fs.readdirSync(dir).sort()).toEqual(["train.py"]);
    expect(fs.readFileSync(path.join(dir, "train.py"), "utf8")).toBe(fs.readFileSync(path.join(task.filesDir, "train.py"), "utf8"));
  });

  it("scores the starter near its recorded baseline, and a vectorised forward pass at least 3x faster", async () => {
    const slow = await workspace();
    const result = await evaluateVectorization(slow, hostRunner(slow), { runs: 3 });
    const starter = result.score;
    expect(Number.isFinite(starter)).toBe(true);
    expect(result.times.length).toBeGreaterThanOrEqual(1);
    // Machines differ; the same order of magnitude is what a recorded baseline promises.
    expect(starter).toBeGreaterThan(task.baseline!.score / 10);
    expect(starter).toBeLessThan(task.baseline!.score * 10);
    expect(fs.readdirSync(slow)).toEqual(["train.py"]);

    const fast = await workspace(VECTORISED);
    const score = await task.score(fast, hostRunner(fast), CTX);
    expect(score).toBeGreaterThan(0);
    expect(starter / score).toBeGreaterThanOrEqual(3);
  });

  it("rejects a fast but wrong forward pass, saying where it is wrong", async () => {
    const dir = await workspace(NO_RELU);
    const scored = task.score(dir, hostRunner(dir), CTX);
    await expect(scored).rejects.toThrow(InvalidSubmissionError);
    await expect(evaluateVectorization(dir, hostRunner(dir), { runs: 1, seed: 3 })).rejects.toThrow(
      /forward\(\) gives a wrong result for test batch 1: at \[\d+, \d+, \d+, \d+\] it is -[\d.e-]+ but the reference convolution gives 0; \d+ of 278784 values are off/,
    );
  });

  it("rejects outputs of the wrong shape, crashes, missing classes and other libraries with the reason", async () => {
    const cases: [string, RegExp][] = [
      [VECTORISED.replace("[:, ::s, ::s]", ""), /forward\(\) returned shape \(32, 66, 66, 8\); expected \(32, 33, 33, 8\)/],
      [VECTORISED.replace("p, s = self.padding, self.stride", "raise RuntimeError('boom')"), /forward\(\) raised an exception:[\s\S]*RuntimeError: boom/],
      ["import numpy as np\n", /train.py does not define the class Conv2DLayer/],
      ["def broken(:\n", /importing train.py failed:[\s\S]*SyntaxError/],
      ["import scipy.signal\n" + VECTORISED, /train.py uses scipy; the forward pass must be vectorised with numpy alone/],
      ["import os\nos._exit(3)\n", /the evaluation ended \(exit code 3\) without a result/],
    ];
    for (const [code, message] of cases) {
      const dir = await workspace(code);
      await expect(evaluateVectorization(dir, hostRunner(dir), { runs: 1 })).rejects.toThrow(message);
      expect(fs.readdirSync(dir)).toEqual(["train.py"]);
    }
  });

  it("stops a solution that runs past the time limit", async () => {
    const dir = await workspace("import time\ntime.sleep(60)\n");
    await expect(evaluateVectorization(dir, hostRunner(dir), { runs: 1, timeoutMs: 2000 })).rejects.toThrow(/did not finish within 2 s/);
  });

  describe("through a sandbox", () => {
    let sandbox: Sandbox;
    let root: string;
    beforeAll(async () => {
      root = tempDir("mlab-task-sandbox-");
      const dirs = Object.fromEntries(["submission", "code", "logs", "workspace", "agent", "data"].map((d) => [d, path.join(root, d)]));
      for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
      sandbox = await localBackend.create({
        id: `mlab-task-${path.basename(root)}`,
        dataDir: dirs.data,
        writable: { submission: dirs.submission, code: dirs.code, logs: dirs.logs, workspace: dirs.workspace, agent: dirs.agent },
        files: {},
        sockets: [],
        env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
        limits: { wallMs: null, memoryBytes: null, pids: null, cpus: null, diskBytes: null, tmpBytes: null, outputBytes: 10 << 20 },
        gpus: [],
        network: "none",
      });
    });
    afterAll(() => sandbox.close());

    it("scores a workspace with the sandbox's runner", async () => {
      const dir = path.join(root, "workspace");
      await task.prepare(dir, CTX);
      fs.writeFileSync(path.join(dir, "train.py"), VECTORISED);
      const result = await evaluateVectorization(dir, sandboxRunner(sandbox), { runs: 2, seed: 11 });
      expect(result.times).toHaveLength(2);
      expect(result.seed).toBe(11);
      expect(result.score).toBe(median(result.times));
    });
  });
});

describe("median", () => {
  it("takes the middle value, or the mean of the two middle values", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
