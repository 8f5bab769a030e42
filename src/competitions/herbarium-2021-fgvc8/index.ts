import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "herbarium-2021-fgvc8",
  name: "Herbarium 2021 - FGVC8",
  type: "simple",
  complexity: "medium",
  metric: "macro-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
