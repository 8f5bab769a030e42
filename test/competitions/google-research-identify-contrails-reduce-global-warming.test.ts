import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/google-research-identify-contrails-reduce-global-warming/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { loadAnswers, scoreSubmission } from "../../src/grading/grade.js";
import { runFixturePreparer } from "../helpers/prepare-fixture.js";

const competition = await loadGrader(entry);

const answers = (rows: string) => parseCsv("record_id,encoded_pixels,height,width\n" + rows);

describe("google-research-identify-contrails-reduce-global-warming grader", () => {
  it("pools every pixel of every record into one Dice", () => {
    const ans = answers("1000216489776414077,1 4,3,3\n1000216489776414078,-,3,3\n");
    const sub = parseCsv("record_id,encoded_pixels\n1000216489776414078,1 2\n1000216489776414077,3 1\n");
    // Intersection 1 (record ...077); predicted 1 + 2, true 4.
    expect(competition.grade(sub, ans)).toBe(2 / 7);
  });

  it("is NaN (a valid submission) when no record has a contrail on either side", () => {
    const ans = answers("7,-,3,3\n8,-,3,3\n");
    expect(competition.grade(parseCsv("record_id,encoded_pixels\n8,-\n7,-\n"), ans)).toBeNaN();
  });

  it("refuses an empty cell: only '-' means an empty mask", () => {
    const ans = answers("7,-,3,3\n8,1 1,3,3\n");
    expect(() => competition.grade(parseCsv("record_id,encoded_pixels\n7,\n8,1 1\n"), ans)).toThrow(/or "-" for an empty mask/);
  });

  it("gives the answers file, used as a submission, a perfect score", async () => {
    const ctx = await runFixturePreparer(competition.id);
    const file = path.join(ctx.private, competition.answers);
    expect(scoreSubmission(competition, file, loadAnswers(file))).toEqual({ score: 1, reason: null });
  });
});
