/** Turning the CLI's AIDE settings into agent options, with a clear error for each bad value. */
import path from "node:path";
import { UserError } from "../../core/errors.js";
import { createProvider, parseModel } from "../../llm/model.js";
import { loadPrices } from "../../llm/pricing.js";
import type { AideOptions } from "./index.js";

/** AIDE settings as the CLI collects them (all optional). */
export interface AideRequest {
  model?: string;
  steps?: number;
  numDrafts?: number;
  debugProb?: number;
  maxDebugDepth?: number;
  execTimeoutMs?: number;
  llmRecord?: string;
  llmReplay?: string;
  llmLog?: string;
  /** JSON price file overriding or extending the built-in prices. */
  llmPrices?: string;
  /** Per-run LLM budget. */
  maxCostUsd?: number;
  maxCalls?: number;
  maxTokens?: number;
}

/**
 * Check the settings and build the agent's options. The model comes from --llm-model or
 * MLEBENCH_LLM_MODEL; keys and base URLs come from `env` (the harness's environment and secrets file),
 * checked now so a missing key fails before any sandbox starts.
 */
export function aideOptions(req: AideRequest, env: Record<string, string | undefined>): AideOptions {
  const model = req.model ?? env.MLEBENCH_LLM_MODEL;
  if (!model) throw new UserError("--agent aide needs a model: pass --llm-model <provider/model> (e.g. openai/gpt-4o) or set MLEBENCH_LLM_MODEL");
  parseModel(model);
  if (req.llmRecord !== undefined && req.llmReplay !== undefined) throw new UserError("--llm-record and --llm-replay cannot be used together");
  if (req.llmReplay === undefined) createProvider(model, env);
  if (req.debugProb !== undefined && !(req.debugProb >= 0 && req.debugProb <= 1)) {
    throw new UserError(`--aide-debug-prob must be between 0 and 1, got ${req.debugProb}`);
  }
  if (req.maxDebugDepth !== undefined && !(Number.isInteger(req.maxDebugDepth) && req.maxDebugDepth >= 0)) {
    throw new UserError(`--aide-max-debug-depth must be a whole number >= 0, got ${req.maxDebugDepth}`);
  }
  if (req.maxCostUsd !== undefined && !(req.maxCostUsd > 0)) throw new UserError(`--llm-max-cost must be a positive number of USD, got ${req.maxCostUsd}`);
  const prices = req.llmPrices === undefined ? undefined : loadPrices(path.resolve(req.llmPrices));
  const abs = (p: string | undefined) => (p === undefined ? undefined : path.resolve(p));
  return {
    model,
    steps: req.steps,
    numDrafts: req.numDrafts,
    debugProb: req.debugProb,
    maxDebugDepth: req.maxDebugDepth,
    execTimeoutMs: req.execTimeoutMs,
    llmRecordDir: abs(req.llmRecord),
    llmReplayDir: abs(req.llmReplay),
    llmLog: abs(req.llmLog),
    client: { env, prices, budget: { maxCostUsd: req.maxCostUsd, maxCalls: req.maxCalls, maxTokens: req.maxTokens } },
  };
}
