import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "paddy-disease-classification",
  name: "Paddy Doctor: Paddy Disease Classification",
  type: "simple",
  metric: "accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
