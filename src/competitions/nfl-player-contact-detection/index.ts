import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("nfl-player-contact-detection", { grader: () => import("./grade.js") });
