import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "cdiscount-image-classification-challenge",
  name: "Cdiscount’s Image Classification Challenge",
  type: "simple",
  complexity: "medium",
  metric: "accuracy",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
