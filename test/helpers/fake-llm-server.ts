/**
 * A fake LLM server on 127.0.0.1 for tests. One server answers all three APIs:
 * POST /v1/chat/completions (OpenAI and compatible), /v1/responses (OpenAI Responses), /v1/messages (Anthropic).
 * Tests script the replies (a FIFO shared by all paths) and read back every request.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted reply. `body` is sent as JSON unless it is a string (sent verbatim, e.g. broken JSON). */
export interface FakeReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
  /** Cut the connection without answering (a network error). */
  drop?: boolean;
}

/** A request as the fake server saw it; headers are lower-cased, body is parsed JSON (or the raw text if it is not JSON). */
export interface FakeRequest {
  path: string;
  headers: Record<string, string>;
  body: any;
}

/** A running fake LLM server. */
export interface FakeLLM {
  /** Origin, e.g. http://127.0.0.1:40123 (Anthropic's base URL form). */
  url: string;
  /** `${url}/v1`: the base URL form OpenAI and compatible clients expect. */
  openaiBaseUrl: string;
  /** Queue replies, answered in order whatever the path. */
  script(...replies: FakeReply[]): void;
  requests: FakeRequest[];
  /** Replies still queued. */
  pending(): number;
  /** Drop queued replies and recorded requests, so one failed test does not spill into the next. */
  reset(): void;
  close(): Promise<void>;
}

const PATHS = new Set(["/v1/chat/completions", "/v1/responses", "/v1/messages"]);

/** Start a fake LLM server on an ephemeral port. */
export async function startFakeLLM(): Promise<FakeLLM> {
  const queue: FakeReply[] = [];
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const text = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
      requests.push({ path, headers, body: parseBody(text) });
      if (req.method !== "POST" || !PATHS.has(path)) {
        send(res, { status: 404, body: { error: { message: `fake LLM server: no route for ${req.method} ${path}` } } });
        return;
      }
      const reply = queue.shift() ?? {
        status: 500,
        body: { error: { message: `fake LLM server: no scripted reply left for POST ${path}`, type: "fake_server_error" } },
      };
      if (!reply.delayMs) {
        send(res, reply);
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(res, reply);
      }, reply.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    script: (...replies) => void queue.push(...replies),
    requests,
    pending: () => queue.length,
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function send(res: http.ServerResponse, reply: FakeReply): void {
  // The client may have given up (timeout) while a delayed reply waited.
  if (res.destroyed) return;
  if (reply.drop) {
    res.socket?.destroy();
    return;
  }
  const body = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
  res.end(body);
}

/** Token counts for the reply builders; the defaults are small and distinct so tests can tell them apart. */
export interface FakeUsage {
  input?: number;
  output?: number;
  cached?: number;
}

/** An OpenAI Chat Completions reply with text. */
export function openaiText(text: string, usage: FakeUsage = {}, finishReason = "stop"): FakeReply {
  return chatReply({ role: "assistant", content: text, refusal: null }, finishReason, usage);
}

/** An OpenAI Chat Completions reply calling one tool; `args` is JSON-encoded unless it is already a string (which may be broken JSON). */
export function openaiToolCall(name: string, args: unknown, id = "call_abc123", usage: FakeUsage = {}): FakeReply {
  const call = { id, type: "function", function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) } };
  return chatReply({ role: "assistant", content: null, tool_calls: [call], refusal: null }, "tool_calls", usage);
}

/** An OpenAI Chat Completions reply where the model refused. */
export function openaiRefusal(refusal: string): FakeReply {
  return chatReply({ role: "assistant", content: null, refusal }, "stop", {});
}

function chatReply(message: Record<string, unknown>, finishReason: string, usage: FakeUsage): FakeReply {
  const input = usage.input ?? 11;
  const output = usage.output ?? 7;
  return {
    body: {
      id: "chatcmpl-fake",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gpt-4o-2024-08-06",
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage: {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
        prompt_tokens_details: { cached_tokens: usage.cached ?? 0 },
      },
    },
  };
}

/** An OpenAI Responses API reply with text. */
export function responsesText(text: string, usage: FakeUsage = {}): FakeReply {
  return responsesReply([{ type: "message", id: "msg_fake", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }], usage);
}

/** An OpenAI Responses API reply calling one tool; `args` as for {@link openaiToolCall}. */
export function responsesToolCall(name: string, args: unknown, callId = "call_resp123", usage: FakeUsage = {}): FakeReply {
  const item = { type: "function_call", id: "fc_fake", call_id: callId, name, arguments: typeof args === "string" ? args : JSON.stringify(args), status: "completed" };
  return responsesReply([{ type: "reasoning", id: "rs_fake", summary: [] }, item], usage);
}

/** An OpenAI Responses API reply where the model refused. */
export function responsesRefusal(refusal: string): FakeReply {
  return responsesReply([{ type: "message", id: "msg_fake", role: "assistant", status: "completed", content: [{ type: "refusal", refusal }] }], {});
}

function responsesReply(output: unknown[], usage: FakeUsage, status = "completed"): FakeReply {
  const input = usage.input ?? 13;
  const out = usage.output ?? 9;
  return {
    body: {
      id: "resp_fake",
      object: "response",
      created_at: 1_700_000_000,
      status,
      model: "gpt-4.1-2025-04-14",
      output,
      usage: {
        input_tokens: input,
        input_tokens_details: { cached_tokens: usage.cached ?? 0 },
        output_tokens: out,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: input + out,
      },
    },
  };
}

/** An Anthropic Messages reply with text; `stopReason` e.g. "max_tokens" or "refusal". */
export function anthropicText(text: string, usage: FakeUsage = {}, stopReason = "end_turn"): FakeReply {
  return anthropicReply([{ type: "text", text }], stopReason, usage);
}

/** An Anthropic Messages reply calling one tool, optionally after some text. */
export function anthropicToolUse(name: string, input: Record<string, unknown>, id = "toolu_01abc", text?: string): FakeReply {
  const blocks: unknown[] = text ? [{ type: "text", text }] : [];
  blocks.push({ type: "tool_use", id, name, input });
  return anthropicReply(blocks, "tool_use", {});
}

function anthropicReply(content: unknown[], stopReason: string, usage: FakeUsage): FakeReply {
  return {
    body: {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model: "claude-3-5-haiku-20241022",
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input ?? 17,
        output_tokens: usage.output ?? 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage.cached ?? 0,
      },
    },
  };
}
