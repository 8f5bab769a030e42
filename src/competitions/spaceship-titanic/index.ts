import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "spaceship-titanic",
  name: "Spaceship Titanic",
  type: "simple",
  category: "Tabular",
  metric: "accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
