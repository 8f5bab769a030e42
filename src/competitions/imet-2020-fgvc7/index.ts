import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("imet-2020-fgvc7", { grader: () => import("./grade.js") });
