import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  parseResearchRunRecord,
  readResearchRunRecord,
  RESEARCH_RUN_SCHEMA,
  writeResearchRunRecord,
  type ResearchRunRecord,
} from "../../src/results/research-record.js";
import { tempDir } from "../helpers/data-dir.js";

const FILE = "/runs/g1/titanic-seed3/run.json";

const CURRENT: ResearchRunRecord = {
  schema: "mlagentbench-run/1",
  task: "titanic",
  seed: 3,
  agent: "mlab",
  model: "openai/gpt-4o",
  status: "finished",
  stop: "final_answer",
  final_answer: "accuracy 0.8",
  started_at: "2026-01-01T00:00:00.000Z",
  ended_at: "2026-01-01T00:10:00.000Z",
  wall_seconds: 600.5,
  steps: 12,
  usage: { calls: 14, input_tokens: 52_000, output_tokens: 3_100, cost_usd: 0.42 },
  error: null,
};

describe("research run records", () => {
  it("reads the current record as written", () => {
    expect(RESEARCH_RUN_SCHEMA).toBe("mlagentbench-run/1");
    expect(parseResearchRunRecord(JSON.parse(JSON.stringify(CURRENT)), FILE)).toEqual(CURRENT);
  });

  it("converts a legacy mlab-run/1 record (camelCase) to the current shape", () => {
    const legacy = {
      schema: "mlab-run/1",
      task: "titanic",
      seed: 3,
      agent: "mlab",
      model: "openai/gpt-4o",
      status: "finished",
      stop: "final_answer",
      finalAnswer: "accuracy 0.8",
      startedAt: "2026-01-01T00:00:00.000Z",
      endedAt: "2026-01-01T00:10:00.000Z",
      wallSeconds: 600.5,
      steps: 12,
      usage: { calls: 14, inputTokens: 52_000, outputTokens: 3_100, costUsd: 0.42 },
      error: null,
    };
    expect(parseResearchRunRecord(legacy, FILE)).toEqual(CURRENT);
  });

  it("keeps the old reader's leniency: no model, stop or endedAt; null wall time and cost", () => {
    const interrupted = {
      schema: "mlab-run/1",
      task: "cifar10",
      seed: 0,
      agent: "baseline",
      status: "interrupted",
      finalAnswer: null,
      startedAt: "2025-06-01T12:00:00.000Z",
      wallSeconds: null,
      steps: 0,
      usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null },
      error: "interrupted",
    };
    expect(parseResearchRunRecord(interrupted, FILE)).toEqual({
      schema: "mlagentbench-run/1",
      task: "cifar10",
      seed: 0,
      agent: "baseline",
      model: null,
      status: "interrupted",
      stop: null,
      final_answer: null,
      started_at: "2025-06-01T12:00:00.000Z",
      ended_at: null,
      wall_seconds: null,
      steps: 0,
      usage: { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null },
      error: "interrupted",
    });
    const { model: _model, stop: _stop, ended_at: _ended, ...sparse } = CURRENT;
    expect(parseResearchRunRecord({ ...sparse, wall_seconds: null }, FILE)).toMatchObject({ model: null, stop: null, ended_at: null, wall_seconds: null });
  });

  it("names the file and the fields when a record does not match", () => {
    expect(() => parseResearchRunRecord({ ...CURRENT, seed: "three", usage: { calls: 1 } }, FILE)).toThrow(
      new RegExp(`^${FILE} is not a valid research run record \\(mlagentbench-run/1\\): seed: .*; usage\\.input_tokens: `),
    );
    // camelCase fields under the new schema name are not silently accepted.
    const { final_answer: _f, started_at: _s, ...rest } = CURRENT;
    expect(() => parseResearchRunRecord({ ...rest, finalAnswer: "x", startedAt: "y" }, FILE)).toThrow(/final_answer: .*started_at: /);
    expect(() => parseResearchRunRecord({ schema: "mlab-run/1", task: "t" }, FILE)).toThrow(`${FILE} is not a valid research run record (mlab-run/1): seed: `);
    expect(() => parseResearchRunRecord({ schema: "mlebench-run/1" }, FILE)).toThrow(
      `${FILE} is not a research run record: it has schema "mlebench-run/1", expected "mlagentbench-run/1" (or "mlab-run/1" from earlier releases)`,
    );
    expect(() => parseResearchRunRecord([1, 2], FILE)).toThrow(`${FILE} is not a research run record: it has no schema field`);
  });

  it("writes atomically with schema first and reads the file back; unreadable files are named", () => {
    const dir = tempDir("research-record-");
    const file = path.join(dir, "run.json");
    const { schema, ...rest } = CURRENT;
    writeResearchRunRecord(file, { ...rest, schema } as ResearchRunRecord);
    const text = fs.readFileSync(file, "utf8");
    expect(Object.keys(JSON.parse(text))[0]).toBe("schema");
    expect(text.endsWith("}\n")).toBe(true);
    expect(readResearchRunRecord(file)).toEqual(CURRENT);
    fs.writeFileSync(file, "{ not json");
    expect(() => readResearchRunRecord(file)).toThrow(`Cannot read research run record ${file}: `);
    expect(() => readResearchRunRecord(path.join(dir, "none.json"))).toThrow(`Cannot read research run record ${path.join(dir, "none.json")}: it does not exist`);
  });
});
