import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "petfinder-pawpularity-score",
  name: "PetFinder.my - Pawpularity Contest",
  type: "code",
  complexity: "medium",
  metric: "root-mean-squared-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
