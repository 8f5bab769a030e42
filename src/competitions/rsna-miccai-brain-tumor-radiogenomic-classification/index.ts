import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("rsna-miccai-brain-tumor-radiogenomic-classification", { grade });
