import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogEntry } from "../../src/competitions/catalog.js";
import { COMPETITIONS, loadGrader } from "../../src/competitions/registry.js";
import { loadAnswers, loadLeaderboard, scoreSubmission } from "../../src/grading/grade.js";
import { isLowerBetter } from "../../src/grading/leaderboard.js";
import { FIXTURES as GRADER_FIXTURES } from "../helpers/data-dir.js";
import { PREPARER_FIXTURES, runFixturePreparer } from "../helpers/prepare-fixture.js";

// Upstream checks that every competition's gold submission (the one its config names, else the
// answers file itself) earns a gold medal. Here the preparer runs on its synthetic raw fixture,
// so the check also proves that what each preparer writes is what its grader reads.
const IDS = [...COMPETITIONS.keys()]
  .filter((id) => catalogEntry(id) !== undefined && fs.existsSync(path.join(PREPARER_FIXTURES, id, "raw")))
  .sort();

/** Where upstream's own grader refuses its gold submission, and why (the fixtures hold such rows on purpose). */
const REFUSED: Record<string, RegExp> = {
  // A tweet whose answer is empty (real data has one) makes Jaccard 0/0 when the prediction is empty too.
  "tweet-sentiment-extraction": /selected_text and so does the answer, so its Jaccard score is undefined/,
};

/** Where the gold submission cannot reach the metric's best value, and why. */
const IMPERFECT: Record<string, string> = {
  "h-and-m-personalized-fashion-recommendations": "a customer who bought an article twice lists it twice, and MAP@12 counts a repeat once",
};

describe.each(IDS)("%s gold submission", (id) => {
  it("is valid and scores at least as well as every leaderboard entry", async () => {
    const competition = await loadGrader(COMPETITIONS.get(id)!);
    const entry = catalogEntry(id)!;
    const ctx = await runFixturePreparer(id);
    const gold = path.join(ctx.private, entry.goldSubmission ?? entry.answers);
    const outcome = scoreSubmission(competition, gold, loadAnswers(path.join(ctx.private, competition.answers)));
    if (REFUSED[id]) {
      expect(outcome.reason).toMatch(REFUSED[id]);
      return;
    }
    expect(outcome.reason).toBeNull();
    // The golden fixture's leaderboard has plausible scores in the metric's direction.
    const board = loadLeaderboard(path.join(GRADER_FIXTURES, id, "leaderboard.csv"));
    const best = isLowerBetter(board) ? Math.min(...board) : Math.max(...board);
    if (isLowerBetter(board)) expect(outcome.score).toBeLessThanOrEqual(best);
    else expect(outcome.score).toBeGreaterThanOrEqual(best);
    // Where the oracle found a perfect submission's score, the gold one matches it when the metric's best is fixed (0 or 1).
    const expected = JSON.parse(fs.readFileSync(path.join(GRADER_FIXTURES, id, "expected.json"), "utf8")) as Record<string, number | null>;
    if ((expected.perfect === 0 || expected.perfect === 1) && !IMPERFECT[id]) expect(outcome.score).toBe(expected.perfect);
  });
});
