import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("rsna-breast-cancer-detection", { grader: () => import("./grade.js") });
