import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("detecting-insults-in-social-commentary", { grader: () => import("./grade.js") });
