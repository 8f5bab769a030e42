import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRunEval, readRunEval, RUN_EVAL_SCHEMA, type RunEval } from "../../src/mlagentbench/eval/index.js";
import { writeRunEval } from "../../src/mlagentbench/eval/records.js";
import { tempDir } from "../helpers/data-dir.js";

const FILE = "/runs/g1/titanic-seed3/eval.json";

const CURRENT: RunEval = {
  schema: "mlagentbench-eval/1",
  run: "titanic-seed3",
  task: "titanic",
  seed: 3,
  agent: "mlab",
  model: "openai/gpt-4o",
  status: "finished",
  error: null,
  direction: "higher",
  improvement_of: "error",
  baseline: 0.75,
  baseline_source: "recorded",
  baseline_error: null,
  final_score: 0.84,
  final_error: null,
  steps: [
    { step: 0, score: 0.75, error: null, missing: [] },
    { step: 4, score: null, error: "submission.csv is missing", missing: ["big.bin"] },
  ],
  steps_error: null,
  states_scored: 2,
  best_score: 0.84,
  best_step: 7,
  improvement: 0.12,
  best_improvement: 0.12,
  success: { "5": true, "10": true, "15": false, "20": false, "30": false },
  submitted_final_answer: true,
  num_steps: 8,
  tokens: 55_100,
  cost_usd: 0.42,
  wall_seconds: 600.5,
  evaluated_at: "2026-01-02T00:00:00.000Z",
};

describe("run evaluation records (eval.json)", () => {
  it("reads the current record as written", () => {
    expect(RUN_EVAL_SCHEMA).toBe("mlagentbench-eval/1");
    expect(parseRunEval(JSON.parse(JSON.stringify(CURRENT)), FILE)).toEqual(CURRENT);
  });

  it("reads a record written before improvement_of existed as measured on the score", () => {
    const { improvement_of, ...older } = CURRENT;
    expect(improvement_of).toBe("error");
    expect(parseRunEval(JSON.parse(JSON.stringify(older)), FILE)).toEqual({ ...CURRENT, improvement_of: "score" });
  });

  it("names the file and the fields when a record does not match", () => {
    expect(() => parseRunEval({ ...CURRENT, final_score: "high", success: { "5": true } }, FILE)).toThrow(
      new RegExp(`^${FILE} is not a valid run evaluation \\(mlagentbench-eval/1\\): final_score: .*; success\\.10: `),
    );
    // camelCase fields under the new schema name are not silently accepted.
    const { final_score: _f, ...rest } = CURRENT;
    expect(() => parseRunEval({ ...rest, finalScore: 0.84 }, FILE)).toThrow(/\(mlagentbench-eval\/1\): final_score: /);
    expect(() => parseRunEval({ schema: "mlab-eval/1" }, FILE)).toThrow(
      `${FILE} is not a run evaluation: it has schema "mlab-eval/1", expected "mlagentbench-eval/1"`,
    );
    expect(() => parseRunEval(null, FILE)).toThrow(`${FILE} is not a run evaluation: it has no schema field`);
  });

  it("writes atomically with schema first and reads the file back; unreadable files are named", () => {
    const dir = tempDir("eval-record-");
    const file = path.join(dir, "eval.json");
    const { schema, ...rest } = CURRENT;
    writeRunEval(file, { ...rest, schema } as RunEval);
    const text = fs.readFileSync(file, "utf8");
    expect(Object.keys(JSON.parse(text))[0]).toBe("schema");
    expect(text.endsWith("}\n")).toBe(true);
    expect(readRunEval(file)).toEqual(CURRENT);
    fs.writeFileSync(file, "[");
    expect(() => readRunEval(file)).toThrow(`Cannot read run evaluation ${file}: `);
    expect(() => readRunEval(path.join(dir, "none.json"))).toThrow(`Cannot read run evaluation ${path.join(dir, "none.json")}: it does not exist`);
  });
});
