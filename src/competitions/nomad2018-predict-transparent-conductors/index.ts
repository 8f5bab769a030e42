import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "nomad2018-predict-transparent-conductors",
  name: "Nomad2018 Predicting Transparent Conductors",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "mean-column-wise-rmsle",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
