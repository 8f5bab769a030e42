import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  parseResearchGroupRecord,
  readResearchGroupRecord,
  RESEARCH_GROUP_SCHEMA,
  writeResearchGroupRecord,
  type ResearchGroupRecord,
} from "../../src/results/research-group.js";
import { tempDir } from "../helpers/data-dir.js";

const FILE = "/runs/2026-01-01T00-00-00-000Z_mlagentbench-group_mlab/group.json";

const CURRENT: ResearchGroupRecord = {
  schema: "mlagentbench-group/1",
  id: "2026-01-01T00-00-00-000Z_mlagentbench-group_mlab",
  agent: "mlab",
  model: "openai/gpt-4o",
  tasks: ["titanic", "vectorization"],
  seeds: [0, 1, 2],
  created_at: "2026-01-01T00:00:00.000Z",
};

describe("research group records (group.json)", () => {
  it("reads the current record as written", () => {
    expect(RESEARCH_GROUP_SCHEMA).toBe("mlagentbench-group/1");
    expect(parseResearchGroupRecord(JSON.parse(JSON.stringify(CURRENT)), FILE)).toEqual(CURRENT);
    const { model: _model, ...noModel } = CURRENT;
    expect(parseResearchGroupRecord(noModel, FILE)).toEqual({ ...CURRENT, model: null });
  });

  it("converts a legacy mlab-group/1 record (camelCase) to the current shape, model absent or not", () => {
    const legacy = {
      schema: "mlab-group/1",
      id: "2025-06-01T12-00-00-000Z_mlab-group_baseline",
      agent: "baseline",
      model: null,
      tasks: ["cifar10"],
      seeds: [0],
      createdAt: "2025-06-01T12:00:00.000Z",
    };
    const converted: ResearchGroupRecord = {
      schema: "mlagentbench-group/1",
      id: "2025-06-01T12-00-00-000Z_mlab-group_baseline",
      agent: "baseline",
      model: null,
      tasks: ["cifar10"],
      seeds: [0],
      created_at: "2025-06-01T12:00:00.000Z",
    };
    expect(parseResearchGroupRecord(legacy, FILE)).toEqual(converted);
    const { model: _model, ...noModel } = legacy;
    expect(parseResearchGroupRecord(noModel, FILE)).toEqual(converted);
    expect(parseResearchGroupRecord({ ...legacy, model: "anthropic/claude" }, FILE)).toEqual({ ...converted, model: "anthropic/claude" });
  });

  it("names the file and the fields when a record does not match", () => {
    expect(() => parseResearchGroupRecord({ ...CURRENT, seeds: ["zero"], tasks: "titanic" }, FILE)).toThrow(
      new RegExp(`^${FILE} is not a valid research group record \\(mlagentbench-group/1\\): tasks: .*; seeds\\.0: `),
    );
    const { created_at: _c, ...rest } = CURRENT;
    expect(() => parseResearchGroupRecord({ ...rest, createdAt: "2026-01-01" }, FILE)).toThrow(/\(mlagentbench-group\/1\): created_at: /);
    expect(() => parseResearchGroupRecord({ schema: "mlab-group/1", id: "g" }, FILE)).toThrow(`${FILE} is not a valid research group record (mlab-group/1): agent: `);
    expect(() => parseResearchGroupRecord({ schema: "mlebench-group/1" }, FILE)).toThrow(
      `${FILE} is not a research group record: it has schema "mlebench-group/1", expected "mlagentbench-group/1" (or "mlab-group/1" from earlier releases)`,
    );
    expect(() => parseResearchGroupRecord("group", FILE)).toThrow(`${FILE} is not a research group record: it has no schema field`);
  });

  it("writes atomically with schema first and reads the file back; unreadable files are named", () => {
    const dir = tempDir("research-group-");
    const file = path.join(dir, "group.json");
    const { schema, ...rest } = CURRENT;
    writeResearchGroupRecord(file, { ...rest, schema } as ResearchGroupRecord);
    const text = fs.readFileSync(file, "utf8");
    expect(Object.keys(JSON.parse(text))).toEqual(["schema", "id", "agent", "model", "tasks", "seeds", "created_at"]);
    expect(text.endsWith("}\n")).toBe(true);
    expect(readResearchGroupRecord(file)).toEqual(CURRENT);
    fs.writeFileSync(file, "");
    expect(() => readResearchGroupRecord(file)).toThrow(`Cannot read research group record ${file}: `);
    expect(() => readResearchGroupRecord(path.join(dir, "none.json"))).toThrow(`Cannot read research group record ${path.join(dir, "none.json")}: it does not exist`);
  });
});
