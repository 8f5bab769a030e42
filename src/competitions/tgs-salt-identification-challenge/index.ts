import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "tgs-salt-identification-challenge",
  name: "TGS Salt Identification Challenge",
  type: "simple",
  complexity: "medium",
  metric: "mean-precision-intersection-over-union-at-different-thresholds",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
