import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createClient } from "../../src/llm/client.js";
import { callTool } from "../../src/llm/structured.js";
import { tempDir } from "../helpers/data-dir.js";
import { type FakeLLM, anthropicText, anthropicToolUse, openaiText, openaiToolCall, startFakeLLM } from "../helpers/fake-llm-server.js";

// The whole layer over real HTTP: model string → provider → retries, timeouts, budget, cost, log, record/replay.
let fake: FakeLLM;
beforeAll(async () => {
  fake = await startFakeLLM();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const quickRetry = { retries: 3, backoffMs: 5, maxDelayMs: 50, jitter: false };
const review = {
  name: "submit_review",
  description: "Report whether the run failed and the metric it printed.",
  parameters: z.object({ is_bug: z.boolean(), summary: z.string(), metric: z.number().nullable() }),
};

describe("LLM client over HTTP", () => {
  it("retries a 429 (honouring Retry-After), a 500 and a reply past the timeout, then counts one call", async () => {
    const env = { OPENAI_API_KEY: "sk-test-secret" };
    const spec = "openai/gpt-4o-mini";
    const logFile = path.join(tempDir(), "llm.jsonl");
    {
      const client = createClient(spec, { env: { ...env, OPENAI_BASE_URL: fake.openaiBaseUrl }, retry: quickRetry, timeoutMs: 300, logFile });
      fake.script(
        { status: 429, headers: { "retry-after": "0.05" }, body: { error: { message: "rate limited" } } },
        { status: 500, body: { error: { message: "boom" } } },
        { ...openaiText("late"), delayMs: 1500 },
        openaiText("hello", { input: 1000, output: 200 }),
      );
      const r = await client.complete({ messages: [{ role: "user", content: "hi" }] });
      expect(r.text).toBe("hello");
      expect(r.attempts).toBe(4);
      expect(r.usage).toEqual({ inputTokens: 1000, outputTokens: 200, cachedInputTokens: 0 });
      // Priced as the model that answered, which the fake server names gpt-4o-2024-08-06: $2.50 / 1M input, $10 / 1M output.
      expect(r.model).toBe("gpt-4o-2024-08-06");
      expect(r.costUsd).toBeCloseTo(0.0025 + 0.002, 12);
      expect(client.totals()).toMatchObject({ calls: 1, retries: 3, failures: 0, inputTokens: 1000, outputTokens: 200 });
      expect(fake.requests).toHaveLength(4);
      expect(fake.requests.every((q) => q.headers.authorization === "Bearer sk-test-secret")).toBe(true);
      const log = fs.readFileSync(logFile, "utf8");
      expect(log.trim().split("\n")).toHaveLength(1);
      expect(log).not.toContain("sk-test-secret");
    }
  });

  it("gives up after the retries with the last status", async () => {
    const client = createClient(`compat/llama-3@${fake.openaiBaseUrl}`, { env: {}, retry: { ...quickRetry, retries: 2 } });
    fake.script({ status: 503 }, { status: 503 }, { status: 503 });
    await expect(client.complete({ messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({ status: 503 });
    expect(fake.requests).toHaveLength(3);
    expect(client.totals()).toMatchObject({ calls: 1, failures: 1, retries: 2 });
  });

  it("forces a tool call on Anthropic, re-asking once when the model answers in text", async () => {
    const client = createClient("anthropic/claude-3-5-haiku-latest", { env: { ANTHROPIC_API_KEY: "ak-test", ANTHROPIC_BASE_URL: fake.url }, retry: quickRetry });
    fake.script(anthropicText("The run looks fine to me."), anthropicToolUse("submit_review", { is_bug: false, summary: "ok", metric: 0.81 }));
    const { value } = await callTool(client, { messages: [{ role: "user", content: "Review this run." }] }, review);
    expect(value).toEqual({ is_bug: false, summary: "ok", metric: 0.81 });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0].body.tool_choice).toEqual({ type: "tool", name: "submit_review" });
    expect(client.totals().calls).toBe(2);
  });

  it("replays a recorded run call for call without any server", async () => {
    const dir = tempDir();
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.openaiBaseUrl };
    const recording = createClient("openai/gpt-4o", { env, recordDir: dir, retry: quickRetry });
    fake.script(openaiText("draft"), openaiToolCall("submit_review", { is_bug: true, summary: "crash", metric: null }));
    const messages = [{ role: "user" as const, content: "Write a solution." }];
    const first = await recording.complete({ messages });
    const second = await callTool(recording, { messages: [{ role: "user", content: "Review." }] }, review);
    const replay = createClient("openai/gpt-4o", { env: {}, replayDir: dir });
    const again = await replay.complete({ messages });
    const review2 = await callTool(replay, { messages: [{ role: "user", content: "Review." }] }, review);
    expect(again.text).toBe(first.text);
    expect(review2.value).toEqual(second.value);
    expect(fake.requests).toHaveLength(2);
    expect(replay.totals().costUsd).toBeCloseTo(recording.totals().costUsd, 12);
  });
});
