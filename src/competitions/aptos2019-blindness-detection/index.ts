import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("aptos2019-blindness-detection", { grader: () => import("./grade.js") });
