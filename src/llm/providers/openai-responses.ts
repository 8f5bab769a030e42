/** OpenAI's Responses API (POST /responses), stateless: the whole conversation goes in `input` every time. */
import type { CompletionRequest, FinishReason, Message, Provider, ProviderResponse, ToolCall, ToolChoice, ToolSpec } from "../types.js";
import { count, isRecord, joinUrl, malformed, parseArguments, postJson, toolParameters, type CallSite } from "./http.js";

/** How to reach the Responses API. */
export interface OpenAIResponsesOptions {
  model: string;
  /** E.g. https://api.openai.com/v1. */
  baseUrl: string;
  apiKey: string;
}

/** A Provider for the Responses API. */
export class OpenAIResponsesProvider implements Provider {
  readonly kind = "openai-responses";
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string;

  constructor(options: OpenAIResponsesOptions) {
    this.model = options.model;
    this.url = joinUrl(options.baseUrl, "responses");
    this.apiKey = options.apiKey;
  }

  /** Send one request and collect the text, tool calls and refusal from its output items. */
  async call(request: CompletionRequest, signal: AbortSignal): Promise<ProviderResponse> {
    const site: CallSite = { kind: this.kind, model: this.model, secret: this.apiKey };
    const headers = { authorization: `Bearer ${this.apiKey}` };
    const body = await postJson(site, this.url, headers, this.body(request), signal);
    return parseResponsesResponse(site, body);
  }

  private body(request: CompletionRequest): Record<string, unknown> {
    // Nothing is kept server-side: each call carries its full history, so storing it would only leak prompts.
    const body: Record<string, unknown> = { model: this.model, input: request.messages.flatMap(inputItems), store: false };
    if (request.tools?.length) {
      body.tools = request.tools.map(responsesTool);
      body.tool_choice = responsesToolChoice(request.toolChoice ?? "auto");
    }
    if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    return body;
  }
}

function inputItems(m: Message): Record<string, unknown>[] {
  switch (m.role) {
    case "system":
    case "user":
      return [{ type: "message", role: m.role, content: m.content }];
    case "assistant": {
      const items: Record<string, unknown>[] = m.content !== "" || !m.toolCalls?.length ? [{ type: "message", role: "assistant", content: m.content }] : [];
      for (const c of m.toolCalls ?? []) items.push({ type: "function_call", call_id: c.id, name: c.name, arguments: c.rawArguments });
      return items;
    }
    case "tool":
      return [{ type: "function_call_output", call_id: m.toolCallId, output: m.content }];
  }
}

function responsesTool(tool: ToolSpec): Record<string, unknown> {
  // Strict mode (the Responses default) rejects optional properties, which zod schemas often have.
  return { type: "function", name: tool.name, description: tool.description, parameters: toolParameters(tool), strict: false };
}

function responsesToolChoice(choice: ToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", name: choice.name };
}

/** Turn a Responses API reply body into a ProviderResponse. */
export function parseResponsesResponse(site: CallSite, body: unknown): ProviderResponse {
  if (!isRecord(body) || !Array.isArray(body.output)) malformed(site, "no output array", body);
  if (body.status === "failed") {
    const error = isRecord(body.error) ? body.error : {};
    malformed(site, `the response failed (${String(error.code ?? "no code")}: ${String(error.message ?? "no message")})`, body);
  }
  const texts: string[] = [];
  const refusals: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const item of body.output as unknown[]) {
    if (!isRecord(item)) continue;
    if (item.type === "message" && Array.isArray(item.content)) {
      for (const part of item.content) {
        if (!isRecord(part)) continue;
        if (part.type === "output_text" && typeof part.text === "string") texts.push(part.text);
        if (part.type === "refusal" && typeof part.refusal === "string") refusals.push(part.refusal);
      }
    } else if (item.type === "function_call") {
      const rawArguments = typeof item.arguments === "string" ? item.arguments : JSON.stringify(item.arguments ?? {});
      toolCalls.push({
        // call_id, not id, is what a function_call_output must answer.
        id: String(item.call_id ?? item.id ?? `call_${toolCalls.length}`),
        name: String(item.name ?? ""),
        arguments: parseArguments(rawArguments),
        rawArguments,
      });
    }
  }
  const usage = isRecord(body.usage) ? body.usage : {};
  const details = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const refusal = refusals.join("\n");
  const response: ProviderResponse = {
    text: texts.join(""),
    toolCalls,
    usage: {
      inputTokens: count(usage.input_tokens),
      outputTokens: count(usage.output_tokens),
      cachedInputTokens: count(details.cached_tokens),
    },
    finishReason: refusal ? "refusal" : responsesFinishReason(body, toolCalls.length > 0),
    model: typeof body.model === "string" && body.model !== "" ? body.model : site.model,
  };
  if (refusal) response.refusal = refusal;
  return response;
}

function responsesFinishReason(body: Record<string, unknown>, hasToolCalls: boolean): FinishReason {
  if (body.status === "incomplete") {
    const reason = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined;
    if (reason === "max_output_tokens") return "length";
    if (reason === "content_filter") return "content_filter";
    return "other";
  }
  if (hasToolCalls) return "tool_calls";
  return body.status === "completed" || body.status === undefined ? "stop" : "other";
}
