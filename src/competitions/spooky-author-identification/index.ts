import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("spooky-author-identification", { grader: () => import("./grade.js") });
