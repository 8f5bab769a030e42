import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "chaii-hindi-and-tamil-question-answering",
  name: "Hindi and Tamil Question Answering",
  type: "code",
  complexity: "medium",
  metric: "word-level-jaccard-score",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
