/** OpenAI's Chat Completions API, also spoken by vLLM, Ollama, llama.cpp server, OpenRouter and Gemini's compatible endpoint. */
import type { CompletionRequest, FinishReason, Message, Provider, ProviderResponse, ToolCall, ToolChoice, ToolSpec } from "../types.js";
import { count, isRecord, joinUrl, malformed, parseArguments, postJson, toolParameters, type CallSite } from "./http.js";

/** How to reach one Chat Completions endpoint. */
export interface OpenAIChatOptions {
  /** "openai" or "compat": names the provider in errors and picks the max-tokens field. */
  kind: "openai" | "compat";
  model: string;
  /** E.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1. */
  baseUrl: string;
  /** Sent as a Bearer token; no Authorization header at all when absent. */
  apiKey?: string;
}

/** A Provider for the Chat Completions API. */
export class OpenAIChatProvider implements Provider {
  readonly kind: "openai" | "compat";
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string | undefined;

  constructor(options: OpenAIChatOptions) {
    this.kind = options.kind;
    this.model = options.model;
    this.url = joinUrl(options.baseUrl, "chat/completions");
    this.apiKey = options.apiKey;
  }

  /** Send one request and return the first choice. */
  async call(request: CompletionRequest, signal: AbortSignal): Promise<ProviderResponse> {
    const site: CallSite = { kind: this.kind, model: this.model, secret: this.apiKey };
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const body = await postJson(site, this.url, headers, this.body(request), signal);
    return parseChatResponse(site, body);
  }

  private body(request: CompletionRequest): Record<string, unknown> {
    const body: Record<string, unknown> = { model: this.model, messages: request.messages.map(chatMessage) };
    if (request.tools?.length) {
      body.tools = request.tools.map(chatTool);
      body.tool_choice = chatToolChoice(request.toolChoice ?? "auto");
    }
    if (request.maxTokens !== undefined) {
      // OpenAI's reasoning models reject max_tokens; most compatible servers only know max_tokens.
      body[this.kind === "openai" ? "max_completion_tokens" : "max_tokens"] = request.maxTokens;
    }
    if (request.temperature !== undefined) body.temperature = request.temperature;
    return body;
  }
}

function chatMessage(m: Message): Record<string, unknown> {
  switch (m.role) {
    case "system":
    case "user":
      return { role: m.role, content: m.content };
    case "assistant": {
      if (!m.toolCalls?.length) return { role: "assistant", content: m.content };
      return {
        role: "assistant",
        // The API wants null rather than "" beside tool calls.
        content: m.content === "" ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.rawArguments },
        })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
  }
}

function chatTool(tool: ToolSpec): Record<string, unknown> {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: toolParameters(tool) } };
}

function chatToolChoice(choice: ToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

/** Turn a Chat Completions reply body into a ProviderResponse. */
export function parseChatResponse(site: CallSite, body: unknown): ProviderResponse {
  if (!isRecord(body) || !Array.isArray(body.choices) || !isRecord(body.choices[0]) || !isRecord(body.choices[0].message)) {
    malformed(site, "no choices[0].message", body);
  }
  const choice = body.choices[0] as Record<string, unknown>;
  const message = choice.message as Record<string, unknown>;
  const toolCalls: ToolCall[] = [];
  for (const raw of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    if (!isRecord(raw) || !isRecord(raw.function)) continue;
    const rawArguments = typeof raw.function.arguments === "string" ? raw.function.arguments : JSON.stringify(raw.function.arguments ?? {});
    toolCalls.push({
      id: typeof raw.id === "string" ? raw.id : `call_${toolCalls.length}`,
      name: String(raw.function.name ?? ""),
      arguments: parseArguments(rawArguments),
      rawArguments,
    });
  }
  const refusal = typeof message.refusal === "string" && message.refusal !== "" ? message.refusal : undefined;
  const usage = isRecord(body.usage) ? body.usage : {};
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const response: ProviderResponse = {
    text: typeof message.content === "string" ? message.content : "",
    toolCalls,
    usage: {
      inputTokens: count(usage.prompt_tokens),
      outputTokens: count(usage.completion_tokens),
      cachedInputTokens: count(details.cached_tokens),
    },
    finishReason: refusal ? "refusal" : chatFinishReason(choice.finish_reason, toolCalls.length > 0),
    model: typeof body.model === "string" && body.model !== "" ? body.model : site.model,
  };
  if (refusal) response.refusal = refusal;
  return response;
}

function chatFinishReason(reason: unknown, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case "stop":
    case "eos":
      // Some compatible servers say "stop" even when they returned tool calls.
      return hasToolCalls ? "tool_calls" : "stop";
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "content_filter":
      return "content_filter";
    default:
      return hasToolCalls ? "tool_calls" : "other";
  }
}
