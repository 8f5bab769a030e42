import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "tabular-playground-series-dec-2021",
  name: "Tabular Playground Series - Dec 2021",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "multi-class-classification-accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
