import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "aptos2019-blindness-detection",
  name: "APTOS 2019 Blindness Detection",
  type: "code",
  complexity: "low",
  category: "Image Classification",
  metric: "quadratic-weighted-kappa",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
