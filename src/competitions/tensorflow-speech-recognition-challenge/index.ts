import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "tensorflow-speech-recognition-challenge",
  name: "TensorFlow Speech Recognition Challenge",
  type: "simple",
  complexity: "medium",
  metric: "accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
