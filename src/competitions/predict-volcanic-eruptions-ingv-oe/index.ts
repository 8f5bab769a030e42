import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "predict-volcanic-eruptions-ingv-oe",
  name: "INGV - Volcanic Eruption Prediction",
  type: "simple",
  complexity: "high",
  metric: "mean-absolute-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
