import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "aerial-cactus-identification",
  name: "Aerial Cactus Identification",
  type: "code",
  complexity: "low",
  category: "Image Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
