import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "imet-2020-fgvc7",
  name: "iMet Collection 2020 - FGVC7",
  type: "code",
  complexity: "medium",
  metric: "micro-f1-score",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
