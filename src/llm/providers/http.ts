/** What the three providers share: one JSON POST with uniform errors, tool schemas, tool-argument parsing. */
import { z } from "zod";
import { parseRetryAfter } from "../../core/retry.js";
import { LLMHttpError, type ToolSpec, type Usage } from "../types.js";

/** Longest piece of a response body kept in an error. */
export const BODY_EXCERPT_CHARS = 500;

/** A reply that arrived but cannot be understood (not JSON, or missing the fields every reply has). */
export class LLMResponseError extends Error {
  override name = "LLMResponseError";
}

/** Who is calling, for error messages; `secret` is scrubbed from anything a server echoes back. */
export interface CallSite {
  kind: string;
  model: string;
  secret?: string;
}

/** POST `body` as JSON to `url` and return the parsed JSON reply; every failure becomes an LLMHttpError or LLMResponseError. */
export async function postJson(
  site: CallSite,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const who = `${site.kind} model ${site.model}`;
  let status: number;
  let text: string;
  let retryAfter: string | null;
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal,
    });
    status = res.status;
    retryAfter = res.headers.get("retry-after");
    // Reading the body is inside the try: a timeout can fire while it streams in.
    text = await res.text();
  } catch (err) {
    throw networkError(who, url, err, signal);
  }
  const excerpt = scrub(text, site.secret).slice(0, BODY_EXCERPT_CHARS);
  if (status < 200 || status >= 300) {
    const detail = errorDetail(text);
    const message = `${who}: HTTP ${status} from ${url}${detail ? `: ${scrub(detail, site.secret)}` : ""}`;
    throw new LLMHttpError(message, status, parseRetryAfter(retryAfter), excerpt);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LLMResponseError(`${who}: the reply from ${url} is not valid JSON (HTTP ${status}): ${excerpt || "(empty body)"}`);
  }
}

function networkError(who: string, url: string, err: unknown, signal: AbortSignal): LLMHttpError {
  let reason: string;
  if (signal.aborted) {
    const r = signal.reason as { name?: string } | undefined;
    reason = r?.name === "TimeoutError" ? "timed out" : "was aborted";
  } else {
    // undici hides the useful part (ECONNREFUSED, ENOTFOUND, ...) in `cause`.
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    reason = `failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`;
  }
  const out = new LLMHttpError(`${who}: request to ${url} ${reason}`, 0);
  out.cause = err;
  return out;
}

/** The provider's own error message from a JSON error body (OpenAI and Anthropic both use `error.message`). */
function errorDetail(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    return typeof m === "string" ? m.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

function scrub(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join("[redacted]") : text;
}

/** A tool's parameters as JSON Schema, describing what the model must write (zod's input side). */
export function toolParameters(tool: ToolSpec): Record<string, unknown> {
  let schema: Record<string, unknown>;
  try {
    schema = z.toJSONSchema(tool.parameters, { io: "input" }) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`tool ${tool.name}: its parameters cannot be written as JSON Schema: ${(err as Error).message}`);
  }
  // Some providers reject the meta-schema key; it says nothing the model needs.
  delete schema.$schema;
  return schema;
}

/** Parse tool-call arguments; text that is not JSON is returned as is so the caller can report it. */
export function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** A non-negative integer token count, or 0 when the provider left it out. */
export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Zero usage, for replies that report none. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
}

/** A plain object (not null, not an array), for poking at untyped JSON. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Throw a clear error for a reply that lacks something every reply of this API has. */
export function malformed(site: CallSite, what: string, body: unknown): never {
  const excerpt = scrub(JSON.stringify(body) ?? String(body), site.secret).slice(0, BODY_EXCERPT_CHARS);
  throw new LLMResponseError(`${site.kind} model ${site.model}: unexpected reply, ${what}: ${excerpt}`);
}

/** Join a base URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
