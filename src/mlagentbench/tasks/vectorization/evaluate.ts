import { randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InvalidSubmissionError } from "../../../core/errors.js";
import { RandomState } from "../../../rng/random-state.js";
import { makeEvalDir } from "../eval-io.js";
import { parseNpy, writeNpy, type Float64Tensor } from "../npy.js";
import { PYTHON } from "../runner.js";
import type { TaskRunner } from "../types.js";

/** The Python program that imports the workspace's train.py and times its forward passes (fed on stdin, never put in the workspace). */
export const HARNESS = fileURLToPath(new URL("./evaluate.py", import.meta.url));

/** The layer the harness builds: Conv2DLayer(3, 8, 3, 2, 2, "relu"), as in the starter's main block. */
export const LAYER = { inputChannels: 3, filters: 8, kernelSize: 3, stride: 2, padding: 2 } as const;
/** Shape of each batch the harness times forward() on: [batch, height, width, channels]. */
export const BATCH_SHAPE = [32, 64, 64, 3];
/** Shape forward() must return for such a batch. */
export const OUTPUT_SHAPE = [32, 33, 33, 8];
/** An output value passes when |got - want| <= TOLERANCE * (1 + |want|). */
export const TOLERANCE = 1e-4;

/** How the evaluation runs; the defaults are what `score` uses. */
export interface VectorizationOptions {
  /** Forward passes timed at most (each on a fresh batch). */
  runs?: number;
  /** Stop timing further passes once the timed passes add up to this many seconds. */
  budgetS?: number;
  /** Limit for the whole harness process, ms. */
  timeoutMs?: number;
  /** Seed of the batches and weights; random by default, so outputs cannot be prepared in advance. */
  seed?: number;
}

/** The measured result of one evaluation. */
export interface VectorizationResult {
  /** Median forward-pass time, seconds. */
  score: number;
  /** Every timed forward pass, seconds. */
  times: number[];
  seed: number;
  python: string;
  numpy: string;
}

const DEFAULTS = { runs: 5, budgetS: 10, timeoutMs: 300_000 } as const;

/** A float64 tensor of standard normal values drawn from `rng`. */
function normalTensor(rng: RandomState, shape: number[]): Float64Tensor {
  return { shape, data: Float64Array.from(rng.standardNormal(shape)) };
}

/** The convolution the task asks for, computed independently of the agent's code: zero padding, stride, bias, ReLU. */
export function referenceForward(batch: Float64Tensor, kernel: Float64Tensor, bias: Float64Tensor): Float64Tensor {
  const [count, height, width, channels] = batch.shape;
  const [size, , , filters] = kernel.shape;
  const { stride, padding } = LAYER;
  const outHeight = Math.floor((height + 2 * padding - size) / stride) + 1;
  const outWidth = Math.floor((width + 2 * padding - size) / stride) + 1;
  const out = new Float64Array(count * outHeight * outWidth * filters);
  const x = batch.data;
  const k = kernel.data;
  for (let n = 0; n < count; n++) {
    for (let row = 0; row < outHeight; row++) {
      for (let col = 0; col < outWidth; col++) {
        const base = ((n * outHeight + row) * outWidth + col) * filters;
        for (let f = 0; f < filters; f++) out[base + f] = bias.data[f];
        for (let i = 0; i < size; i++) {
          const y = row * stride + i - padding;
          if (y < 0 || y >= height) continue; // padding rows contribute zeros
          for (let j = 0; j < size; j++) {
            const xx = col * stride + j - padding;
            if (xx < 0 || xx >= width) continue;
            for (let c = 0; c < channels; c++) {
              const value = x[((n * height + y) * width + xx) * channels + c];
              const kBase = ((i * size + j) * channels + c) * filters;
              for (let f = 0; f < filters; f++) out[base + f] += value * k[kBase + f];
            }
          }
        }
        for (let f = 0; f < filters; f++) if (out[base + f] < 0) out[base + f] = 0;
      }
    }
  }
  return { shape: [count, outHeight, outWidth, filters], data: out };
}

