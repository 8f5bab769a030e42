import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "siim-covid19-detection",
  name: "SIIM-FISABIO-RSNA COVID-19 Detection",
  type: "code",
  complexity: "high",
  metric: "mean-average-precision",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
