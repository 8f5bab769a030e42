import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "denoising-dirty-documents",
  name: "Denoising Dirty Documents",
  type: "simple",
  complexity: "low",
  category: "Image To Image",
  metric: "root_mean_squared_error",
  answers: "answers.csv",
  sampleSubmission: "sampleSubmission.csv",
  grade,
};
