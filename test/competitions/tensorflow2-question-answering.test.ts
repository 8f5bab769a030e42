import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/tensorflow2-question-answering/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { loadAnswers } from "../../src/grading/grade.js";
import { pyRound } from "../../src/pycompat/round.js";
import { readCsv } from "../../src/io/csv-read.js";
import { runFixturePreparer } from "../helpers/prepare-fixture.js";

const competition = await loadGrader(entry);

// Upstream's prepare.py run on the same raw fixture writes byte-identical files (see the
// preparer fixture's md5s); upstream's grade.py gives them these scores.
describe("tensorflow2-question-answering: prepared files through the grader", () => {
  it("scores the gold submission the preparer writes and the sample submission as upstream does", async () => {
    const ctx = await runFixturePreparer("tensorflow2-question-answering");
    const answers = loadAnswers(path.join(ctx.private, competition.answers));
    const score = (file: string) => pyRound(competition.grade(readCsv(file, { file }), answers));
    expect(score(path.join(ctx.private, "gold_submission.csv"))).toBe(1);
    expect(score(path.join(ctx.public, "sample_submission.csv"))).toBe(0.40708);
  });
});
