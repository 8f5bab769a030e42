import path from "node:path";
import { describe, expect, it } from "vitest";
import { competition as entry } from "../../src/competitions/bms-molecular-translation/index.js";
import { loadGrader } from "../../src/competitions/registry.js";
import { loadAnswers } from "../../src/grading/grade.js";
import { pyRound } from "../../src/pycompat/round.js";
import { readCsv } from "../../src/io/csv-read.js";
import { runFixturePreparer } from "../helpers/prepare-fixture.js";

const competition = await loadGrader(entry);

// Upstream's prepare.py run on the same raw fixture writes byte-identical files (see the
// preparer fixture's md5s); upstream's grade.py gives them these scores.
describe("bms-molecular-translation: prepared files through the grader", () => {
  it("scores the answers themselves and the sample submission as upstream does", async () => {
    const ctx = await runFixturePreparer("bms-molecular-translation");
    const answers = loadAnswers(path.join(ctx.private, competition.answers));
    const score = (file: string) => pyRound(competition.grade(readCsv(file, { file }), answers));
    expect(score(path.join(ctx.private, "test.csv"))).toBe(0);
    expect(score(path.join(ctx.public, "sample_submission.csv"))).toBe(31.1);
  });
});
