/** The LLM settings every LLM-driven agent shares (model, recording, prices, budget), checked up front. */
import path from "node:path";
import { UserError } from "../core/errors.js";
import { createClient, DEFAULT_LLM_TIMEOUT_MS, type ClientOptions } from "./client.js";
import { createProvider, parseModel } from "./model.js";
import { loadPrices } from "./pricing.js";

/** The --llm-* settings as the CLI collects them (all optional). */
export interface LlmRequest {
  model?: string;
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

/** Checked LLM settings, ready for createClient. */
export interface LlmSettings {
  /** Model string, e.g. "openai/gpt-4o" or "compat/<model>@<url>". */
  model: string;
  /**
   * Host folder to record LLM answers into. Agents keep wall-clock figures (time left, run times) out of
   * their prompts while recording or replaying, since a replay only answers prompts identical to the recorded ones.
   */
  llmRecordDir?: string;
  /** Host folder to replay LLM answers from, with no network. */
  llmReplayDir?: string;
  /** Host file for the JSONL call log. */
  llmLog?: string;
  /** Extra client settings (keys and base URLs come from `env`, the harness's environment by default). */
  client?: Omit<ClientOptions, "logFile" | "recordDir" | "replayDir">;
}

/**
 * Check the settings: the model comes from --llm-model or MLEBENCH_LLM_MODEL; keys and base URLs come
 * from `env` (the harness's environment and secrets file), checked now so a missing key fails before any
 * sandbox starts. `who` names the user of the model in messages ("--agent aide", "the rule judge").
 */
export function llmSettings(req: LlmRequest, env: Record<string, string | undefined>, who: string): LlmSettings {
  const model = req.model ?? env.MLEBENCH_LLM_MODEL;
  if (!model) throw new UserError(`${who} needs a model: pass --llm-model <provider/model> (e.g. openai/gpt-4o) or set MLEBENCH_LLM_MODEL`);
  parseModel(model);
  if (req.llmRecord !== undefined && req.llmReplay !== undefined) throw new UserError("--llm-record and --llm-replay cannot be used together");
  if (req.llmReplay === undefined) createProvider(model, env);
  if (req.maxCostUsd !== undefined && !(req.maxCostUsd > 0)) throw new UserError(`--llm-max-cost must be a positive number of USD, got ${req.maxCostUsd}`);
  const prices = req.llmPrices === undefined ? undefined : loadPrices(path.resolve(req.llmPrices));
  const abs = (p: string | undefined) => (p === undefined ? undefined : path.resolve(p));
  return {
    model,
    llmRecordDir: abs(req.llmRecord),
    llmReplayDir: abs(req.llmReplay),
    llmLog: abs(req.llmLog),
    client: { env, prices, budget: { maxCostUsd: req.maxCostUsd, maxCalls: req.maxCalls, maxTokens: req.maxTokens } },
  };
}

/** The run's LLM client: calls logged to `defaultLog` unless --llm-log says otherwise, recorded or replayed as asked, each retry told to `note`. */
export function agentClient(settings: LlmSettings, defaultLog: string, note: (line: string) => void) {
  return createClient(settings.model, {
    ...settings.client,
    logFile: settings.llmLog ?? defaultLog,
    recordDir: settings.llmRecordDir,
    replayDir: settings.llmReplayDir,
    onRetry: (info) => {
      note(`LLM call attempt ${info.attempt} failed (${info.reason}); retrying in ${info.delayMs} ms`);
      settings.client?.onRetry?.(info);
    },
  });
}

/** Each call's timeout: the client's (default 10 min), but never past `deadline`, where the harness would end the run with nothing saved. */
export function callTimeout(settings: LlmSettings, deadline: number): () => number {
  return () => {
    const base = settings.client?.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    return Number.isFinite(deadline) ? Math.max(1000, Math.min(base, deadline - Date.now())) : base;
  };
}
