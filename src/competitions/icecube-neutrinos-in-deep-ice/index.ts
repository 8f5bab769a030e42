import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "icecube-neutrinos-in-deep-ice",
  name: "IceCube - Neutrinos in Deep Ice",
  type: "code",
  complexity: "medium",
  metric: "mean-angular-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
