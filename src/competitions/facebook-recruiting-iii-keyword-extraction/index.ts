import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("facebook-recruiting-iii-keyword-extraction", { grade });
