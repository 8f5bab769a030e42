import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { UserError } from "../../src/core/errors.js";
import { BudgetExceededError, RunBudget } from "../../src/llm/budget.js";
import { readCallLog } from "../../src/llm/call-log.js";
import { createClient, type ClientOptions } from "../../src/llm/client.js";
import { DEFAULT_PRICES } from "../../src/llm/pricing.js";
import { LLMHttpError, type CompletionRequest, type Provider, type ProviderResponse } from "../../src/llm/types.js";

type Step = Partial<ProviderResponse> | Error | ((request: CompletionRequest, signal: AbortSignal) => Promise<ProviderResponse>);

/** A provider that plays `steps` in order, one per call, and remembers what it was asked. */
function scripted(steps: Step[], model = "gpt-4o-mini", kind = "openai"): Provider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    kind,
    model,
    requests,
    async call(request, signal) {
      requests.push(request);
      const step = steps[Math.min(requests.length - 1, steps.length - 1)];
      if (typeof step === "function") return step(request, signal);
      if (step instanceof Error) throw step;
      return answer(step);
    },
  };
}

function answer(fields: Partial<ProviderResponse> = {}): ProviderResponse {
  return {
    text: "ok",
    toolCalls: [],
    usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 },
    finishReason: "stop",
    model: "gpt-4o-mini-2024-07-18",
    ...fields,
  };
}

const FAST = { retries: 3, backoffMs: 1, maxDelayMs: 5, jitter: false };
const HELLO: CompletionRequest = { messages: [{ role: "user", content: "hello" }] };

function client(provider: Provider, options: ClientOptions = {}) {
  return createClient(`${provider.kind}/${provider.model}`, { provider, retry: FAST, ...options });
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-llm-client-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("retries", () => {
  it.each([429, 500, 503, 0])("retries status %i and reports the attempts", async (status) => {
    const provider = scripted([new LLMHttpError("busy", status), new LLMHttpError("busy", status), answer()]);
    const c = client(provider);
    const result = await c.complete(HELLO);
    expect(result.attempts).toBe(3);
    expect(provider.requests).toHaveLength(3);
    expect(c.totals()).toMatchObject({ calls: 1, retries: 2, failures: 0 });
  });

  it("gives up after the configured retries with the last error", async () => {
    const provider = scripted([new LLMHttpError("HTTP 503 overloaded", 503)]);
    const c = client(provider, { retry: { ...FAST, retries: 2 } });
    const err = await c.complete(HELLO).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LLMHttpError);
    expect((err as LLMHttpError).status).toBe(503);
    expect((err as Error).message).toBe("openai/gpt-4o-mini: gave up after 3 attempts; last error: HTTP 503 overloaded");
    expect(provider.requests).toHaveLength(3);
    expect(c.totals()).toMatchObject({ calls: 1, retries: 2, failures: 1 });
  });

  it("fails at once on a 400", async () => {
    const provider = scripted([new LLMHttpError("HTTP 400 bad request", 400), answer()]);
    const c = client(provider);
    await expect(c.complete(HELLO)).rejects.toThrow("HTTP 400 bad request");
    expect(provider.requests).toHaveLength(1);
    expect(c.totals()).toMatchObject({ calls: 1, retries: 0, failures: 1 });
  });

  it("does not retry errors that are not HTTP failures", async () => {
    const provider = scripted([new TypeError("bug"), answer()]);
    await expect(client(provider).complete(HELLO)).rejects.toThrow("bug");
    expect(provider.requests).toHaveLength(1);
  });

  it("waits as long as Retry-After says, up to the cap", async () => {
    const waits: number[] = [];
    const provider = scripted([new LLMHttpError("slow down", 429, 150), answer()]);
    const c = client(provider, { retry: { ...FAST, maxDelayMs: 10_000 }, onRetry: (i) => waits.push(i.delayMs) });
    const t0 = performance.now();
    const result = await c.complete(HELLO);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect(waits).toEqual([150]);
    expect(result.attempts).toBe(2);
    expect(result.latencyMs).toBeGreaterThanOrEqual(140);
  });

  it("times out a call that never answers, even if the provider ignores its signal, and retries it", async () => {
    const provider = scripted([() => new Promise<ProviderResponse>(() => {}), answer({ text: "second try" })]);
    const result = await client(provider, { timeoutMs: 50 }).complete(HELLO);
    expect(result.text).toBe("second try");
    expect(result.attempts).toBe(2);
  });

  it("passes the timeout to the provider as an aborting signal; a request's timeoutMs wins", async () => {
    const provider = scripted([
      (_req, signal) =>
        new Promise<ProviderResponse>((_, reject) =>
          signal.addEventListener("abort", () => reject(new LLMHttpError("request timed out", 0))),
        ),
    ]);
    const c = client(provider, { timeoutMs: 60_000, retry: { ...FAST, retries: 1 } });
    const t0 = performance.now();
    const err = await c.complete({ ...HELLO, timeoutMs: 30 }).catch((e: unknown) => e);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect((err as LLMHttpError).status).toBe(0);
    expect((err as Error).message).toMatch(/gave up after 2 attempts; last error: (request timed out|.*no answer within 30 ms)/);
  });
});

