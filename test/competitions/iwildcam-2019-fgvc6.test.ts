import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/iwildcam-2019-fgvc6/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { loadAnswers } from "../../src/grading/grade.js";
import { pyRound } from "../../src/pycompat/round.js";
import { readCsv } from "../../src/io/csv-read.js";
import { runFixturePreparer } from "../helpers/prepare-fixture.js";

const competition = await loadGrader(entry);

// Upstream's prepare.py run on the same raw fixture writes byte-identical files (see the
// preparer fixture's md5s); upstream's grade.py gives them these scores.
describe("iwildcam-2019-fgvc6: prepared files through the grader", () => {
  it("scores the answers themselves (gold-submission columns) and the sample submission as upstream does", async () => {
    const ctx = await runFixturePreparer("iwildcam-2019-fgvc6");
    const answers = loadAnswers(path.join(ctx.private, competition.answers));
    const score = (file: string) => pyRound(competition.grade(readCsv(file, { file }), answers));
    expect(score(path.join(ctx.private, "answers.csv"))).toBe(1);
    expect(score(path.join(ctx.public, "sample_submission.csv"))).toBe(0.07563);
  });
});
