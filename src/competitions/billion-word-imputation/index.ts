import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("billion-word-imputation", { grader: () => import("./grade.js") });
