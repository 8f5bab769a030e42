import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "tensorflow2-question-answering",
  name: "TensorFlow 2.0 Question Answering",
  type: "code",
  complexity: "medium",
  metric: "micro-f1-score",
  answers: "test.jsonl",
  // Each answers line also holds the whole Wikipedia page; grading needs only these.
  answersFields: ["example_id", "annotations"],
  sampleSubmission: "sample_submission.csv",
  grade,
};
