/** The --llm-* flags, shared by `mlebench run` (aide, mlab) and `mlebench tasks run` (mlab). */
import type { Command } from "commander";
import type { LlmRequest } from "../llm/options.js";
import { UserError } from "../core/errors.js";
import { parsePositiveInt } from "../sandbox/limits.js";

/** The --llm-* flags as commander collects them. */
export interface LlmFlags {
  llmModel?: string;
  llmRecord?: string;
  llmReplay?: string;
  llmLog?: string;
  llmPrices?: string;
  llmMaxCost?: string;
  llmMaxCalls?: string;
  llmMaxTokens?: string;
}

/** The keys of {@link LlmFlags}, for commands that refuse them for some agents. */
export const LLM_FLAG_KEYS = ["llmModel", "llmRecord", "llmReplay", "llmLog", "llmPrices", "llmMaxCost", "llmMaxCalls", "llmMaxTokens"] as const;

/** Add the --llm-* options to `cmd`; `who` says which agents they are for (e.g. "for --agent aide or mlab"). */
export function addLlmOptions(cmd: Command, who: string): Command {
  return cmd
    .option("--llm-model <model>", `${who}: openai/<m>, openai-responses/<m>, anthropic/<m> or compat/<m>@<url> (default: $MLEBENCH_LLM_MODEL); keys come from the harness's environment (and --secrets-file where the command has it), never the sandbox's`)
    .option("--llm-record <dir>", `${who}: save every LLM answer under this folder`)
    .option("--llm-replay <dir>", `${who}: answer every LLM call from recordings in this folder, with no network`)
    .option("--llm-log <file>", `${who}: append one JSON line per LLM call here (default: llm.jsonl in each run's logs)`)
    .option("--llm-prices <file>", `${who}: JSON file of prices (USD per 1M tokens: {model: {input, cachedInput, output}}) overriding or extending the built-in list prices`)
    .option("--llm-max-cost <usd>", `${who}: stop a run's LLM calls once they have cost this much (USD)`)
    .option("--llm-max-calls <n>", `${who}: most LLM calls per run`)
    .option("--llm-max-tokens <n>", `${who}: most LLM tokens (input + output) per run`);
}

/** A number flag, or a UserError naming the flag. */
export function numberFlag(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n)) throw new UserError(`${flag}: "${text}" is not a number`);
  return n;
}

/** The --llm-* flags as an LLM request (values checked later by llmSettings). */
export function llmRequestFromFlags(flags: LlmFlags): LlmRequest {
  const int = (text: string | undefined, flag: string) => (text === undefined ? undefined : parsePositiveInt(text, flag));
  return {
    model: flags.llmModel,
    llmRecord: flags.llmRecord,
    llmReplay: flags.llmReplay,
    llmLog: flags.llmLog,
    llmPrices: flags.llmPrices,
    maxCostUsd: numberFlag(flags.llmMaxCost, "--llm-max-cost"),
    maxCalls: int(flags.llmMaxCalls, "--llm-max-calls"),
    maxTokens: int(flags.llmMaxTokens, "--llm-max-tokens"),
  };
}
