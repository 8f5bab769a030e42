import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "histopathologic-cancer-detection",
  name: "Histopathologic Cancer Detection",
  type: "code",
  complexity: "low",
  category: "Image Regression",
  metric: "auc-roc",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
