/**
 * One real call per provider, only when its key is set: the model is forced to call a tool,
 * and the argument it passes must parse. Costs a fraction of a cent per run.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createProvider } from "../../src/llm/model.js";
import type { CompletionRequest } from "../../src/llm/types.js";

const OPENAI_MODEL = process.env.MLEBENCH_SMOKE_OPENAI_MODEL || "gpt-4o-mini";
const ANTHROPIC_MODEL = process.env.MLEBENCH_SMOKE_ANTHROPIC_MODEL || "claude-3-5-haiku-latest";

const REQUEST: CompletionRequest = {
  messages: [
    { role: "system", content: "You record numbers by calling the record_number tool." },
    { role: "user", content: "Record the number forty-two." },
  ],
  tools: [
    {
      name: "record_number",
      description: "Record one integer.",
      parameters: z.object({ value: z.number().int().describe("The number to record, as digits") }),
    },
  ],
  toolChoice: { name: "record_number" },
  maxTokens: 100,
  temperature: 0,
};

async function smoke(spec: string): Promise<void> {
  const provider = createProvider(spec);
  const response = await provider.call(REQUEST, AbortSignal.timeout(60_000));
  expect(response.toolCalls).toHaveLength(1);
  expect(response.toolCalls[0].name).toBe("record_number");
  expect(response.toolCalls[0].arguments).toEqual({ value: 42 });
  expect(response.usage.inputTokens).toBeGreaterThan(0);
  expect(response.usage.outputTokens).toBeGreaterThan(0);
}

describe("real providers", () => {
  it.skipIf(!process.env.OPENAI_API_KEY)(`openai/${OPENAI_MODEL} makes a forced tool call`, () => smoke(`openai/${OPENAI_MODEL}`), 90_000);
  it.skipIf(!process.env.OPENAI_API_KEY)(`openai-responses/${OPENAI_MODEL} makes a forced tool call`, () => smoke(`openai-responses/${OPENAI_MODEL}`), 90_000);
  it.skipIf(!process.env.ANTHROPIC_API_KEY)(`anthropic/${ANTHROPIC_MODEL} makes a forced tool call`, () => smoke(`anthropic/${ANTHROPIC_MODEL}`), 90_000);
});
