import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("herbarium-2020-fgvc7", { grader: () => import("./grade.js") });
