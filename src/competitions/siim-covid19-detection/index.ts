import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("siim-covid19-detection", { grader: () => import("./grade.js") });
