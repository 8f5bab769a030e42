import fs from "node:fs";
import path from "node:path";
import { beforeAll, expect } from "vitest";
import { loadGrader } from "../../src/competitions/registry.js";
import type { Competition, GradableCompetition } from "../../src/core/competition.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { prepareCompetition } from "../../src/prepare/prepare.js";
import { tempDir } from "./data-dir.js";

/**
 * An offline competition prepared (before the file's tests) in a fresh data dir, with a grader of
 * submission texts, each written to its own file so every case is a real submission file.
 */
export function preparedOffline(competition: Competition) {
  const dataDir = tempDir(`mlebench-${competition.id}-`);
  const work = tempDir(`mlebench-${competition.id}-subs-`);
  let gradable: GradableCompetition;
  beforeAll(async () => {
    const result = await prepareCompetition(competition, dataDir);
    expect(result.status).toBe("prepared");
    gradable = await loadGrader(competition);
  });
  return {
    dataDir,
    paths: competitionPaths(dataDir, competition.id),
    grade(name: string, text: string) {
      const file = path.join(work, `${name}.csv`);
      fs.writeFileSync(file, text);
      return gradeSubmission(gradable, file, dataDir);
    },
  };
}
