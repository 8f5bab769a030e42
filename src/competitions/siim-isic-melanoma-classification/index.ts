import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "siim-isic-melanoma-classification",
  name: "SIIM-ISIC Melanoma Classification",
  type: "simple",
  complexity: "low",
  category: "Image Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
