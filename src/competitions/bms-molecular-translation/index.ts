import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "bms-molecular-translation",
  name: "Bristol-Myers Squibb - Molecular Translation",
  type: "simple",
  complexity: "high",
  metric: "levenshtein-distance",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
