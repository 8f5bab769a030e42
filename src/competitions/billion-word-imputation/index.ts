import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "billion-word-imputation",
  name: "Billion Word Imputation",
  type: "simple",
  complexity: "medium",
  metric: "levenshtein-distance",
  answers: "test.csv",
  sampleSubmission: "../private/sample_submission.csv",
  grade,
};