describe("budget", () => {
  it("stops at maxCalls before calling the provider", async () => {
    const provider = scripted([answer()]);
    const c = client(provider, { budget: { maxCalls: 2 } });
    await c.complete(HELLO);
    await c.complete(HELLO);
    const err = await c.complete(HELLO).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect((err as BudgetExceededError).limit).toBe("maxCalls");
    expect((err as Error).message).toContain("maxCalls reached (2 of 2 calls made)");
    expect((err as Error).message).toContain("2 calls (0 failed, 0 retries), 20 input + 10 output tokens, $0.000009.");
    expect(provider.requests).toHaveLength(2);
  });

  it("stops at maxTokens", async () => {
    const provider = scripted([answer({ usage: { inputTokens: 600, outputTokens: 500, cachedInputTokens: 0 } })]);
    const c = client(provider, { budget: { maxTokens: 1000 } });
    await c.complete(HELLO);
    await expect(c.complete(HELLO)).rejects.toThrow(/maxTokens reached \(1100 of 1000 tokens used\)/);
    expect(provider.requests).toHaveLength(1);
  });

  it("stops at maxCostUsd, and a budget can be shared between clients", async () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 0 };
    const budget = new RunBudget({ maxCostUsd: 0.2 });
    const a = client(scripted([answer({ usage })]), { budget });
    const b = client(scripted([answer({ usage })]), { budget });
    await a.complete(HELLO); // $0.15
    await b.complete(HELLO); // $0.30
    const err = await a.complete(HELLO).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect((err as Error).message).toContain("maxCostUsd reached ($0.3 of $0.2 spent)");
    expect(a.totals().calls).toBe(2);
  });

  it("counts unpriced calls as free but flags them", async () => {
    const provider = scripted([answer({ model: "llama3", usage: { inputTokens: 1e6, outputTokens: 1e6, cachedInputTokens: 0 } })], "llama3", "compat");
    const c = createClient("compat/llama3@http://127.0.0.1:9/v1", { provider, budget: { maxCostUsd: 0.01 } });
    const result = await c.complete(HELLO);
    expect(result.costUsd).toBeNull();
    await c.complete(HELLO);
    expect(c.totals()).toMatchObject({ calls: 2, costUsd: 0, unpricedCalls: 2 });
  });

  it("rejects negative limits", () => {
    expect(() => new RunBudget({ maxCalls: -1 })).toThrow("maxCalls must be a non-negative number");
  });
});

describe("cost", () => {
  it("prices gpt-4o-mini exactly, cached input at the cached rate", async () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 500_000, cachedInputTokens: 200_000 };
    const c = client(scripted([answer({ usage })]));
    const first = await c.complete(HELLO);
    // 800k × $0.15 + 200k × $0.075 + 500k × $0.60, per million
    expect(first.costUsd).toBeCloseTo(0.435, 12);
    await c.complete(HELLO);
    const totals = c.totals();
    expect(totals.costUsd).toBeCloseTo(0.87, 12);
    expect(totals).toMatchObject({ calls: 2, inputTokens: 2_000_000, outputTokens: 1_000_000, cachedInputTokens: 400_000, unpricedCalls: 0 });
  });

  it("falls back to the requested model when the answering one has no price", async () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 0 };
    const c = client(scripted([answer({ model: "some-alias", usage })], "gpt-4o"));
    expect((await c.complete(HELLO)).costUsd).toBeCloseTo(2.5, 12);
  });

  it("prices compat models only from the user's table, as compat/<model>", async () => {
    const usage = { inputTokens: 2_000_000, outputTokens: 1_000_000, cachedInputTokens: 0 };
    const prices = { ...DEFAULT_PRICES, "compat/llama3": { input: 0.1, cachedInput: 0.1, output: 0.2 } };
    const provider = scripted([answer({ model: "gpt-4o", usage })], "llama3", "compat");
    const c = createClient("compat/llama3@http://127.0.0.1:9/v1", { provider, prices });
    expect((await c.complete(HELLO)).costUsd).toBeCloseTo(0.4, 12);
    const unpriced = createClient("compat/gpt-4o@http://127.0.0.1:9/v1", { provider: scripted([answer({ usage })], "gpt-4o", "compat") });
    expect((await unpriced.complete(HELLO)).costUsd).toBeNull();
  });
});

