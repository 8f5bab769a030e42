import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "multi-modal-gesture-recognition",
  name: "Multi-modal Gesture Recognition",
  type: "simple",
  complexity: "medium",
  // Upstream's grader name, misspelling included.
  metric: "levenhstein-distance",
  answers: "test.csv",
  sampleSubmission: "randomPredictions.csv",
  grade,
};
