import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("rsna-miccai-brain-tumor-radiogenomic-classification", { grader: () => import("./grade.js") });
