import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { UserError } from "../../src/core/errors.js";
import { createProvider, parseModel } from "../../src/llm/model.js";
import { LLMResponseError } from "../../src/llm/providers/http.js";
import { LLMHttpError, type CompletionRequest, type Message, type Provider, type ToolSpec } from "../../src/llm/types.js";
import {
  anthropicText,
  anthropicToolUse,
  openaiRefusal,
  openaiText,
  openaiToolCall,
  responsesRefusal,
  responsesText,
  responsesToolCall,
  startFakeLLM,
  type FakeLLM,
} from "../helpers/fake-llm-server.js";

const OPENAI_KEY = "sk-test-OPENAI-0123456789";
const ANTHROPIC_KEY = "sk-ant-test-ANTHROPIC-987";
const COMPAT_KEY = "compat-KEY-555";

let fake: FakeLLM;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeLLM();
  env = {
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_BASE_URL: fake.openaiBaseUrl,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: fake.url,
  };
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

afterEach(() => {
  // Every scripted reply was meant to be used.
  expect(fake.pending()).toBe(0);
});

const SUBMIT: ToolSpec = {
  name: "submit",
  description: "Submit the final answer.",
  parameters: z.object({ answer: z.number().describe("the answer"), note: z.string().optional() }),
};
const SUBMIT_SCHEMA = {
  type: "object",
  properties: { answer: { type: "number", description: "the answer" }, note: { type: "string" } },
  required: ["answer"],
};

/** A conversation that exercises every message kind: system, user, an assistant tool call and its result. */
const HISTORY: Message[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "What is 6*7?" },
  { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "calc", arguments: { expr: "6*7" }, rawArguments: '{"expr":"6*7"}' }] },
  { role: "tool", toolCallId: "c1", name: "calc", content: "42" },
  { role: "user", content: "Submit it." },
];

const REQUEST: CompletionRequest = { messages: HISTORY, tools: [SUBMIT], toolChoice: { name: "submit" }, maxTokens: 99, temperature: 0.2 };
const signal = () => AbortSignal.timeout(5_000);

