import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadAnswers, readJsonl } from "../../src/grading/grade.js";
import { tempDir } from "../helpers/data-dir.js";

describe("JSONL answers", () => {
  const dir = tempDir();
  const file = path.join(dir, "test.jsonl");
  fs.writeFileSync(
    file,
    '{"example_id": "1", "document_text": "long page", "annotations": [1]}\r\n' +
      "\n# a comment\n" +
      '{"example_id": "2", "annotations": [], "extra": {"x": 1}}\n' +
      '[1, 2]\n' +
      '{"example_id": "3"}',
  );

  it("parses every line, across CRLF endings and a last line without one, skipping blanks and comments", () => {
    expect(readJsonl(file)).toEqual([
      { example_id: "1", document_text: "long page", annotations: [1] },
      { example_id: "2", annotations: [], extra: { x: 1 } },
      [1, 2],
      { example_id: "3" },
    ]);
  });

  it("keeps only the graded fields of objects when asked", () => {
    expect(loadAnswers(file, ["example_id", "annotations"])).toEqual([
      { example_id: "1", annotations: [1] },
      { example_id: "2", annotations: [] },
      [1, 2],
      { example_id: "3" },
    ]);
  });

  it("names the file and line of malformed JSON and of bad UTF-8", () => {
    const bad = path.join(dir, "bad.jsonl");
    fs.writeFileSync(bad, '{"a": 1}\n{"a": \n');
    expect(() => loadAnswers(bad)).toThrow(/Cannot read answers file .*bad\.jsonl: .*bad\.jsonl, line 2: not valid JSON/);
    fs.writeFileSync(bad, Buffer.from([0x7b, 0x7d, 0x0a, 0x22, 0xff, 0x22, 0x0a]));
    expect(() => loadAnswers(bad)).toThrow(/bad\.jsonl: line 2 is not valid UTF-8/);
  });
});
