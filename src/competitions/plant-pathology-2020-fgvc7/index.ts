import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "plant-pathology-2020-fgvc7",
  name: "Plant Pathology 2020 - FGVC7",
  type: "simple",
  complexity: "low",
  category: "Image Classification",
  metric: "mean-column-wise-roc-auc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
