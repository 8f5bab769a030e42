import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryDelay, withRetries, type RetryHooks } from "../../src/core/retry.js";

const POLICY = { retries: 2, backoffMs: 10, maxDelayMs: 35, jitter: false };

function hooks(log: string[]): RetryHooks {
  return {
    classify: (err) => ((err as Error).message.startsWith("transient") ? { retryAfterMs: null } : null),
    notRetryable: (err) => new Error(`fatal: ${(err as Error).message}`),
    exhausted: (err, attempts) => new Error(`gave up after ${attempts}: ${(err as Error).message}`),
    onRetry: (_err, attempt, delay) => log.push(`${attempt}@${delay}`),
  };
}

describe("retry policy", () => {
  it("doubles the backoff, caps it, and lets Retry-After win up to the cap", () => {
    expect([0, 1, 2, 3].map((n) => retryDelay(POLICY, n, null))).toEqual([10, 20, 35, 35]);
    expect(retryDelay(POLICY, 0, 5)).toBe(5);
    expect(retryDelay(POLICY, 0, 60_000)).toBe(35);
    const jittered = retryDelay({ ...POLICY, jitter: true }, 1, null);
    expect(jittered).toBeGreaterThanOrEqual(20);
    expect(jittered).toBeLessThanOrEqual(30);
  });

  it("parses Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(" 0.25 ")).toBe(250);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it("retries transient failures, then gives up with the caller's error", async () => {
    const log: string[] = [];
    let calls = 0;
    const ok = await withRetries(async () => (++calls < 3 ? Promise.reject(new Error("transient blip")) : "done"), POLICY, hooks(log));
    expect(ok).toBe("done");
    expect(log).toEqual(["1@10", "2@20"]);
    calls = 0;
    await expect(withRetries(async () => (calls++, Promise.reject(new Error("transient again"))), POLICY, hooks([]))).rejects.toThrow(
      "gave up after 3: transient again",
    );
    expect(calls).toBe(3);
  });

  it("does not retry what retrying cannot help", async () => {
    let calls = 0;
    await expect(withRetries(async () => (calls++, Promise.reject(new Error("401"))), POLICY, hooks([]))).rejects.toThrow("fatal: 401");
    expect(calls).toBe(1);
  });
});
