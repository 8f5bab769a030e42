import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("vinbigdata-chest-xray-abnormalities-detection", { grade });
