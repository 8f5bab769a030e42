import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "dogs-vs-cats-redux-kernels-edition",
  name: "Dogs vs. Cats Redux: Kernels Edition",
  type: "code",
  complexity: "low",
  category: "Image Classification",
  metric: "log-loss",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
