import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("paddy-disease-classification", { grader: () => import("./grade.js") });
