import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "vesuvius-challenge-ink-detection",
  name: "Vesuvius Challenge - Ink Detection",
  type: "code",
  complexity: "high",
  metric: "f0.5-score",
  answers: "inklabels_rle.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
