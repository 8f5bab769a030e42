/**
 * The one interface every agent and judge talks to an LLM through, whatever the provider:
 * OpenAI (Chat Completions or Responses), Anthropic (Messages) or any OpenAI-compatible server.
 */
import type { z } from "zod";

/** A tool call the model asked for; `arguments` is the parsed JSON (or the raw text when it is not JSON). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
  /** The arguments exactly as the model wrote them. */
  rawArguments: string;
}

/** One message of a conversation, in provider-neutral form. */
export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

/** A function the model may call; its parameters are described by a zod object schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: z.ZodType;
}

/** "auto": the model chooses; "required": some tool; { name }: exactly that tool (a forced call). */
export type ToolChoice = "auto" | "required" | { name: string };

/** What one completion asks for. */
export interface CompletionRequest {
  messages: Message[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  /** Per-call timeout; the client's default otherwise. */
  timeoutMs?: number;
}

/** Tokens one call used, as the provider reported them. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (billed at the cached rate), when reported. */
  cachedInputTokens: number;
}

/** Why the model stopped, normalised across providers. */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "refusal" | "other";

/** A provider's answer, before the client adds cost and timing. */
export interface ProviderResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: FinishReason;
  /** The model name the provider says answered (may differ from the one asked for). */
  model: string;
  /** The refusal text, when the model refused (OpenAI reports it apart from the content). */
  refusal?: string;
}

/** A completed call as agents see it. */
export interface CompletionResult extends ProviderResponse {
  latencyMs: number;
  /** USD, from the price table; null when the model has no known price. */
  costUsd: number | null;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

/** The interface every agent and judge uses. */
export interface LLMClient {
  /** The model string it was made from, e.g. "openai/gpt-4o". */
  readonly model: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

/** A provider: turns a request into one HTTP exchange (no retries, no accounting). */
export interface Provider {
  /** "openai", "openai-responses", "anthropic" or "compat". */
  readonly kind: string;
  /** The model name sent to the provider. */
  readonly model: string;
  call(request: CompletionRequest, signal: AbortSignal): Promise<ProviderResponse>;
}

/** An HTTP failure from a provider: status (0 for network errors and timeouts), body excerpt, Retry-After. */
export class LLMHttpError extends Error {
  override name = "LLMHttpError";
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterMs: number | null = null,
    readonly body = "",
  ) {
    super(message);
  }
}
