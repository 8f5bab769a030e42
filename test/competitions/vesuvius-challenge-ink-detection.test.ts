import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/vesuvius-challenge-ink-detection/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { loadAnswers, scoreSubmission } from "../../src/grading/grade.js";
import { runFixturePreparer } from "../helpers/prepare-fixture.js";

const competition = await loadGrader(entry);

describe("vesuvius-challenge-ink-detection grader", () => {
  const ans = parseCsv("Id,Predicted,width,height\na,2 3 9 2,4,3\n");

  it("computes F0.5 in the RLE's own pixel order on width × height pixels", () => {
    // Truth {1,2,3,8,9}, prediction {2,3,4,5}: tp 2, so 1.25·2 / (0.25·5 + 4).
    expect(competition.grade(parseCsv("Id,Predicted\na,3 4\n"), ans)).toBe(2.5 / 5.25);
  });

  it("scores 0 when neither mask has ink, as scikit-learn's zero_division does", () => {
    const empty = parseCsv('Id,Predicted,width,height\na," ",4,3\n');
    expect(competition.grade(parseCsv('Id,Predicted\na," "\n'), empty)).toBe(0);
  });

  it("refuses an empty cell and explains that the row order matters", () => {
    expect(() => competition.grade(parseCsv("Id,Predicted\na,\n"), ans)).toThrow(/must be run-length text.*a missing value/);
    const two = parseCsv("Id,Predicted,width,height\na,1 1,4,3\nb,1 1,4,3\n");
    expect(() => competition.grade(parseCsv("Id,Predicted\nb,1 1\na,1 1\n"), two)).toThrow(/matched by position/);
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
