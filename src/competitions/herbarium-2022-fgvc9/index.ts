import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "herbarium-2022-fgvc9",
  name: "Herbarium 2022 - FGVC9",
  type: "simple",
  complexity: "medium",
  metric: "macro-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
