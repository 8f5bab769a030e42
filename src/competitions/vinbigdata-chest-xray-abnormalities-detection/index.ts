import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("vinbigdata-chest-xray-abnormalities-detection", { grader: () => import("./grade.js") });
