import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "plant-pathology-2021-fgvc8",
  name: "Plant Pathology 2021 - FGVC8",
  type: "code",
  complexity: "medium",
  metric: "micro-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
