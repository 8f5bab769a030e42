import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "inaturalist-2019-fgvc6",
  name: "iNaturalist 2019 at FGVC6",
  type: "simple",
  complexity: "medium",
  metric: "top-1-classification-error",
  answers: "answers.csv",
  sampleSubmission: "kaggle_sample_submission.csv",
  grade,
};
