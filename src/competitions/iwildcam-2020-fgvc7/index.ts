import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "iwildcam-2020-fgvc7",
  name: "iWildCam 2020 - FGVC7",
  type: "simple",
  complexity: "medium",
  metric: "accuracy",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
