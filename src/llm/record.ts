/**
 * Record and replay of LLM calls, so an agent run can be re-executed deterministically and
 * without network: each answer is stored under a hash of the request and how many times that
 * same request had been made before.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { summariseRequest, type RequestSummary } from "./call-log.js";
import type { CompletionRequest, ProviderResponse } from "./types.js";

/** What one recording file holds. */
export interface Recording {
  key: string;
  n: number;
  model: string;
  request: RequestSummary;
  response: ProviderResponse;
}

/** A replayed request that was never recorded (or was recorded fewer times). */
export class ReplayMissError extends Error {
  override name = "ReplayMissError";
  constructor(
    message: string,
    readonly dir: string,
    readonly key: string,
    readonly n: number,
  ) {
    super(message);
  }
}

/** JSON with object keys sorted at every level and undefined members dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** The recording key of a request: sha256 of the canonical JSON of the model string and the request summary. */
export function requestKey(model: string, request: CompletionRequest): string {
  return keyOf(model, summariseRequest(request));
}

function keyOf(model: string, summary: RequestSummary): string {
  return createHash("sha256").update(canonicalJson({ model, ...summary })).digest("hex");
}

/** Counts how often each key has been seen, so repeated identical requests map to files .0, .1, … */
class KeyCounter {
  private readonly seen = new Map<string, number>();

  next(key: string): number {
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    return n;
  }
}

function recordingPath(dir: string, key: string, n: number): string {
  return path.join(dir, `${key}.${n}.json`);
}

/** Writes each answer to `<dir>/<key>.<n>.json`. */
export class Recorder {
  private readonly counter = new KeyCounter();

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Store one answer; the file appears whole or not at all (temp file, then rename). */
  save(model: string, request: CompletionRequest, response: ProviderResponse): string {
    const summary = summariseRequest(request);
    const key = keyOf(model, summary);
    const n = this.counter.next(key);
    const recording: Recording = { key, n, model, request: summary, response };
    const file = recordingPath(this.dir, key, n);
    const tmp = path.join(this.dir, `.${key}.${n}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(recording, null, 2) + "\n");
    fs.renameSync(tmp, file);
    return file;
  }
}

/** Answers requests from a folder written by {@link Recorder}. */
export class Replayer {
  private readonly counter = new KeyCounter();

  constructor(readonly dir: string) {
    if (!fs.existsSync(dir)) throw new UserError(`The LLM replay folder ${dir} does not exist; record a run into it first.`);
  }

  /** The recorded answer for this request (its n-th occurrence), or ReplayMissError. */
  replay(model: string, request: CompletionRequest): ProviderResponse {
    const summary = summariseRequest(request);
    const key = keyOf(model, summary);
    const n = this.counter.next(key);
    const file = recordingPath(this.dir, key, n);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      throw new ReplayMissError(
        `No recorded LLM answer in ${this.dir} for this request (key ${key}, occurrence ${n}, model ${model}); ` +
          `the last user message began: ${JSON.stringify(lastUserExcerpt(request))}. ` +
          "The run asked for something the recording did not: the prompt, tools or settings differ, or the run made more calls.",
        this.dir,
        key,
        n,
      );
    }
    return (JSON.parse(text) as Recording).response;
  }
}

function lastUserExcerpt(request: CompletionRequest, max = 200): string {
  const last = [...request.messages].reverse().find((m) => m.role === "user");
  if (!last) return "";
  return last.content.length > max ? `${last.content.slice(0, max)}…` : last.content;
}
