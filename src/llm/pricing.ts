/** What LLM calls cost: a table of list prices that users can override, and the cost of one call. */
import fs from "node:fs";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import type { Usage } from "./types.js";

/** USD per 1M tokens. */
export interface Price {
  input: number;
  /** Input tokens served from the prompt cache. */
  cachedInput: number;
  output: number;
}

/** Model name (or name prefix) → price. */
export type PriceTable = Readonly<Record<string, Price>>;

/**
 * Public list prices (USD per 1M tokens). Entries are name prefixes, so dated snapshots such as
 * gpt-4o-2024-08-06 match "gpt-4o". Some longer names are listed because their price differs from
 * the shorter prefix they would otherwise match (o1-pro vs o1, claude-opus-4-5 vs claude-opus-4).
 * Models reached through `compat/` never match these: they are looked up as "compat/<model>".
 */
export const DEFAULT_PRICES: PriceTable = {
  // OpenAI
  "gpt-4o": { input: 2.5, cachedInput: 1.25, output: 10 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, output: 0.6 },
  "gpt-4.1": { input: 2, cachedInput: 0.5, output: 8 },
  "gpt-4.1-mini": { input: 0.4, cachedInput: 0.1, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, cachedInput: 0.025, output: 0.4 },
  "gpt-5": { input: 1.25, cachedInput: 0.125, output: 10 },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, output: 2 },
  "gpt-5-nano": { input: 0.05, cachedInput: 0.005, output: 0.4 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  "o1-mini": { input: 1.1, cachedInput: 0.55, output: 4.4 },
  "o1-pro": { input: 150, cachedInput: 150, output: 600 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  "o3-mini": { input: 1.1, cachedInput: 0.55, output: 4.4 },
  "o3-pro": { input: 20, cachedInput: 20, output: 80 },
  "o4-mini": { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // Anthropic (cachedInput is the cache-read rate)
  "claude-3-5-haiku": { input: 0.8, cachedInput: 0.08, output: 4 },
  "claude-3-5-sonnet": { input: 3, cachedInput: 0.3, output: 15 },
  "claude-3-7-sonnet": { input: 3, cachedInput: 0.3, output: 15 },
  "claude-sonnet-4": { input: 3, cachedInput: 0.3, output: 15 },
  "claude-opus-4": { input: 15, cachedInput: 1.5, output: 75 },
  "claude-opus-4-5": { input: 5, cachedInput: 0.5, output: 25 },
  "claude-haiku-4-5": { input: 1, cachedInput: 0.1, output: 5 },
};

const rate = z.number().finite().nonnegative();
const priceEntry = z.strictObject({ input: rate, cachedInput: rate.optional(), output: rate });
const priceFile = z.record(z.string().min(1), z.unknown());

/**
 * Read a JSON file of prices ({"<model prefix>": {input, cachedInput?, output}}, USD per 1M tokens)
 * and lay it over `base`; cachedInput defaults to input.
 */
export function loadPrices(file: string, base: PriceTable = DEFAULT_PRICES): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new UserError(`Cannot read the price file ${file}: ${(err as Error).message}`);
  }
  const top = priceFile.safeParse(raw);
  if (!top.success) {
    throw new UserError(
      `The price file ${file} must be a JSON object mapping model names to {"input", "cachedInput", "output"} (USD per 1M tokens).`,
    );
  }
  const table: Record<string, Price> = { ...base };
  for (const [name, value] of Object.entries(top.data)) {
    const entry = priceEntry.safeParse(value);
    if (!entry.success) {
      const issues = entry.error.issues.map((i) => `${i.path.length ? i.path.join(".") + ": " : ""}${i.message}`).join("; ");
      throw new UserError(`The price file ${file} has a bad entry "${name}": ${issues} (expected {"input", "cachedInput"?, "output"}, USD per 1M tokens).`);
    }
    const { input, cachedInput, output } = entry.data;
    table[name] = { input, cachedInput: cachedInput ?? input, output };
  }
  return table;
}

/** The price of the longest table entry that `model` starts with (case-insensitive), or null. */
export function priceOf(model: string, prices: PriceTable = DEFAULT_PRICES): Price | null {
  const name = model.toLowerCase();
  let best: string | null = null;
  for (const key of Object.keys(prices)) {
    if (name.startsWith(key.toLowerCase()) && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? null : prices[best];
}

/**
 * USD for one call, or null when the model has no price. `usage.inputTokens` includes the cached
 * ones, which are billed at the cached rate instead.
 */
export function costOf(model: string, usage: Usage, prices: PriceTable = DEFAULT_PRICES): number | null {
  const price = priceOf(model, prices);
  if (price === null) return null;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const micro = (usage.inputTokens - cached) * price.input + cached * price.cachedInput + usage.outputTokens * price.output;
  return micro / 1e6;
}
