import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createClient } from "../../src/llm/client.js";
import { callTool, StructuredOutputError } from "../../src/llm/structured.js";
import type { CompletionRequest, Provider, ProviderResponse, ToolCall } from "../../src/llm/types.js";

/** A provider that plays one scripted answer per call and keeps a copy of each request. */
function scripted(answers: Partial<ProviderResponse>[]): Provider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    kind: "openai",
    model: "gpt-4o-mini",
    requests,
    async call(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const a = answers[Math.min(requests.length - 1, answers.length - 1)];
      return {
        text: "",
        toolCalls: [],
        usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0 },
        finishReason: a.toolCalls?.length ? "tool_calls" : "stop",
        model: "gpt-4o-mini",
        ...a,
      };
    },
  };
}

function call(name: string, args: unknown, id = `call_${name}`): ToolCall {
  const rawArguments = typeof args === "string" ? args : JSON.stringify(args);
  return { id, name, arguments: args, rawArguments };
}

const PLAN = {
  name: "submit_plan",
  description: "Submit the plan.",
  parameters: z.object({ steps: z.array(z.string()).min(1), model: z.enum(["gbm", "cnn"]) }),
};
const NOTE = { name: "take_note", description: "Write a note.", parameters: z.object({ text: z.string() }) };
const REQUEST: CompletionRequest = { messages: [{ role: "system", content: "You plan." }, { role: "user", content: "Plan it." }], tools: [NOTE] };
const GOOD = { steps: ["load", "fit"], model: "gbm" as const };

function client(provider: Provider) {
  return createClient("openai/gpt-4o-mini", { provider, retry: { retries: 0 } });
}

describe("callTool", () => {
  it("forces the tool and returns validated arguments", async () => {
    const provider = scripted([{ toolCalls: [call("submit_plan", GOOD)] }]);
    const { value, result } = await callTool(client(provider), REQUEST, PLAN);
    expect(value).toEqual(GOOD);
    expect(result.toolCalls[0].name).toBe("submit_plan");
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0].toolChoice).toEqual({ name: "submit_plan" });
    expect(provider.requests[0].tools?.map((t) => t.name)).toEqual(["take_note", "submit_plan"]);
    expect(provider.requests[0].messages).toEqual(REQUEST.messages);
  });

  it("re-asks after a text answer, explaining what was wrong", async () => {
    const provider = scripted([{ text: "I would load the data and fit a GBM." }, { toolCalls: [call("submit_plan", GOOD)] }]);
    const { value, result } = await callTool(client(provider), REQUEST, PLAN);
    expect(value).toEqual(GOOD);
    expect(result.attempts).toBe(1);
    const second = provider.requests[1].messages;
    expect(second.slice(0, 2)).toEqual(REQUEST.messages);
    expect(second[2]).toEqual({ role: "assistant", content: "I would load the data and fit a GBM." });
    expect(second[3].role).toBe("user");
    expect(second[3].content).toContain("you answered in text instead of calling `submit_plan`");
    expect(second[3].content).toContain("Call the `submit_plan` tool");
    expect(second).toHaveLength(4);
  });

  it("re-asks after invalid arguments, answering the call with the validation issues", async () => {
    const bad = call("submit_plan", { steps: [], model: "svm" }, "call_1");
    const provider = scripted([{ toolCalls: [bad] }, { toolCalls: [call("submit_plan", GOOD)] }]);
    const { value } = await callTool(client(provider), REQUEST, PLAN);
    expect(value).toEqual(GOOD);
    const [, , assistant, toolReply, user] = provider.requests[1].messages;
    expect(assistant).toEqual({ role: "assistant", content: "", toolCalls: [bad] });
    expect(toolReply).toMatchObject({ role: "tool", toolCallId: "call_1", name: "submit_plan" });
    expect(toolReply.content).toMatch(/steps: .*>=1/);
    expect(toolReply.content).toContain("model: ");
    expect(user.role).toBe("user");
    expect(user.content).toContain("Your `submit_plan` call was rejected");
    expect(user.content).toMatch(/steps: /);
  });

  it("re-asks after arguments that are not JSON", async () => {
    const provider = scripted([{ toolCalls: [call("submit_plan", '{"steps": [')] }, { toolCalls: [call("submit_plan", GOOD)] }]);
    const { value } = await callTool(client(provider), REQUEST, PLAN);
    expect(value).toEqual(GOOD);
    expect(provider.requests[1].messages.at(-1)?.content).toContain("not valid JSON");
  });

  it("re-asks after a call to another tool, answering that call as not run", async () => {
    const provider = scripted([{ toolCalls: [call("take_note", { text: "hm" }, "n1")] }, { toolCalls: [call("submit_plan", GOOD)] }]);
    await callTool(client(provider), REQUEST, PLAN);
    const messages = provider.requests[1].messages;
    expect(messages[3]).toMatchObject({ role: "tool", toolCallId: "n1", name: "take_note", content: expect.stringContaining("Not run") });
    expect(messages[4].content).toContain("you called `take_note` instead of `submit_plan`");
  });

  it("re-asks after a refusal", async () => {
    const provider = scripted([{ refusal: "I can't help with that.", finishReason: "refusal" }, { toolCalls: [call("submit_plan", GOOD)] }]);
    await callTool(client(provider), REQUEST, PLAN);
    expect(provider.requests[1].messages.at(-1)?.content).toContain("you refused");
  });

  it("gives up after the retries with the last text and issues", async () => {
    const provider = scripted([{ text: "No tools for me." }]);
    const err = await callTool(client(provider), REQUEST, PLAN, { retries: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StructuredOutputError);
    const e = err as StructuredOutputError;
    expect(e.lastText).toBe("No tools for me.");
    expect(e.issues).toEqual(['the model answered in text instead of calling `submit_plan`: "No tools for me."']);
    expect(e.message).toContain("openai/gpt-4o-mini did not produce a valid `submit_plan` call after 2 attempts");
    expect(e.result.text).toBe("No tools for me.");
    expect(provider.requests).toHaveLength(2);
  });

  it("keeps the validation issues of the last attempt", async () => {
    const provider = scripted([{ toolCalls: [call("submit_plan", { steps: ["a"], model: "svm" })] }]);
    const err = (await callTool(client(provider), REQUEST, PLAN, { retries: 0 }).catch((e: unknown) => e)) as StructuredOutputError;
    expect(err).toBeInstanceOf(StructuredOutputError);
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]).toMatch(/^model: /);
    expect(provider.requests).toHaveLength(1);
  });
});
