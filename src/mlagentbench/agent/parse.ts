/** Reading the research agent's answers: the response entries and the JSON action input, as leniently as the reference. */
import type { ActionInfo } from "../env/actions.js";

/** The entries a full research-agent answer has, in the order it must give them. */
export const RESPONSE_ENTRIES = ["Reflection", "Research Plan and Status", "Fact Check", "Thought", "Action", "Action Input"] as const;

/** Raised when an answer cannot be read; the message says what is wrong. */
export class ResponseFormatError extends Error {
  override name = "ResponseFormatError";
}

/**
 * Where the reference stops generation ("Observation:" is its stop sequence): the model must not
 * write the observation itself, so anything from the first "Observation:" on is dropped.
 */
export function cutAtObservation(completion: string): string {
  const i = completion.indexOf("Observation:");
  return i < 0 ? completion : completion.slice(0, i);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Split an answer into its entries. Each entry runs to the last place the next one's label occurs
 * (greedy, as the reference's pattern matches), so a label quoted inside an entry does not cut it short.
 */
export function parseEntries(text: string, entries: readonly string[]): Record<string, string> {
  const pattern = new RegExp(entries.map((e) => `${escapeRegExp(e.trim())}:([\\s\\S]*)`).join(""));
  const m = pattern.exec(text);
  if (!m) throw new ResponseFormatError(`the answer lacks one of the entries ${entries.join(", ")}, in this order`);
  return Object.fromEntries(entries.map((e, i) => [e, m[i + 1] ?? ""]));
}

/** Python's str.strip(chars): drop any of `chars` from both ends. */
function stripChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a]!)) a++;
  while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/**
 * Make near-JSON parse: escape backslashes, slashes and control characters, and newlines inside
 * string literals (models often write multi-line code into "content" unescaped).
 */
export function sanitizeJson(raw: string): string {
  let s = stripChars(stripChars(raw, "`json"), "`").trim();
  s = s
    .replace(/\\/g, "\\\\")
    .replace(/\//g, "\\/")
    .replace(/\x08/g, "\\b")
    .replace(/\f/g, "\\f")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t");
  return s.replace(/"([^"]*)"/g, (_m, inner: string) => `"${inner.replace(/\n/g, "\\n")}"`);
}

function sameKeys(d: Record<string, unknown>, info: ActionInfo): boolean {
  const want = Object.keys(info.usage);
  const have = Object.keys(d);
  return have.length === want.length && want.every((k) => Object.hasOwn(d, k));
}

function parseObject(s: string): Record<string, unknown> {
  const d: unknown = JSON.parse(s);
  if (d === null || typeof d !== "object" || Array.isArray(d)) throw new ResponseFormatError("the action input is not a JSON object");
  return d as Record<string, unknown>;
}

/** Last resort: pick `"key": value` pairs out of the braces in the order the action lists its inputs. */
export function matchActionInput(raw: string, info: ActionInfo): Record<string, string> {
  const keys = Object.keys(info.usage);
  let s = raw.slice(raw.indexOf("{") + 1);
  s = s.slice(0, s.lastIndexOf("}") < 0 ? s.length - 1 : s.lastIndexOf("}"));
  const pattern = new RegExp(keys.map((k) => `"${escapeRegExp(k)}":([\\s\\S]*)`).join(",\\s*"));
  const m = pattern.exec(s);
  if (!m) throw new ResponseFormatError("Invalid Format");
  return Object.fromEntries(keys.map((k, i) => [k, stripChars((m[i + 1] ?? "").trim(), '"')]));
}

/**
 * The action input as an object with exactly the action's keys: plain JSON, else sanitised JSON,
 * else key-by-key matching; the first error is reported when all three fail.
 */
export function parseActionInput(raw: string, info: ActionInfo): Record<string, unknown> {
  let firstError: Error;
  try {
    let d: Record<string, unknown>;
    try {
      d = parseObject(raw);
    } catch {
      d = parseObject(sanitizeJson(raw));
    }
    if (!sameKeys(d, info)) throw new ResponseFormatError(`Argument mismatch: expected the keys ${Object.keys(info.usage).join(", ")}`);
    return d;
  } catch (e) {
    firstError = e instanceof Error ? e : new Error(String(e));
  }
  try {
    return matchActionInput(raw, info);
  } catch {
    throw firstError;
  }
}
