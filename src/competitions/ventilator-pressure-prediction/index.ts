import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "ventilator-pressure-prediction",
  name: "Google Brain - Ventilator Pressure Prediction",
  type: "simple",
  complexity: "medium",
  metric: "dice-hausdorff-combo",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
