import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "kuzushiji-recognition",
  name: "Kuzushiji Recognition",
  type: "simple",
  complexity: "medium",
  metric: "f1-score",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
