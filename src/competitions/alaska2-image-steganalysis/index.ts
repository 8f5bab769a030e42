import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "alaska2-image-steganalysis",
  name: "ALASKA2 Image Steganalysis",
  type: "simple",
  complexity: "medium",
  metric: "weighted-auroc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
