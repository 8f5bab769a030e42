/** Per-run limits on LLM use, and the running totals they are checked against. */
import type { CompletionResult } from "./types.js";

/** Limits for one run; an absent limit is no limit. */
export interface BudgetLimits {
  /** Input plus output tokens. */
  maxTokens?: number;
  maxCostUsd?: number;
  maxCalls?: number;
}

/** What a run has used so far. */
export interface BudgetTotals {
  /** Calls that reached a provider, successful or not. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Sum of the known costs; calls without a price add nothing (see unpricedCalls). */
  costUsd: number;
  /** Successful calls whose model has no price, so costUsd understates the spend. */
  unpricedCalls: number;
  /** Attempts beyond the first, over all calls. */
  retries: number;
  failures: number;
}

/** A limit was reached before a call. */
export class BudgetExceededError extends Error {
  override name = "BudgetExceededError";
  constructor(
    message: string,
    readonly limit: keyof BudgetLimits,
    readonly totals: BudgetTotals,
  ) {
    super(message);
  }
}

/**
 * Counts a run's calls, tokens and cost, and refuses a call once a limit is reached. Usage is only
 * known after a call, so concurrent calls can together overshoot a limit by what they use.
 */
export class RunBudget {
  private readonly used: BudgetTotals = {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: 0,
    unpricedCalls: 0,
    retries: 0,
    failures: 0,
  };

  constructor(readonly limits: BudgetLimits = {}) {
    for (const [name, value] of Object.entries(limits)) {
      if (value !== undefined && !(typeof value === "number" && value >= 0)) {
        throw new RangeError(`Budget limit ${name} must be a non-negative number, got ${String(value)}.`);
      }
    }
  }

  /** A copy of the running totals. */
  totals(): BudgetTotals {
    return { ...this.used };
  }

  /** Throw BudgetExceededError when another call would go past a limit. */
  check(): void {
    const { maxCalls, maxTokens, maxCostUsd } = this.limits;
    const t = this.used;
    if (maxCalls !== undefined && t.calls >= maxCalls) this.exceeded("maxCalls", `${t.calls} of ${maxCalls} calls made`);
    const tokens = t.inputTokens + t.outputTokens;
    if (maxTokens !== undefined && tokens >= maxTokens) this.exceeded("maxTokens", `${tokens} of ${maxTokens} tokens used`);
    if (maxCostUsd !== undefined && t.costUsd >= maxCostUsd) {
      this.exceeded("maxCostUsd", `${usd(t.costUsd)} of ${usd(maxCostUsd)} spent`);
    }
  }

  /** Count a completed call. */
  add(result: Pick<CompletionResult, "usage" | "costUsd" | "attempts">): void {
    const t = this.used;
    t.calls += 1;
    t.inputTokens += result.usage.inputTokens;
    t.outputTokens += result.usage.outputTokens;
    t.cachedInputTokens += result.usage.cachedInputTokens;
    if (result.costUsd === null) t.unpricedCalls += 1;
    else t.costUsd += result.costUsd;
    t.retries += Math.max(0, result.attempts - 1);
  }

  /** Count a call that failed after `attempts` attempts (0 when it never reached the provider). */
  addFailure(attempts: number): void {
    const t = this.used;
    t.calls += 1;
    t.failures += 1;
    t.retries += Math.max(0, attempts - 1);
  }

  private exceeded(limit: keyof BudgetLimits, what: string): never {
    const t = this.used;
    const unpriced = t.unpricedCalls ? `, ${t.unpricedCalls} calls without a price` : "";
    throw new BudgetExceededError(
      `LLM budget exhausted: ${limit} reached (${what}). Totals so far: ${t.calls} calls (${t.failures} failed, ${t.retries} retries), ` +
        `${t.inputTokens} input + ${t.outputTokens} output tokens, ${usd(t.costUsd)}${unpriced}.`,
      limit,
      this.totals(),
    );
  }
}

function usd(amount: number): string {
  return `$${Number(amount.toFixed(6))}`;
}