describe("call log", () => {
  it("writes one JSON line per call, failed ones included, without secrets", async () => {
    const file = path.join(tmp, "logs", "llm.jsonl");
    const provider = scripted([
      answer({
        text: "",
        toolCalls: [{ id: "c1", name: "submit", arguments: { x: 1 }, rawArguments: '{"x":1}' }],
        finishReason: "tool_calls",
        usage: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0 },
      }),
      new LLMHttpError("HTTP 400 context too long", 400),
    ]);
    const c = client(provider, { logFile: file, env: { OPENAI_API_KEY: "sk-SECRET" } });
    const request: CompletionRequest = {
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "submit x" },
      ],
      tools: [{ name: "submit", description: "Submit x.", parameters: z.object({ x: z.number().int() }) }],
      toolChoice: { name: "submit" },
      maxTokens: 64,
      temperature: 0,
      timeoutMs: 5000,
    };
    await c.complete(request);
    await expect(c.complete(HELLO)).rejects.toThrow();
    const text = fs.readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text).not.toContain("SECRET");
    const [ok, failed] = readCallLog(file);
    expect(ok).toMatchObject({
      model: "openai/gpt-4o-mini",
      request: {
        messages: request.messages,
        tools: [
          {
            name: "submit",
            description: "Submit x.",
            parameters: { type: "object", properties: { x: { type: "integer" } }, required: ["x"] },
          },
        ],
        toolChoice: { name: "submit" },
        maxTokens: 64,
        temperature: 0,
      },
      response: { text: "", toolCalls: [{ id: "c1", name: "submit", arguments: { x: 1 } }], finishReason: "tool_calls", model: "gpt-4o-mini-2024-07-18" },
      usage: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0 },
      attempts: 1,
      error: null,
      source: "provider",
    });
    expect(ok.costUsd).toBeCloseTo((1000 * 0.15 + 100 * 0.6) / 1e6, 15);
    expect(Date.parse(ok.time)).not.toBeNaN();
    expect(ok.latencyMs).toBeGreaterThanOrEqual(0);
    expect(failed).toMatchObject({ response: null, usage: null, costUsd: null, attempts: 1, error: "LLMHttpError: HTTP 400 context too long" });
  });

  it("keeps lines whole when many calls finish together", async () => {
    const file = path.join(tmp, "concurrent.jsonl");
    const big = "y".repeat(100_000);
    const c = client(scripted([async () => answer({ text: big })]), { logFile: file });
    await Promise.all(Array.from({ length: 20 }, (_, i) => c.complete({ messages: [{ role: "user", content: `q${i}` }] })));
    const entries = readCallLog(file);
    expect(entries).toHaveLength(20);
    expect(new Set(entries.map((e) => e.request.messages[0].content)).size).toBe(20);
    expect(entries.every((e) => e.response?.text === big)).toBe(true);
  });
});

describe("options", () => {
  it("refuses record and replay together", () => {
    expect(() => client(scripted([answer()]), { recordDir: tmp, replayDir: tmp })).toThrow(UserError);
  });

  it("builds the named provider, with a clear error when its key is missing", () => {
    expect(() => createClient("anthropic/claude-sonnet-4", { env: {} })).toThrow(/ANTHROPIC_API_KEY is not set/);
    expect(createClient("openai/gpt-4o", { env: { OPENAI_API_KEY: "k" } }).model).toBe("openai/gpt-4o");
  });
});
