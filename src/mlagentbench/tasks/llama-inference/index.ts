import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InvalidSubmissionError, UserError } from "../../../core/errors.js";
import { PYTHON } from "../runner.js";
import type { ResearchTask, TaskRunner } from "../types.js";
import { findFolder, outputTail, urlResearchTask, type DownloadSpec, type UrlDataset } from "../url-data.js";

const TASK_DIR = fileURLToPath(new URL(".", import.meta.url));
const FILES_DIR = fileURLToPath(new URL("./files/", import.meta.url));
const SCRIPT = "inference.py";
/** Limit on one run of inference.py, ms. */
const TIMEOUT_MS = 3600_000;
/** The lines that open and close the part of inference.py that must not change. */
export const PROTECTED_START = "#### DO NOT EDIT ######";
export const PROTECTED_END = "#################";
/** What inference.py prints; the number after it is the score. */
export const RESULT_LINE = /^Average per token generation time:\s*([0-9.eE+-]+)\s*$/m;

/** The model: LLaMA 7B converted for transformers (the copy the benchmark named is gone from the hub; this one has the same weights). */
const MODEL_REPO = "https://huggingface.co/huggyllama/llama-7b/resolve/main";
// The hub shows each file's SHA-256 on its page, but none is recorded here, so these files are checked by
// transformers loading them, not by a checksum.
const MODEL_FILES = [
  "config.json",
  "generation_config.json",
  "special_tokens_map.json",
  "tokenizer_config.json",
  "tokenizer.model",
  "pytorch_model.bin.index.json",
  "pytorch_model-00001-of-00002.bin",
  "pytorch_model-00002-of-00002.bin",
];

/** The research problem, in the task's own words. */
export const STATEMENT = `inference.py loads a 7-billion-parameter LLaMA language model (in model/) onto one GPU and times how long it takes to generate one token after a 128-token context, in batches of 4, over 100 batches of WikiText-103 test text (wikitext-103/wiki.test.tokens); it prints the average time per batch as "Average per token generation time: <seconds>". Run it first to see the current speed, then make generation as fast as you can, for example with Hugging Face accelerate, half precision, better batching or other inference optimisations. Before you settle on an answer, ask yourself whether there is any other way to make it faster.

How your work is scored: the evaluator runs inference.py on a single GPU and reads the last "Average per token generation time:" line it prints; the score is that number of seconds, and lower is better. The part of inference.py between the "${PROTECTED_START}" and "${PROTECTED_END}" lines (the model, the data, the context and generation lengths) must stay exactly as it is, and the printed time must measure the generation it reports; a script whose protected part was changed is not scored. model/ and wikitext-103/ are read-only.`;

/** A file of the model repository on the hub, downloaded as it is. */
function hubFile(file: string): DownloadSpec {
  return { url: `${MODEL_REPO}/${file}`, file, extract: false };
}

/** Link `from` to `to` (same file system: no second copy of 13 GB), or copy it where links are not possible. */
function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

/** The model files and the WikiText-103 test text; nothing is private. */
export const LLAMA_INFERENCE_DATA: UrlDataset = {
  task: "llama-inference",
  downloads: [
    {
      url: "https://s3.amazonaws.com/research.metamind.io/wikitext/wikitext-103-v1.zip",
      file: "wikitext-103-v1.zip",
      // The SHA-1 GluonNLP records for this archive.
      sha1: "0aec09a7537b58d4bb65362fee27650eeaba625a",
    },
    ...MODEL_FILES.map(hubFile),
  ],
  async build({ raw, extracted, public: pub }) {
    const wikitext = findFolder(extracted, "wikitext-103", "wikitext-103-v1.zip");
    const test = path.join(wikitext, "wiki.test.tokens");
    if (!fs.existsSync(test)) throw new UserError("wikitext-103-v1.zip: wikitext-103/wiki.test.tokens is missing");
    fs.mkdirSync(path.join(pub, "wikitext-103"), { recursive: true });
    fs.copyFileSync(test, path.join(pub, "wikitext-103", "wiki.test.tokens"));
    const model = path.join(pub, "model");
    fs.mkdirSync(model, { recursive: true });
    for (const spec of this.downloads) {
      if (spec.extract === false) linkOrCopy(path.join(raw, spec.file), path.join(model, spec.file));
    }
  },
};

/** The protected block of an inference.py, or null when its markers are missing. */
export function protectedBlock(source: string): string | null {
  const lines = source.split("\n").map((l) => l.trimEnd());
  const start = lines.indexOf(PROTECTED_START);
  const end = lines.indexOf(PROTECTED_END, start + 1);
  if (start < 0 || end < 0) return null;
  return lines.slice(start, end + 1).join("\n");
}

/** Run the workspace's inference.py and return the time it reports, after checking its protected block. */
export async function measureInference(workspaceDir: string, runner: TaskRunner): Promise<number> {
  const file = path.join(workspaceDir, SCRIPT);
  if (!fs.existsSync(file)) throw new InvalidSubmissionError(`${SCRIPT} is missing from the workspace`);
  const expected = protectedBlock(fs.readFileSync(path.join(FILES_DIR, SCRIPT), "utf8"));
  const actual = protectedBlock(fs.readFileSync(file, "utf8"));
  if (actual === null) throw new InvalidSubmissionError(`${SCRIPT} no longer has its "${PROTECTED_START}" ... "${PROTECTED_END}" block`);
  if (actual !== expected) throw new InvalidSubmissionError(`${SCRIPT}: the part between "${PROTECTED_START}" and "${PROTECTED_END}" was changed; it must stay as it was`);
  const run = await runner({ argv: [PYTHON, SCRIPT], timeoutMs: TIMEOUT_MS, outputLimit: 64_000 });
  if (run.timedOut) throw new InvalidSubmissionError(`${SCRIPT} did not finish within ${TIMEOUT_MS / 1000} s`);
  if (run.exitCode !== 0) throw new InvalidSubmissionError(`${SCRIPT} failed with exit code ${run.exitCode}:\n${outputTail(run.stderr || run.stdout)}`);
  const matches = [...run.stdout.matchAll(new RegExp(RESULT_LINE.source, "gm"))];
  const value = matches.length > 0 ? Number(matches[matches.length - 1][1]) : NaN;
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidSubmissionError(`${SCRIPT} did not print a positive "Average per token generation time: <seconds>" line; its output ends with:\n${outputTail(run.stdout)}`);
  }
  return value;
}

/** Speed up LLaMA inference on one GPU (upstream MLAgentBench's "llama-inference"). */
export const llamaInferenceTask: ResearchTask = urlResearchTask({
  name: "llama-inference",
  statement: STATEMENT,
  metric: "average time to generate one token for a batch of 4 contexts, seconds",
  direction: "lower",
  taskDir: TASK_DIR,
  filesDir: FILES_DIR,
  readOnly: ["model", "wikitext-103"],
  data: LLAMA_INFERENCE_DATA,
  machineDependent: true,
  score: (workspaceDir, runner) => measureInference(workspaceDir, runner),
});