/** A port nothing listens on (fetch refuses well-known "bad" ports such as 1, so pick a real one). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function provider(spec: string, extra: NodeJS.ProcessEnv = {}): Provider {
  return createProvider(spec, { ...env, ...extra });
}

describe("model strings", () => {
  it("parses every provider form", () => {
    expect(parseModel("openai/gpt-4o")).toEqual({ kind: "openai", model: "gpt-4o" });
    expect(parseModel("openai-responses/o4-mini")).toEqual({ kind: "openai-responses", model: "o4-mini" });
    expect(parseModel("anthropic/claude-3-5-haiku-latest")).toEqual({ kind: "anthropic", model: "claude-3-5-haiku-latest" });
    expect(parseModel("compat/llama3@http://127.0.0.1:8000/v1/")).toEqual({ kind: "compat", model: "llama3", baseUrl: "http://127.0.0.1:8000/v1" });
    // Split at the last "@": model names may carry "@" and "/".
    expect(parseModel("compat/meta-llama/Llama-3@q4@https://openrouter.ai/api/v1")).toEqual({
      kind: "compat",
      model: "meta-llama/Llama-3@q4",
      baseUrl: "https://openrouter.ai/api/v1",
    });
  });

  it("rejects bad strings with a UserError that says what to write", () => {
    const cases: [string, RegExp][] = [
      ["gpt-4o", /no provider prefix; write openai\/<model>/],
      ["azure/gpt-4o", /unknown provider "azure"; the providers are openai, openai-responses, anthropic, compat/],
      ["openai/", /no model name after "openai\/"/],
      ["compat/llama3", /needs a base URL: write compat\/<model>@<base-url>/],
      ["compat/@http://127.0.0.1:8000/v1", /no model name before "@"/],
      ["compat/llama3@localhost-8000", /invalid base URL "localhost-8000"/],
      ["compat/llama3@ftp://example.com/v1", /not http\(s\)/],
    ];
    for (const [spec, message] of cases) {
      expect(() => parseModel(spec), spec).toThrow(UserError);
      expect(() => parseModel(spec), spec).toThrow(message);
    }
  });

  it("needs the provider's key and names the variable, never a value", () => {
    expect(() => createProvider("openai/gpt-4o", {})).toThrow(/OPENAI_API_KEY is not set; model openai\/gpt-4o needs it/);
    expect(() => createProvider("openai-responses/gpt-4o", { OPENAI_API_KEY: " " })).toThrow(/OPENAI_API_KEY is not set/);
    expect(() => createProvider("anthropic/claude-x", { OPENAI_API_KEY: OPENAI_KEY })).toThrow(UserError);
    expect(() => createProvider("anthropic/claude-x", { OPENAI_API_KEY: OPENAI_KEY })).toThrow(/ANTHROPIC_API_KEY is not set/);
    // Compatible servers need no key.
    const p = createProvider("compat/llama3@http://127.0.0.1:1/v1", {});
    expect([p.kind, p.model]).toEqual(["compat", "llama3"]);
  });
});

describe("openai (Chat Completions)", () => {
  it("sends messages, tools, a forced tool choice, max_completion_tokens and the key", async () => {
    fake.script(openaiToolCall("submit", { answer: 42 }));
    await provider("openai/gpt-4o").call(REQUEST, signal());
    const [req] = fake.requests;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.body).toEqual({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "What is 6*7?" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "calc", arguments: '{"expr":"6*7"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "42" },
        { role: "user", content: "Submit it." },
      ],
      tools: [{ type: "function", function: { name: "submit", description: "Submit the final answer.", parameters: SUBMIT_SCHEMA } }],
      tool_choice: { type: "function", function: { name: "submit" } },
      max_completion_tokens: 99,
      temperature: 0.2,
    });
  });

  it("sends auto and required tool choices as strings, and omits tools and limits nobody asked for", async () => {
    fake.script(openaiText("a"), openaiText("b"), openaiText("c"));
    const p = provider("openai/gpt-4o");
    await p.call({ messages: [{ role: "user", content: "hi" }], tools: [SUBMIT] }, signal());
    await p.call({ messages: [{ role: "user", content: "hi" }], tools: [SUBMIT], toolChoice: "required" }, signal());
    await p.call({ messages: [{ role: "user", content: "hi" }] }, signal());
    expect(fake.requests.map((r) => r.body.tool_choice)).toEqual(["auto", "required", undefined]);
    expect(fake.requests[2].body).toEqual({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
  });

  it("parses text, model and usage with cached tokens", async () => {
    fake.script(openaiText("Hello.", { input: 120, output: 8, cached: 100 }));
    const r = await provider("openai/gpt-4o").call({ messages: [{ role: "user", content: "hi" }] }, signal());
    expect(r).toEqual({
      text: "Hello.",
      toolCalls: [],
      usage: { inputTokens: 120, outputTokens: 8, cachedInputTokens: 100 },
      finishReason: "stop",
      model: "gpt-4o-2024-08-06",
    });
  });

  it("parses tool calls, keeping the raw arguments, and hands back text that is not JSON as is", async () => {
    fake.script(openaiToolCall("submit", { answer: 42 }, "call_1"), openaiToolCall("submit", '{"answer": 4', "call_2"));
    const p = provider("openai/gpt-4o");
    const good = await p.call(REQUEST, signal());
    expect(good.toolCalls).toEqual([{ id: "call_1", name: "submit", arguments: { answer: 42 }, rawArguments: '{"answer":42}' }]);
    expect(good.finishReason).toBe("tool_calls");
    expect(good.text).toBe("");
    const bad = await p.call(REQUEST, signal());
    expect(bad.toolCalls).toEqual([{ id: "call_2", name: "submit", arguments: '{"answer": 4', rawArguments: '{"answer": 4' }]);
  });

  it("normalises finish reasons and reports refusals", async () => {
    // OpenAI says "stop" for a forced tool call; the tool call is what happened.
    const forced = openaiToolCall("submit", { answer: 1 });
    (forced.body as any).choices[0].finish_reason = "stop";
    fake.script(openaiText("cut", {}, "length"), openaiText("", {}, "content_filter"), forced, openaiRefusal("I can't help with that."));
    const p = provider("openai/gpt-4o");
    const msgs = { messages: [{ role: "user" as const, content: "hi" }] };
    expect((await p.call(msgs, signal())).finishReason).toBe("length");
    expect((await p.call(msgs, signal())).finishReason).toBe("content_filter");
    expect((await p.call(msgs, signal())).finishReason).toBe("tool_calls");
    const refused = await p.call(msgs, signal());
    expect([refused.finishReason, refused.refusal, refused.text]).toEqual(["refusal", "I can't help with that.", ""]);
  });
});

describe("compat (any OpenAI-compatible server)", () => {
  it("uses max_tokens and sends no key unless MLEBENCH_COMPAT_API_KEY is set", async () => {
    fake.script(openaiText("ok"), openaiText("ok"));
    const spec = `compat/qwen2.5:7b@${fake.openaiBaseUrl}`;
    const r = await provider(spec).call({ messages: [{ role: "user", content: "hi" }], maxTokens: 50 }, signal());
    expect(r.text).toBe("ok");
    const [plain] = fake.requests;
    expect(plain.path).toBe("/v1/chat/completions");
    expect(plain.headers.authorization).toBeUndefined();
    expect(plain.headers["x-api-key"]).toBeUndefined();
    expect(JSON.stringify(plain)).not.toContain(OPENAI_KEY);
    expect(plain.body).toEqual({ model: "qwen2.5:7b", messages: [{ role: "user", content: "hi" }], max_tokens: 50 });

    await provider(spec, { MLEBENCH_COMPAT_API_KEY: COMPAT_KEY }).call({ messages: [{ role: "user", content: "hi" }] }, signal());
    expect(fake.requests[1].headers.authorization).toBe(`Bearer ${COMPAT_KEY}`);
  });
});

describe("openai-responses (Responses API)", () => {
  it("sends input items, flat tools, a forced tool choice and max_output_tokens", async () => {
    fake.script(responsesToolCall("submit", { answer: 42 }));
    await provider("openai-responses/gpt-4.1").call(REQUEST, signal());
    const [req] = fake.requests;
    expect(req.path).toBe("/v1/responses");
    expect(req.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(req.body).toEqual({
      model: "gpt-4.1",
      input: [
        { type: "message", role: "system", content: "You are terse." },
        { type: "message", role: "user", content: "What is 6*7?" },
        { type: "function_call", call_id: "c1", name: "calc", arguments: '{"expr":"6*7"}' },
        { type: "function_call_output", call_id: "c1", output: "42" },
        { type: "message", role: "user", content: "Submit it." },
      ],
      store: false,
      tools: [{ type: "function", name: "submit", description: "Submit the final answer.", parameters: SUBMIT_SCHEMA, strict: false }],
      tool_choice: { type: "function", name: "submit" },
      max_output_tokens: 99,
      temperature: 0.2,
    });
  });

  it("parses text, tool calls (by call_id), usage, truncation and refusals", async () => {
    const truncated = responsesText("partial");
    Object.assign(truncated.body as object, { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    fake.script(
      responsesText("Hi there.", { input: 50, output: 3, cached: 32 }),
      responsesToolCall("submit", { answer: 42 }, "call_9"),
      responsesToolCall("submit", "not json", "call_10"),
      truncated,
      responsesRefusal("No."),
    );
    const p = provider("openai-responses/gpt-4.1");
    const msgs = { messages: [{ role: "user" as const, content: "hi" }] };
    expect(await p.call(msgs, signal())).toEqual({
      text: "Hi there.",
      toolCalls: [],
      usage: { inputTokens: 50, outputTokens: 3, cachedInputTokens: 32 },
      finishReason: "stop",
      model: "gpt-4.1-2025-04-14",
    });
    const call = await p.call(msgs, signal());
    expect([call.finishReason, call.toolCalls]).toEqual(["tool_calls", [{ id: "call_9", name: "submit", arguments: { answer: 42 }, rawArguments: '{"answer":42}' }]]);
    expect((await p.call(msgs, signal())).toolCalls[0].arguments).toBe("not json");
    const cut = await p.call(msgs, signal());
    expect([cut.finishReason, cut.text]).toEqual(["length", "partial"]);
    const refused = await p.call(msgs, signal());
    expect([refused.finishReason, refused.refusal]).toEqual(["refusal", "No."]);
  });

  it("reports a failed response as an unexpected reply", async () => {
    fake.script({ body: { status: "failed", output: [], error: { code: "server_error", message: "boom" } } });
    await expect(provider("openai-responses/gpt-4.1").call({ messages: [{ role: "user", content: "hi" }] }, signal())).rejects.toThrow(
      /openai-responses model gpt-4.1: unexpected reply, the response failed \(server_error: boom\)/,
    );
  });
});

describe("anthropic (Messages)", () => {
  it("sends system on top, tool_use and tool_result blocks, tool_choice, max_tokens and its headers", async () => {
    fake.script(anthropicToolUse("submit", { answer: 42 }));
    const history: Message[] = [
      ...HISTORY.slice(0, 2),
      {
        role: "assistant",
        content: "Let me compute.",
        toolCalls: [
          { id: "c1", name: "calc", arguments: { expr: "6*7" }, rawArguments: '{"expr":"6*7"}' },
          { id: "c2", name: "calc", arguments: { expr: "1" }, rawArguments: '{"expr":"1"}' },
        ],
      },
      { role: "tool", toolCallId: "c1", name: "calc", content: "42" },
      { role: "tool", toolCallId: "c2", name: "calc", content: "1" },
      { role: "user", content: "Submit it." },
      { role: "system", content: "Be exact." },
    ];
    await provider("anthropic/claude-3-5-haiku-latest").call({ ...REQUEST, messages: history }, signal());
    const [req] = fake.requests;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe(ANTHROPIC_KEY);
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      model: "claude-3-5-haiku-latest",
      max_tokens: 99,
      system: "You are terse.\n\nBe exact.",
      messages: [
        { role: "user", content: [{ type: "text", text: "What is 6*7?" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me compute." },
            { type: "tool_use", id: "c1", name: "calc", input: { expr: "6*7" } },
            { type: "tool_use", id: "c2", name: "calc", input: { expr: "1" } },
          ],
        },
        // Both results and the next user text share one user turn.
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: "42" },
            { type: "tool_result", tool_use_id: "c2", content: "1" },
            { type: "text", text: "Submit it." },
          ],
        },
      ],
      tools: [{ name: "submit", description: "Submit the final answer.", input_schema: SUBMIT_SCHEMA }],
      tool_choice: { type: "tool", name: "submit" },
      temperature: 0.2,
    });
  });

  it("defaults max_tokens to 4096, maps auto/required choices, and drops empty text beside tool calls", async () => {
    fake.script(anthropicText("a"), anthropicText("b"));
    const p = provider("anthropic/claude-x");
    await p.call({ messages: HISTORY.slice(1), tools: [SUBMIT] }, signal());
    await p.call({ messages: [{ role: "user", content: "hi" }], tools: [SUBMIT], toolChoice: "required" }, signal());
    const [first, second] = fake.requests;
    expect(first.body.max_tokens).toBe(4096);
    expect(first.body.system).toBeUndefined();
    expect(first.body.tool_choice).toEqual({ type: "auto" });
    expect(first.body.messages[1]).toEqual({ role: "assistant", content: [{ type: "tool_use", id: "c1", name: "calc", input: { expr: "6*7" } }] });
    expect(second.body.tool_choice).toEqual({ type: "any" });
  });

  it("parses text, tool_use, usage with cache reads, stop reasons and refusals", async () => {
    fake.script(
      anthropicText("Hello.", { input: 20, output: 4, cached: 300 }),
      anthropicToolUse("submit", { answer: 42 }, "toolu_7", "Submitting."),
      anthropicText("trunc", {}, "max_tokens"),
      anthropicText("I won't do that.", {}, "refusal"),
    );
    const p = provider("anthropic/claude-x");
    const msgs = { messages: [{ role: "user" as const, content: "hi" }] };
    expect(await p.call(msgs, signal())).toEqual({
      text: "Hello.",
      toolCalls: [],
      usage: { inputTokens: 320, outputTokens: 4, cachedInputTokens: 300 },
      finishReason: "stop",
      model: "claude-3-5-haiku-20241022",
    });
    const call = await p.call(msgs, signal());
    expect(call).toMatchObject({
      text: "Submitting.",
      finishReason: "tool_calls",
      toolCalls: [{ id: "toolu_7", name: "submit", arguments: { answer: 42 }, rawArguments: '{"answer":42}' }],
    });
    expect((await p.call(msgs, signal())).finishReason).toBe("length");
    const refused = await p.call(msgs, signal());
    expect([refused.finishReason, refused.refusal]).toEqual(["refusal", "I won't do that."]);
  });
});

describe("HTTP failures, for every provider", () => {
  const specs = () => [
    ["openai/gpt-4o", "/v1/chat/completions"],
    ["openai-responses/gpt-4.1", "/v1/responses"],
    ["anthropic/claude-x", "/v1/messages"],
    [`compat/llama3@${fake.openaiBaseUrl}`, "/v1/chat/completions"],
  ];
  const hi = { messages: [{ role: "user" as const, content: "hi" }] };

  async function failure(spec: string, s: AbortSignal = signal(), extra: NodeJS.ProcessEnv = {}): Promise<LLMHttpError> {
    const err = await provider(spec, extra).call(hi, s).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LLMHttpError);
    return err as LLMHttpError;
  }

  it("turns a 429 into LLMHttpError(429) with Retry-After in milliseconds", async () => {
    for (const [spec, path] of specs()) {
      fake.script({ status: 429, headers: { "retry-after": "1.5" }, body: { error: { message: "Rate limit reached", type: "rate_limit_error" } } });
      const err = await failure(spec);
      expect(err.status).toBe(429);
      expect(err.retryAfterMs).toBe(1500);
      expect(err.message).toBe(`${spec.split("/")[0]} model ${parseModel(spec).model}: HTTP 429 from http://127.0.0.1:${new URL(fake.url).port}${path}: Rate limit reached`);
      expect(err.body).toContain("rate_limit_error");
    }
  });

  it("turns a 500 into LLMHttpError(500) with a body excerpt of at most 500 characters, its key scrubbed", async () => {
    const keys: Record<string, string> = { openai: OPENAI_KEY, "openai-responses": OPENAI_KEY, anthropic: ANTHROPIC_KEY, compat: COMPAT_KEY };
    for (const [spec] of specs()) {
      const key = keys[parseModel(spec).kind];
      fake.script({ status: 500, body: { error: { message: `upstream exploded; key was ${key}` }, pad: "x".repeat(2000) } });
      const err = await failure(spec, signal(), { MLEBENCH_COMPAT_API_KEY: COMPAT_KEY });
      expect([err.status, err.retryAfterMs]).toEqual([500, null]);
      expect(err.body.length).toBe(500);
      expect(err.body).toContain("upstream exploded; key was [redacted]");
      expect(err.message).toMatch(/: HTTP 500 from .*: upstream exploded; key was \[redacted\]$/);
      expect(JSON.stringify([err.message, err.body])).not.toContain(key);
    }
  });

  it("turns a reply slower than the timeout into LLMHttpError(0)", async () => {
    for (const [spec] of specs()) {
      fake.script({ delayMs: 2_000, body: {} });
      const started = Date.now();
      const err = await failure(spec, AbortSignal.timeout(100));
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(err.status).toBe(0);
      expect(err.message).toMatch(/ timed out$/);
    }
  });

  it("turns a cancelled call and a dropped connection into LLMHttpError(0)", async () => {
    const controller = new AbortController();
    fake.script({ delayMs: 2_000, body: {} }, { drop: true });
    setTimeout(() => controller.abort(), 50);
    const aborted = await failure("openai/gpt-4o", controller.signal);
    expect([aborted.status, aborted.message]).toEqual([0, expect.stringMatching(/was aborted$/)]);
    const dropped = await failure("anthropic/claude-x");
    expect([dropped.status, dropped.message]).toEqual([0, expect.stringMatching(/^anthropic model claude-x: request to .* failed: /)]);
    const refused = await failure(`compat/llama3@http://127.0.0.1:${await closedPort()}/v1`);
    expect(refused.message).toMatch(/failed: ECONNREFUSED/);
  });

  it("reports a body that is not JSON, or not the API's shape, clearly", async () => {
    for (const [spec] of specs()) {
      fake.script({ body: '{"choices": [' });
      await expect(provider(spec).call(hi, signal())).rejects.toThrow(/is not valid JSON \(HTTP 200\): \{"choices": \[/);
      fake.script({ body: { hello: "world" } });
      const err = await provider(spec).call(hi, signal()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LLMResponseError);
      expect(String(err)).toMatch(/unexpected reply, no .*: \{"hello":"world"\}/);
    }
  });

  it("answers an empty script with a clear 500", async () => {
    const err = await failure("openai/gpt-4o");
    expect(err.status).toBe(500);
    expect(err.message).toContain("fake LLM server: no scripted reply left for POST /v1/chat/completions");
  });
});
