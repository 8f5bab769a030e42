/** Anthropic's Messages API (POST /v1/messages). */
import type { CompletionRequest, FinishReason, Message, Provider, ProviderResponse, ToolCall, ToolChoice, ToolSpec } from "../types.js";
import { count, isRecord, joinUrl, malformed, postJson, toolParameters, type CallSite } from "./http.js";

/** The API version every request pins. */
export const ANTHROPIC_VERSION = "2023-06-01";
/** The Messages API requires max_tokens; this is sent when the request sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** How to reach the Messages API. */
export interface AnthropicOptions {
  model: string;
  /** E.g. https://api.anthropic.com (without /v1). */
  baseUrl: string;
  apiKey: string;
}

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: "user" | "assistant";
  content: Block[];
}

/** A Provider for the Messages API. */
export class AnthropicProvider implements Provider {
  readonly kind = "anthropic";
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string;

  constructor(options: AnthropicOptions) {
    this.model = options.model;
    this.url = joinUrl(options.baseUrl, "v1/messages");
    this.apiKey = options.apiKey;
  }

  /** Send one request and collect the text and tool_use blocks of the reply. */
  async call(request: CompletionRequest, signal: AbortSignal): Promise<ProviderResponse> {
    const site: CallSite = { kind: this.kind, model: this.model, secret: this.apiKey };
    const headers = { "x-api-key": this.apiKey, "anthropic-version": ANTHROPIC_VERSION };
    const body = await postJson(site, this.url, headers, this.body(request), signal);
    return parseAnthropicResponse(site, body);
  }

  private body(request: CompletionRequest): Record<string, unknown> {
    const system = request.messages.filter((m) => m.role === "system").map((m) => m.content);
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      messages: anthropicMessages(request.messages),
    };
    if (system.length) body.system = system.join("\n\n");
    if (request.tools?.length) {
      body.tools = request.tools.map(anthropicTool);
      body.tool_choice = anthropicToolChoice(request.toolChoice ?? "auto");
    }
    if (request.temperature !== undefined) body.temperature = request.temperature;
    return body;
  }
}

/** Neutral messages as Anthropic turns: system prompts move out, tool results become user turns, same-role neighbours merge. */
export function anthropicMessages(messages: Message[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = out[out.length - 1];
    // All results for one assistant turn's tool calls must arrive in a single user turn.
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    switch (m.role) {
      case "system":
        break;
      case "user":
        push("user", [{ type: "text", text: m.content }]);
        break;
      case "assistant": {
        // The API rejects empty text blocks, which an assistant turn that only calls tools would have.
        const blocks: Block[] = m.content !== "" || !m.toolCalls?.length ? [{ type: "text", text: m.content }] : [];
        for (const c of m.toolCalls ?? []) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: toolInput(c) });
        push("assistant", blocks);
        break;
      }
      case "tool":
        push("user", [{ type: "tool_result", tool_use_id: m.toolCallId, content: m.content }]);
        break;
    }
  }
  return out;
}

/** tool_use.input must be an object; arguments that were not a JSON object are sent as an empty one. */
function toolInput(call: ToolCall): Record<string, unknown> {
  return isRecord(call.arguments) ? call.arguments : {};
}

function anthropicTool(tool: ToolSpec): Record<string, unknown> {
  return { name: tool.name, description: tool.description, input_schema: toolParameters(tool) };
}

function anthropicToolChoice(choice: ToolChoice): unknown {
  if (choice === "auto") return { type: "auto" };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}

/** Turn a Messages API reply body into a ProviderResponse. */
export function parseAnthropicResponse(site: CallSite, body: unknown): ProviderResponse {
  if (!isRecord(body) || !Array.isArray(body.content)) malformed(site, "no content array", body);
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of body.content as unknown[]) {
    if (!isRecord(block)) continue;
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    if (block.type === "tool_use") {
      const input = block.input ?? {};
      toolCalls.push({
        id: String(block.id ?? `toolu_${toolCalls.length}`),
        name: String(block.name ?? ""),
        arguments: input,
        rawArguments: JSON.stringify(input),
      });
    }
  }
  const usage = isRecord(body.usage) ? body.usage : {};
  const cacheRead = count(usage.cache_read_input_tokens);
  const text = texts.join("");
  const finishReason = anthropicFinishReason(body.stop_reason);
  const response: ProviderResponse = {
    text,
    toolCalls,
    usage: {
      // Anthropic counts cache reads and cache writes apart from input_tokens; the neutral count is the total prompt.
      inputTokens: count(usage.input_tokens) + cacheRead + count(usage.cache_creation_input_tokens),
      outputTokens: count(usage.output_tokens),
      cachedInputTokens: cacheRead,
    },
    finishReason,
    model: typeof body.model === "string" && body.model !== "" ? body.model : site.model,
  };
  if (finishReason === "refusal") response.refusal = text || "The model declined to answer.";
  return response;
}

function anthropicFinishReason(reason: unknown): FinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "refusal";
    default:
      return "other";
  }
}
