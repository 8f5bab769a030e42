import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "herbarium-2020-fgvc7",
  name: "Herbarium 2020 - FGVC7",
  type: "simple",
  complexity: "medium",
  metric: "macro-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
