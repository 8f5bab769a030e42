import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "plant-seedlings-classification",
  name: "Plant Seedlings Classification",
  type: "simple",
  metric: "micro-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