/** Null when `got` matches `want` within TOLERANCE; otherwise a message naming the first wrong value and how many are wrong. */
export function compareOutputs(got: Float64Tensor, want: Float64Tensor): string | null {
  if (got.shape.join() !== want.shape.join()) return `the output has shape (${got.shape.join(", ")}); expected (${want.shape.join(", ")})`;
  let wrong = 0;
  let first = -1;
  let maxError = 0;
  for (let i = 0; i < want.data.length; i++) {
    const error = Math.abs(got.data[i] - want.data[i]);
    if (!(error <= TOLERANCE * (1 + Math.abs(want.data[i])))) {
      wrong++;
      if (first < 0) first = i;
      maxError = Number.isNaN(error) || Number.isNaN(maxError) ? NaN : Math.max(maxError, error);
    }
  }
  if (wrong === 0) return null;
  const index: number[] = [];
  let rest = first;
  for (let d = want.shape.length - 1; d >= 0; d--) {
    index.unshift(rest % want.shape[d]);
    rest = Math.floor(rest / want.shape[d]);
  }
  return (
    `at [${index.join(", ")}] it is ${got.data[first]} but the reference convolution gives ${want.data[first]}; ` +
    `${wrong} of ${want.data.length} values are off by more than ${TOLERANCE} (relative and absolute), the largest error being ${maxError}`
  );
}

/** The last lines of a process's output, for error messages. */
function tail(text: string, lines = 15): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

/**
 * Time the workspace's Conv2DLayer.forward on fresh random batches (single-threaded BLAS) and check every
 * output against `referenceForward`; throws InvalidSubmissionError when the solution fails, is wrong or is too slow.
 */
export async function evaluateVectorization(workspaceDir: string, runner: TaskRunner, options: VectorizationOptions = {}): Promise<VectorizationResult> {
  const runs = options.runs ?? DEFAULTS.runs;
  const budgetS = options.budgetS ?? DEFAULTS.budgetS;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const seed = options.seed ?? randomInt(2 ** 31);
  if (!fs.existsSync(path.join(workspaceDir, "train.py"))) throw new InvalidSubmissionError("train.py is missing from the workspace");

  const rng = new RandomState(seed);
  const kernel = normalTensor(rng, [LAYER.kernelSize, LAYER.kernelSize, LAYER.inputChannels, LAYER.filters]);
  const bias = normalTensor(rng, [1, 1, 1, LAYER.filters]);
  const io = makeEvalDir(workspaceDir, ".vectorization-eval");
  const ioName = io.name;
  const ioDir = io.path;
  const what = "train.py";
  try {
    writeNpy(path.join(ioDir, "kernel.npy"), kernel);
    writeNpy(path.join(ioDir, "bias.npy"), bias);
    const batches: Float64Tensor[] = [];
    for (let i = 0; i < runs; i++) {
      batches.push(normalTensor(rng, BATCH_SHAPE));
      writeNpy(path.join(ioDir, `input_${i}.npy`), batches[i]);
    }

    const result = await runner({
      argv: [PYTHON, "-", ioName, String(runs), String(budgetS)],
      input: fs.readFileSync(HARNESS, "utf8"),
      timeoutMs,
      outputLimit: 64 * 1024,
      // One thread, so the time measures the code rather than the number of cores the machine lends it.
      env: { OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1", MKL_NUM_THREADS: "1", PYTHONDONTWRITEBYTECODE: "1" },
    });
    if (result.timedOut) throw new InvalidSubmissionError(`train.py cannot be scored: timing its forward passes did not finish within ${timeoutMs / 1000} s`);
    if (!io.has("report.json")) {
      const output = tail(`${result.stdout}\n${result.stderr}`);
      throw new InvalidSubmissionError(`train.py cannot be scored: the evaluation ended (exit code ${result.exitCode}) without a result.${output ? `\nLast output:\n${output}` : ""}`);
    }
    let report: { error?: string; times?: number[]; python?: string; numpy?: string };
    try {
      report = JSON.parse(io.read("report.json", 1 << 20, what).toString("utf8")) as typeof report;
    } catch (e) {
      if (e instanceof InvalidSubmissionError) throw e;
      throw new InvalidSubmissionError(`train.py cannot be scored: the evaluation's report.json is not JSON (${(e as Error).message})`);
    }
    if (report.error !== undefined) throw new InvalidSubmissionError(`train.py cannot be scored: ${report.error}`);
    const times = report.times ?? [];
    if (times.length === 0 || !times.every((t) => Number.isFinite(t) && t >= 0)) throw new InvalidSubmissionError("train.py cannot be scored: the harness reported no valid timings");

    for (let i = 0; i < times.length; i++) {
      const expected = referenceForward(batches[i], kernel, bias);
      const name = `output_${i}.npy`;
      const problem = compareOutputs(parseNpy(io.read(name, 1024 + expected.data.length * 8, what), name), expected);
      if (problem !== null) {
        throw new InvalidSubmissionError(`forward() gives a wrong result for test batch ${i + 1}: ${problem}. A fast forward pass counts only when its output is correct.`);
      }
    }
    return { score: median(times), times, seed, python: report.python ?? "unknown", numpy: report.numpy ?? "unknown" };
  } finally {
    io.remove();
  }
}

/** The middle value (mean of the two middle values for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
