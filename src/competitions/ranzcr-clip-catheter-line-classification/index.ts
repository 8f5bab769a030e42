import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("ranzcr-clip-catheter-line-classification", { grade });
