import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "new-york-city-taxi-fare-prediction",
  name: "New York City Taxi Fare Prediction",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "root-mean-squared-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
