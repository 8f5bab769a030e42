import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/hubmap-kidney-segmentation/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { InvalidSubmissionError } from "../../src/core/errors.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { loadAnswers, scoreSubmission } from "../../src/grading/grade.js";
import { runFixturePreparer } from "../helpers/prepare-fixture.js";

const competition = await loadGrader(entry);

const answers = (rows: string) => parseCsv("id,encoding,width_pixels,height_pixels\n" + rows);

describe("hubmap-kidney-segmentation grader", () => {
  it("scores an image empty in both masks as 1", () => {
    // A blank-looking encoding of spaces is text to pandas, so upstream decodes it as an empty mask.
    const ans = answers('a," ",4,3\nb,1 4,4,3\n');
    const sub = parseCsv("id,predicted\nb,1 2\na,\n");
    // Image a: both empty → 1; image b: 2·2 / (2 + 4).
    expect(competition.grade(sub, ans)).toBe((1 + 4 / 6) / 2);
  });

  it("cannot grade anything against an answer row without an encoding", () => {
    const ans = answers("a,,4,3\nb,1 4,4,3\n");
    const sub = parseCsv("id,predicted\na,1 2\nb,1 4\n");
    expect(() => competition.grade(sub, ans)).toThrow(/Answers row 1 has a missing value as its "encoding"/);
  });

  it("names the row and id of a broken encoding", () => {
    const ans = answers("a,1 2,4,3\nb,1 4,4,3\n");
    const sub = parseCsv("id,predicted\nb,5 1 2 1\na,1 2\n");
    expect(() => competition.grade(sub, ans)).toThrow(InvalidSubmissionError);
    expect(() => competition.grade(sub, ans)).toThrow(/data row 1 \(id "b"\).*must be sorted by start/);
  });

  it("gives the gold submission of the prepared fixture a perfect score", async () => {
    const ctx = await runFixturePreparer(competition.id);
    const outcome = scoreSubmission(
      competition,
      path.join(ctx.private, "gold_submission.csv"),
      loadAnswers(path.join(ctx.private, competition.answers)),
    );
    expect(outcome).toEqual({ score: 1, reason: null });
  });
});
