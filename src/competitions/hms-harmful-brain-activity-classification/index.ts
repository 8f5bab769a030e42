import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "hms-harmful-brain-activity-classification",
  name: "HMS - Harmful Brain Activity Classification",
  type: "code",
  complexity: "high",
  metric: "KL-divergence",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
