/**
 * The LLM client agents use: a provider wrapped with a per-call timeout, retries, a run budget,
 * cost accounting, a call log and record/replay.
 */
import { UserError } from "../core/errors.js";
import { withRetries, type RetryPolicy } from "../core/retry.js";
import { RunBudget, type BudgetLimits, type BudgetTotals } from "./budget.js";
import { CallLog, summariseRequest, type CallLogEntry } from "./call-log.js";
import { createProvider, parseModel } from "./model.js";
import { costOf, DEFAULT_PRICES, type PriceTable } from "./pricing.js";
import { Recorder, Replayer } from "./record.js";
import { LLMHttpError, type CompletionRequest, type CompletionResult, type LLMClient, type Provider, type ProviderResponse } from "./types.js";

/** How a client is put together; everything is optional. */
export interface ClientOptions {
  /** Use this provider instead of the one the model string names (tests). */
  provider?: Provider;
  /** Where keys and base URLs come from; process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** Per-call timeout in ms (default 600 000); a request's own timeoutMs wins. */
  timeoutMs?: number;
  /** Overrides of the retry policy (default 5 retries, 1 s backoff doubling, 60 s cap, jitter). */
  retry?: Partial<RetryPolicy>;
  /** Limits, or a budget shared with other clients of the same run. */
  budget?: RunBudget | BudgetLimits;
  /** Price table; the built-in list prices by default. */
  prices?: PriceTable;
  /** Append one JSON line per call to this file. */
  logFile?: string;
  /** Save every answer under this folder. */
  recordDir?: string;
  /** Answer every call from recordings in this folder, with no network. */
  replayDir?: string;
  /** Told before each retry wait. */
  onRetry?: (info: { model: string; attempt: number; delayMs: number; reason: string }) => void;
}

/** The default retry policy for LLM calls. */
export const DEFAULT_LLM_RETRY: RetryPolicy = { retries: 5, backoffMs: 1000, maxDelayMs: 60_000, jitter: true };

/** The default per-call timeout. */
export const DEFAULT_LLM_TIMEOUT_MS = 600_000;

/** An LLM client for a model string such as "openai/gpt-4o", with accounting; see {@link ClientOptions}. */
export function createClient(spec: string, options: ClientOptions = {}): LLMClient & { totals(): BudgetTotals; readonly budget: RunBudget } {
  if (options.recordDir !== undefined && options.replayDir !== undefined) {
    throw new UserError("LLM record and replay cannot be used together: choose one folder to record into or to replay from.");
  }
  const replayer = options.replayDir !== undefined ? new Replayer(options.replayDir) : null;
  // A replay needs neither key nor network, so it does not build the real provider.
  const provider = options.provider ?? (replayer ? replayStandIn(spec) : createProvider(spec, options.env));
  const recorder = options.recordDir !== undefined ? new Recorder(options.recordDir) : null;
  const log = options.logFile !== undefined ? new CallLog(options.logFile) : null;
  const budget = options.budget instanceof RunBudget ? options.budget : new RunBudget(options.budget ?? {});
  const prices = options.prices ?? DEFAULT_PRICES;
  const policy: RetryPolicy = { ...DEFAULT_LLM_RETRY, ...options.retry };
  const defaultTimeout = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;

  async function callProvider(request: CompletionRequest, count: () => void): Promise<ProviderResponse> {
    const timeoutMs = request.timeoutMs ?? defaultTimeout;
    return withRetries(
      () => {
        count();
        return withTimeout(provider, request, timeoutMs);
      },
      policy,
      {
        classify: retryable,
        notRetryable: (err) => err,
        exhausted: (err, attempts) => gaveUp(spec, err, attempts),
        onRetry: (err, attempt, delayMs) => options.onRetry?.({ model: spec, attempt, delayMs, reason: (err as Error).message }),
      },
    );
  }

  async function complete(request: CompletionRequest): Promise<CompletionResult> {
    budget.check();
    const started = performance.now();
    let attempts = 0;
    const entry = (fields: Partial<CallLogEntry>): CallLogEntry => ({
      time: new Date().toISOString(),
      model: spec,
      request: summariseRequest(request),
      response: null,
      usage: null,
      latencyMs: Math.round(performance.now() - started),
      costUsd: null,
      attempts,
      error: null,
      source: replayer ? "replay" : "provider",
      ...fields,
    });
    let response: ProviderResponse;
    try {
      if (replayer) {
        attempts = 1;
        response = replayer.replay(spec, request);
      } else {
        response = await callProvider(request, () => attempts++);
        recorder?.save(spec, request, response);
      }
    } catch (err) {
      budget.addFailure(attempts);
      log?.append(entry({ error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
      throw err;
    }
    const result: CompletionResult = {
      ...response,
      latencyMs: performance.now() - started,
      costUsd: priceCall(provider, response, prices),
      attempts,
    };
    budget.add(result);
    const { text, toolCalls, finishReason, refusal, model } = response;
    log?.append(
      entry({
        response: { text, toolCalls, finishReason, ...(refusal !== undefined ? { refusal } : {}), model },
        usage: response.usage,
        latencyMs: Math.round(result.latencyMs),
        costUsd: result.costUsd,
      }),
    );
    return result;
  }

  return { model: spec, budget, complete, totals: () => budget.totals() };
}

/** The cost of one answer: by the model that answered, else the one asked for; compat models as "compat/<model>". */
function priceCall(provider: Provider, response: ProviderResponse, prices: PriceTable): number | null {
  if (provider.kind === "compat") return costOf(`compat/${provider.model}`, response.usage, prices);
  return costOf(response.model || provider.model, response.usage, prices) ?? costOf(provider.model, response.usage, prices);
}

/** Run one provider call, abandoning it after `timeoutMs` even if the provider ignores its signal. */
async function withTimeout(provider: Provider, request: CompletionRequest, timeoutMs: number): Promise<ProviderResponse> {
  const signal = AbortSignal.timeout(timeoutMs);
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    onAbort = () => reject(new LLMHttpError(`${provider.kind} model ${provider.model}: no answer within ${timeoutMs} ms`, 0));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([provider.call(request, signal), timedOut]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

/** Rate limits, server errors, network failures and timeouts are worth retrying; the rest are not. */
function retryable(err: unknown): { retryAfterMs: number | null } | null {
  if (err instanceof LLMHttpError) {
    const s = err.status;
    return s === 0 || s === 429 || s >= 500 ? { retryAfterMs: err.retryAfterMs } : null;
  }
  return null;
}

function gaveUp(spec: string, err: unknown, attempts: number): unknown {
  const reason = err instanceof Error ? err.message : String(err);
  const message = `${spec}: gave up after ${attempts} attempts; last error: ${reason}`;
  if (!(err instanceof LLMHttpError)) return new Error(message, { cause: err });
  const out = new LLMHttpError(message, err.status, err.retryAfterMs, err.body);
  out.cause = err;
  return out;
}

/** Stands in for the provider during a replay, which never calls it. */
function replayStandIn(spec: string): Provider {
  const { kind, model } = parseModel(spec);
  return {
    kind,
    model,
    call: () => Promise.reject(new Error(`${spec} is being replayed; no provider call should happen.`)),
  };
}
