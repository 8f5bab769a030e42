import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("vesuvius-challenge-ink-detection", { grader: () => import("./grade.js") });
