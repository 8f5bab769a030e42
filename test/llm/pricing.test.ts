import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { costOf, DEFAULT_PRICES, loadPrices, priceOf } from "../../src/llm/pricing.js";

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-llm-prices-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("price lookup", () => {
  it("lists every common model", () => {
    const models = [
      "gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o1", "o1-mini", "o3", "o3-mini", "o4-mini",
      "claude-3-5-haiku", "claude-3-5-sonnet", "claude-3-7-sonnet", "claude-sonnet-4", "claude-opus-4",
    ];
    for (const m of models) expect(DEFAULT_PRICES[m], m).toBeDefined();
  });

  it("matches the longest known prefix, so dated snapshots find their model", () => {
    expect(priceOf("gpt-4o-2024-08-06")).toEqual(DEFAULT_PRICES["gpt-4o"]);
    expect(priceOf("gpt-4o-mini-2024-07-18")).toEqual(DEFAULT_PRICES["gpt-4o-mini"]);
    expect(priceOf("gpt-4.1-nano-2025-04-14")).toEqual(DEFAULT_PRICES["gpt-4.1-nano"]);
    expect(priceOf("o3-mini-2025-01-31")).toEqual(DEFAULT_PRICES["o3-mini"]);
    expect(priceOf("o3-2025-04-16")).toEqual(DEFAULT_PRICES.o3);
    expect(priceOf("claude-3-5-haiku-20241022")).toEqual(DEFAULT_PRICES["claude-3-5-haiku"]);
    expect(priceOf("claude-sonnet-4-20250514")).toEqual(DEFAULT_PRICES["claude-sonnet-4"]);
    expect(priceOf("claude-opus-4-1-20250805")).toEqual(DEFAULT_PRICES["claude-opus-4"]);
    expect(priceOf("GPT-4O")).toEqual(DEFAULT_PRICES["gpt-4o"]);
  });

  it("knows nothing of unknown and compat models", () => {
    expect(priceOf("llama3")).toBeNull();
    expect(priceOf("compat/gpt-4o")).toBeNull();
    expect(costOf("mistral-large", { inputTokens: 100, outputTokens: 100, cachedInputTokens: 0 })).toBeNull();
  });
});

describe("costOf", () => {
  it("bills uncached input, cached input and output at their rates", () => {
    // (900 × $2.50 + 100 × $1.25 + 50 × $10) / 1M
    expect(costOf("gpt-4o-2024-08-06", { inputTokens: 1000, outputTokens: 50, cachedInputTokens: 100 })).toBeCloseTo(0.002875, 15);
    expect(costOf("claude-sonnet-4-20250514", { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 0 })).toBeCloseTo(18, 12);
    expect(costOf("gpt-4o-mini", { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 })).toBe(0);
  });

  it("never bills more cached tokens than input tokens", () => {
    expect(costOf("gpt-4o", { inputTokens: 100, outputTokens: 0, cachedInputTokens: 500 })).toBeCloseTo(100 * 1.25e-6, 15);
  });
});

describe("loadPrices", () => {
  it("overrides and extends the built-in table; cachedInput defaults to input", () => {
    const file = write("prices.json", {
      "gpt-4o": { input: 1, cachedInput: 0.5, output: 4 },
      "compat/llama3": { input: 0.2, output: 0.4 },
    });
    const table = loadPrices(file);
    expect(table["gpt-4o"]).toEqual({ input: 1, cachedInput: 0.5, output: 4 });
    expect(table["compat/llama3"]).toEqual({ input: 0.2, cachedInput: 0.2, output: 0.4 });
    expect(table["gpt-4o-mini"]).toEqual(DEFAULT_PRICES["gpt-4o-mini"]);
    expect(costOf("compat/llama3@http://127.0.0.1:8000/v1", { inputTokens: 1e6, outputTokens: 1e6, cachedInputTokens: 0 }, table)).toBeCloseTo(0.6, 12);
    expect(DEFAULT_PRICES["gpt-4o"].input).toBe(2.5);
  });

  it("names the file and the entry when an entry is wrong", () => {
    const file = write("bad-entry.json", { "gpt-4o": { input: 1, output: 4 }, "my-model": { input: "cheap", output: 1 } });
    const err = (() => {
      try {
        loadPrices(file);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(UserError);
    expect(err?.message).toContain(file);
    expect(err?.message).toContain('"my-model"');
    expect(err?.message).toContain("input");
    expect(() => loadPrices(write("neg.json", { x: { input: -1, output: 1 } }))).toThrow(/bad entry "x": input/);
    expect(() => loadPrices(write("extra.json", { x: { input: 1, output: 1, outptu: 2 } }))).toThrow(/bad entry "x".*outptu/);
  });

  it("explains files that are not a JSON object of prices", () => {
    expect(() => loadPrices(write("broken.json", "{ not json"))).toThrow(/Cannot read the price file .*broken\.json/);
    expect(() => loadPrices(write("array.json", [1, 2]))).toThrow(/array\.json must be a JSON object/);
    expect(() => loadPrices(path.join(tmp, "missing.json"))).toThrow(/Cannot read the price file .*missing\.json/);
  });
});
