import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "playground-series-s3e18",
  name: "Explore Multi-Label Classification with an Enzyme Substrate Dataset",
  type: "simple",
  metric: "auroc-multi-label",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
