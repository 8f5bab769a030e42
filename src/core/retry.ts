/** One retry policy for the HTTP sources (Kaggle's API, upstream's repository and LFS host). */
import { setTimeout as sleep } from "node:timers/promises";

/** How often and how patiently to retry. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff delay; each retry doubles it. */
  backoffMs: number;
  /** No single wait is longer, whatever a server's Retry-After says. */
  maxDelayMs: number;
  /** Add up to 50% random jitter to backoff delays. */
  jitter: boolean;
}

/** How a caller's error handling plugs into {@link withRetries}. */
export interface RetryHooks {
  /** null when retrying cannot help; else the server's requested wait (null if it gave none). */
  classify(err: unknown): { retryAfterMs: number | null } | null;
  /** The error to throw for a failure that is not worth retrying. */
  notRetryable(err: unknown): unknown;
  /** The error to throw once every attempt failed. */
  exhausted(err: unknown, attempts: number): unknown;
  /** Told before each wait, e.g. to say why a download pauses. */
  onRetry?(err: unknown, attempt: number, delayMs: number): void;
}

/** Milliseconds to wait from a Retry-After header: seconds (fractions tolerated) or an HTTP date; null if absent. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const t = value.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const date = Date.parse(t);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before retry `attempt` (0-based): a server's Retry-After, else exponential backoff, capped. */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxDelayMs);
  const base = Math.min(policy.backoffMs * 2 ** attempt, policy.maxDelayMs);
  // Jitter spreads out clients that failed together so they do not retry in lockstep.
  return policy.jitter ? Math.round(base * (1 + Math.random() * 0.5)) : base;
}

/** Run `attempt` until it succeeds, fails in a way retrying cannot help, or runs out of retries. */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy, hooks: RetryHooks): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const verdict = hooks.classify(err);
      if (verdict === null) throw hooks.notRetryable(err);
      if (n >= policy.retries) throw hooks.exhausted(err, n + 1);
      const delay = retryDelay(policy, n, verdict.retryAfterMs);
      hooks.onRetry?.(err, n + 1, delay);
      await sleep(delay);
    }
  }
}
