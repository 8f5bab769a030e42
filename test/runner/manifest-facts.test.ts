import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { CATALOG_SOURCE } from "../../src/competitions/catalog.js";
import { dataInfo, hardwareInfo, llmUse, networkUse, sha256File, validationUse } from "../../src/runner/manifest-facts.js";
import { MAX_COST_POINTS, treeSha256 } from "../../src/results/manifest.js";
import { tempDir } from "../helpers/data-dir.js";

const lines = (dir: string, name: string, rows: (object | string)[]) => {
  const f = path.join(dir, name);
  fs.writeFileSync(f, rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  return f;
};

describe("manifest facts", () => {
  const dir = tempDir("manifest-facts-");

  it("sums calls, tokens and cost per model from the call log", () => {
    const usage = (i: number, o: number, c = 0) => ({ inputTokens: i, outputTokens: o, cachedInputTokens: c });
    const log = lines(dir, "llm.jsonl", [
      { model: "openai/gpt-4o", usage: usage(1000, 100, 400), costUsd: 0.00375, error: null },
      { model: "openai/gpt-4o", usage: usage(500, 50), costUsd: 0.00175, error: null },
      { model: "openai/gpt-4o", usage: null, costUsd: null, error: "HTTP 500" },
      { model: "compat/local@http://127.0.0.1:1/v1", usage: usage(10, 1), costUsd: null, error: null },
      "{not json",
    ]);
    const models = llmUse(log, 0).models;
    expect(models).toHaveLength(2);
    expect(models[0]).toEqual({ model: "compat/local@http://127.0.0.1:1/v1", calls: 1, failed_calls: 0, input_tokens: 10, output_tokens: 1, cached_input_tokens: 0, cost_usd: null, unpriced_calls: 1 });
    expect(models[1]).toMatchObject({ model: "openai/gpt-4o", calls: 3, failed_calls: 1, input_tokens: 1500, output_tokens: 150, cached_input_tokens: 400, unpriced_calls: 0 });
    expect(models[1].cost_usd).toBeCloseTo(0.0055, 12);
    expect(llmUse(path.join(dir, "absent.jsonl"), 0)).toEqual({ models: [], curve: [] });
  });

  it("gives the cumulative cost of priced calls over the run, thinned with its last point kept", () => {
    const start = Date.parse("2026-01-01T00:00:00.000Z");
    const at = (s: number) => new Date(start + s * 1000).toISOString();
    const log = lines(dir, "costs.jsonl", [
      { time: at(10), model: "m", costUsd: 0.5 },
      { time: at(20), model: "m", costUsd: null },
      { time: at(30.255), model: "m", costUsd: 0.25 },
      { time: at(40), model: "m", costUsd: 0 },
    ]);
    expect(llmUse(log, start).curve).toEqual([
      { elapsed_seconds: 10, cost_usd: 0.5 },
      { elapsed_seconds: 30.26, cost_usd: 0.75 },
    ]);
    const many = lines(dir, "many.jsonl", Array.from({ length: 2500 }, (_, i) => ({ time: at(i + 1), model: "m", costUsd: 0.001 })));
    const thinned = llmUse(many, start).curve;
    expect(thinned).toHaveLength(MAX_COST_POINTS);
    expect(thinned[thinned.length - 1]).toEqual({ elapsed_seconds: 2500, cost_usd: expect.closeTo(2.5, 9) });
    expect(thinned.every((p, i) => i === 0 || p.elapsed_seconds > thinned[i - 1].elapsed_seconds)).toBe(true);
  });

  it("counts the egress proxy's decisions per host and port", () => {
    const log = lines(dir, "egress.jsonl", [
      { time: "t", host: "api.openai.com", port: 443, allowed: true },
      { time: "t", host: "api.openai.com", port: 443, allowed: true },
      { time: "t", host: "pypi.org", port: 443, allowed: false },
      { time: "t", host: "api.openai.com", port: 80, allowed: false },
      "half a li",
    ]);
    expect(networkUse(log, ["api.openai.com"])).toEqual({
      mode: "proxy",
      allowed_hosts: ["api.openai.com"],
      connections: [
        { host: "api.openai.com", port: 80, allowed: false, count: 1 },
        { host: "api.openai.com", port: 443, allowed: true, count: 2 },
        { host: "pypi.org", port: 443, allowed: false, count: 1 },
      ],
      blocked_attempts: 2,
      unreadable_lines: 1,
    });
    expect(networkUse(path.join(dir, "none.jsonl"), [])).toEqual({ mode: "none", allowed_hosts: [], connections: [], blocked_attempts: 0, unreadable_lines: 0 });
  });

  it("lists the validation server's answers with their times from the start of the run", () => {
    const start = Date.parse("2026-01-01T00:00:00.000Z");
    const log = lines(dir, "validation.jsonl", [
      { time: "2026-01-01T00:01:30.250Z", route: "/validate", status: 200, bytes: 300, valid: true, sha256: "ab", lines: 10, changed_lines: null },
      { time: "2026-01-01T00:02:00.000Z", route: "/validate", status: 200, bytes: 300, valid: false, sha256: "cd", lines: 10, changed_lines: 1 },
      { time: "2026-01-01T00:03:00.000Z", route: "/health", status: 200, bytes: 0, valid: null },
    ]);
    expect(validationUse(log, start)).toEqual({
      calls: 3,
      valid: 1,
      invalid: 1,
      unreadable_lines: 0,
      log: [
        { time: "2026-01-01T00:01:30.250Z", elapsed_seconds: 90.25, route: "/validate", status: 200, valid: true, bytes: 300, sha256: "ab", lines: 10, changed_lines: null },
        { time: "2026-01-01T00:02:00.000Z", elapsed_seconds: 120, route: "/validate", status: 200, valid: false, bytes: 300, sha256: "cd", lines: 10, changed_lines: 1 },
        { time: "2026-01-01T00:03:00.000Z", elapsed_seconds: 180, route: "/health", status: 200, valid: null, bytes: 0, sha256: null, lines: null, changed_lines: null },
      ],
    });
  });

  it("gives the share of the machine a run had", () => {
    const h = hardwareInfo({ cpus: 1, memoryBytes: 2 ** 30, diskBytes: null }, []);
    expect(h).toMatchObject({ host_cpus: os.availableParallelism(), host_memory_bytes: os.totalmem(), cpus_given: 1, memory_limit_bytes: 2 ** 30, disk_limit_bytes: null, gpus: [] });
    expect(hardwareInfo({ cpus: null, memoryBytes: null, diskBytes: null }, []).cpus_given).toBe(os.availableParallelism());
  });

  it("hashes the prepared data and the leaderboard, and names a Kaggle competition's upstream", () => {
    const data = tempDir("manifest-data-");
    const root = path.join(data, "spaceship-titanic");
    fs.mkdirSync(path.join(root, "prepared", "public"), { recursive: true });
    fs.mkdirSync(path.join(root, "prepared", "private"), { recursive: true });
    fs.writeFileSync(path.join(root, "prepared", "public", "train.csv"), "a\n1\n");
    fs.writeFileSync(path.join(root, "prepared", "private", "test.csv"), "a\n2\n");
    fs.writeFileSync(path.join(root, "leaderboard.csv"), "score\n1\n");
    fs.symlinkSync("/etc/passwd", path.join(root, "prepared", "public", "link"));
    const info = dataInfo(getCompetition("spaceship-titanic"), data);
    const files = {
      "prepared/private/test.csv": sha256File(path.join(root, "prepared", "private", "test.csv")),
      "prepared/public/train.csv": sha256File(path.join(root, "prepared", "public", "train.csv")),
      "leaderboard.csv": sha256File(path.join(root, "leaderboard.csv")),
    };
    expect(info).toEqual({ source: "kaggle", packages: [], upstream: { ...CATALOG_SOURCE }, file_count: 3, tree_sha256: treeSha256(files), files });
    // The sha256 of "a\n1\n" as sha256sum gives it.
    expect(files["prepared/public/train.csv"]).toBe("309b0e45a73d3fc5325e2b6ed0a01ef8b9cde6b05a5633c1f893f970d52bfddc");
  });
});
