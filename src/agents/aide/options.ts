/** Turning the CLI's AIDE settings into agent options, with a clear error for each bad value. */
import { UserError } from "../../core/errors.js";
import { llmSettings, type LlmRequest } from "../../llm/options.js";
import type { AideOptions } from "./index.js";

/** AIDE settings as the CLI collects them (all optional). */
export interface AideRequest extends LlmRequest {
  steps?: number;
  numDrafts?: number;
  debugProb?: number;
  maxDebugDepth?: number;
  execTimeoutMs?: number;
}

/** Check the settings (the LLM ones with {@link llmSettings}) and build the agent's options. */
export function aideOptions(req: AideRequest, env: Record<string, string | undefined>): AideOptions {
  const llm = llmSettings(req, env, "--agent aide");
  if (req.debugProb !== undefined && !(req.debugProb >= 0 && req.debugProb <= 1)) {
    throw new UserError(`--aide-debug-prob must be between 0 and 1, got ${req.debugProb}`);
  }
  if (req.maxDebugDepth !== undefined && !(Number.isInteger(req.maxDebugDepth) && req.maxDebugDepth >= 0)) {
    throw new UserError(`--aide-max-debug-depth must be a whole number >= 0, got ${req.maxDebugDepth}`);
  }
  return {
    ...llm,
    steps: req.steps,
    numDrafts: req.numDrafts,
    debugProb: req.debugProb,
    maxDebugDepth: req.maxDebugDepth,
    execTimeoutMs: req.execTimeoutMs,
  };
}
