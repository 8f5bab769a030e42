import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("cassava-leaf-disease-classification", { grader: () => import("./grade.js") });
