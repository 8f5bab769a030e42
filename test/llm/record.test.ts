import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { UserError } from "../../src/core/errors.js";
import { createClient } from "../../src/llm/client.js";
import { canonicalJson, Recorder, Replayer, ReplayMissError, requestKey, type Recording } from "../../src/llm/record.js";
import type { CompletionRequest, CompletionResult, Provider, ProviderResponse } from "../../src/llm/types.js";

/** A provider that answers "answer 1", "answer 2", … and counts its calls. */
function counting(): Provider & { calls: number } {
  const p = {
    kind: "openai",
    model: "gpt-4o-mini",
    calls: 0,
    async call(request: CompletionRequest): Promise<ProviderResponse> {
      p.calls++;
      const wantsTool = request.toolChoice !== undefined;
      return {
        text: wantsTool ? "" : `answer ${p.calls}`,
        toolCalls: wantsTool ? [{ id: `call_${p.calls}`, name: "pick", arguments: { n: p.calls }, rawArguments: `{"n":${p.calls}}` }] : [],
        usage: { inputTokens: 1000 * p.calls, outputTokens: 10, cachedInputTokens: 0 },
        finishReason: wantsTool ? "tool_calls" : "stop",
        model: "gpt-4o-mini-2024-07-18",
      };
    },
  };
  return p;
}

const SPEC = "openai/gpt-4o-mini";
const PICK = { name: "pick", description: "Pick a number.", parameters: z.object({ n: z.number() }) };
const ask = (content: string): CompletionRequest => ({ messages: [{ role: "user", content }] });

/** Everything about a result except how long it took. */
function comparable({ latencyMs: _latency, ...rest }: CompletionResult) {
  return rest;
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-llm-record-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("record and replay", () => {
  it("replays a recorded session call for call, without a provider or key", async () => {
    const dir = path.join(tmp, "session");
    const provider = counting();
    const recording = createClient(SPEC, { provider, recordDir: dir, retry: { backoffMs: 1, jitter: false } });
    const requests: CompletionRequest[] = [
      ask("first"),
      ask("same"),
      ask("same"),
      { ...ask("tool please"), tools: [PICK], toolChoice: { name: "pick" }, maxTokens: 100, temperature: 0 },
    ];
    const recorded: CompletionResult[] = [];
    for (const r of requests) recorded.push(await recording.complete(r));
    expect(provider.calls).toBe(4);

    const files = fs.readdirSync(dir).sort();
    expect(files).toHaveLength(4);
    expect(files.every((f) => /^[0-9a-f]{64}\.[01]\.json$/.test(f))).toBe(true);
    const sameKey = requestKey(SPEC, ask("same"));
    expect(files).toContain(`${sameKey}.0.json`);
    expect(files).toContain(`${sameKey}.1.json`);
    const saved = JSON.parse(fs.readFileSync(path.join(dir, `${sameKey}.1.json`), "utf8")) as Recording;
    expect(saved).toMatchObject({ key: sameKey, n: 1, model: SPEC, request: { messages: [{ role: "user", content: "same" }] } });
    expect(saved.response.text).toBe("answer 3");

    const replaying = createClient(SPEC, { replayDir: dir, env: {} });
    const replayed: CompletionResult[] = [];
    for (const r of requests) replayed.push(await replaying.complete(r));
    expect(replayed.map(comparable)).toEqual(recorded.map(comparable));
    expect(replayed.map((r) => r.text)).toEqual(["answer 1", "answer 2", "answer 3", ""]);
    expect(replayed.every((r) => r.latencyMs < 50)).toBe(true);
    expect(replaying.totals()).toEqual(recording.totals());
  });

  it("reports a miss with the folder, key, occurrence and the last user message", async () => {
    const dir = path.join(tmp, "miss");
    const recording = createClient(SPEC, { provider: counting(), recordDir: dir });
    await recording.complete(ask("only once"));
    const replaying = createClient(SPEC, { replayDir: dir, env: {} });
    await replaying.complete(ask("only once"));

    const again = await replaying.complete(ask("only once")).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ReplayMissError);
    expect(again).toMatchObject({ dir, key: requestKey(SPEC, ask("only once")), n: 1 });
    expect((again as Error).message).toContain(dir);
    expect((again as Error).message).toContain("occurrence 1");
    expect((again as Error).message).toContain('"only once"');

    const other = await replaying.complete(ask("x".repeat(500))).catch((e: unknown) => e);
    expect((other as Error).message).toContain(`"${"x".repeat(200)}…"`);
    expect(replaying.totals()).toMatchObject({ calls: 3, failures: 2 });
  });

  it("never calls the provider while replaying", async () => {
    const dir = path.join(tmp, "no-call");
    await createClient(SPEC, { provider: counting(), recordDir: dir }).complete(ask("hi"));
    const provider = counting();
    await createClient(SPEC, { provider, replayDir: dir }).complete(ask("hi"));
    expect(provider.calls).toBe(0);
  });

  it("refuses a replay folder that does not exist", () => {
    expect(() => new Replayer(path.join(tmp, "nowhere"))).toThrow(UserError);
  });

  it("writes files whole, leaving no temporary files", () => {
    const dir = path.join(tmp, "atomic");
    const recorder = new Recorder(dir);
    const response: ProviderResponse = {
      text: "t",
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
      finishReason: "stop",
      model: "m",
    };
    const file = recorder.save(SPEC, ask("a"), response);
    expect(path.basename(file)).toBe(`${requestKey(SPEC, ask("a"))}.0.json`);
    expect(fs.readdirSync(dir)).toEqual([path.basename(file)]);
    expect(new Replayer(dir).replay(SPEC, ask("a"))).toEqual(response);
  });
});

describe("request keys", () => {
  it("ignore key order and the timeout, but not what the model sees", () => {
    const base: CompletionRequest = { ...ask("q"), tools: [PICK], toolChoice: "auto", maxTokens: 10, temperature: 0.5 };
    const key = requestKey(SPEC, base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(requestKey(SPEC, { temperature: 0.5, maxTokens: 10, toolChoice: "auto", tools: [PICK], ...ask("q"), timeoutMs: 5 })).toBe(key);
    expect(requestKey("openai/gpt-4o", base)).not.toBe(key);
    expect(requestKey(SPEC, { ...base, temperature: 0 })).not.toBe(key);
    expect(requestKey(SPEC, { ...base, maxTokens: 11 })).not.toBe(key);
    expect(requestKey(SPEC, { ...base, toolChoice: "required" })).not.toBe(key);
    expect(requestKey(SPEC, { ...base, tools: [{ ...PICK, parameters: z.object({ n: z.string() }) }] })).not.toBe(key);
    expect(requestKey(SPEC, { ...base, tools: [{ ...PICK, description: "Other." }] })).not.toBe(key);
    expect(requestKey(SPEC, { ...base, messages: [{ role: "system", content: "s" }, ...base.messages] })).not.toBe(key);
  });

  it("come from canonical JSON", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"e":2,"f":1}]},"b":1}');
  });
});
