import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/uw-madison-gi-tract-image-segmentation/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { type Column, makeTable } from "../../src/core/table.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { fixtureDataDir, tempDir } from "../helpers/data-dir.js";

const competition = await loadGrader(entry);

describe("uw-madison-gi-tract-image-segmentation grader", () => {
  it("scores a header-only submission NaN, as upstream's empty means do, and keeps it valid", () => {
    const sub = path.join(tempDir(), "submission.csv");
    fs.writeFileSync(sub, "id,class,predicted\n");
    const report = gradeSubmission(competition, sub, fixtureDataDir([competition]));
    expect(report).toMatchObject({ valid_submission: true, score: null, score_text: "NaN", invalid_reason: null });
  });

  it("scores NaN when every mask is empty on both sides (nothing left to average)", () => {
    const columns: [string, Column][] = [
      ["id", { kind: "string", values: ["case1_day1_slice_0001", "case1_day1_slice_0001"] }],
      ["class", { kind: "string", values: ["stomach", "small_bowel"] }],
      ["predicted", { kind: "float", values: Float64Array.of(NaN, NaN) }],
    ];
    const sizes: [string, Column][] = [
      ["image_width", { kind: "float", values: Float64Array.of(8, 8) }],
      ["image_height", { kind: "float", values: Float64Array.of(6, 6) }],
    ];
    const table = (withSizes: boolean) => makeTable(withSizes ? [...columns, ...sizes] : columns);
    expect(competition.grade(table(false), table(true))).toBeNaN();
  });

  it("names the row and the image size when a run-length encoding cannot be decoded", () => {
    const answers = makeTable([
      ["id", { kind: "string", values: ["case1_day1_slice_0001"] }],
      ["class", { kind: "string", values: ["stomach"] }],
      ["predicted", { kind: "string", values: ["3 4"] }],
      ["image_width", { kind: "float", values: Float64Array.of(8) }],
      ["image_height", { kind: "float", values: Float64Array.of(6) }],
    ]);
    const sub = makeTable([
      ["id", { kind: "string", values: ["case1_day1_slice_0001"] }],
      ["class", { kind: "string", values: ["stomach"] }],
      ["predicted", { kind: "string", values: ["9 2 4 1"] }],
    ]);
    expect(() => competition.grade(sub, answers)).toThrow(/data row 1 .*6×8 image.*sorted/);
  });
});
