import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("herbarium-2022-fgvc9", { grader: () => import("./grade.js") });
