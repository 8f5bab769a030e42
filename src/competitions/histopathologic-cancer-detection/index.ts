import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("histopathologic-cancer-detection", { grader: () => import("./grade.js") });
