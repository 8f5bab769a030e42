import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "rsna-breast-cancer-detection",
  name: "RSNA Screening Mammography Breast Cancer Detection",
  type: "code",
  complexity: "high",
  metric: "probabilistic-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
