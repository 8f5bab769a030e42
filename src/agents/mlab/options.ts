/** Turning the CLI's research-agent settings into agent options, with a clear error for each bad value. */
import { UserError } from "../../core/errors.js";
import { llmSettings, type LlmRequest } from "../../llm/options.js";
import type { MlabOptions } from "./index.js";

/** Research-agent settings as the CLI collects them (all optional). */
export interface MlabRequest extends LlmRequest {
  steps?: number;
  retrieval?: boolean;
  execTimeoutMs?: number;
}

/** Check the settings (the LLM ones with {@link llmSettings}) and build the agent's options. */
export function mlabOptions(req: MlabRequest, env: Record<string, string | undefined>): MlabOptions {
  const llm = llmSettings(req, env, "--agent mlab");
  if (req.steps !== undefined && !(Number.isInteger(req.steps) && req.steps > 0)) throw new UserError(`--mlab-steps must be a whole number > 0, got ${req.steps}`);
  return { ...llm, steps: req.steps, retrieval: req.retrieval, execTimeoutMs: req.execTimeoutMs };
}
