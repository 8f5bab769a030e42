import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "iwildcam-2019-fgvc6",
  name: "iWildCam 2019 - FGVC6",
  type: "simple",
  complexity: "high",
  metric: "macro-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
