import type { UpstreamSpec } from "../core/competition.js";
import { prepare as aerialCactusIdentification } from "./aerial-cactus-identification/prepare.js";
import { prepare as aptos2019BlindnessDetection } from "./aptos2019-blindness-detection/prepare.js";
import { prepare as chaiiHindiAndTamilQuestionAnswering } from "./chaii-hindi-and-tamil-question-answering/prepare.js";
import { prepare as denoisingDirtyDocuments } from "./denoising-dirty-documents/prepare.js";
import { prepare as detectingInsultsInSocialCommentary } from "./detecting-insults-in-social-commentary/prepare.js";
import { prepare as dogBreedIdentification } from "./dog-breed-identification/prepare.js";
import { prepare as dogsVsCatsReduxKernelsEdition } from "./dogs-vs-cats-redux-kernels-edition/prepare.js";
import { prepare as facebookRecruitingIiiKeywordExtraction } from "./facebook-recruiting-iii-keyword-extraction/prepare.js";
import { prepare as googleQuestChallenge } from "./google-quest-challenge/prepare.js";
import { prepare as histopathologicCancerDetection } from "./histopathologic-cancer-detection/prepare.js";
import { prepare as jigsawToxicCommentClassificationChallenge } from "./jigsaw-toxic-comment-classification-challenge/prepare.js";
import { prepare as jigsawUnintendedBiasInToxicityClassification } from "./jigsaw-unintended-bias-in-toxicity-classification/prepare.js";
import { prepare as leafClassification } from "./leaf-classification/prepare.js";
import { prepare as learningAgencyLabAutomatedEssayScoring2 } from "./learning-agency-lab-automated-essay-scoring-2/prepare.js";
import { prepare as lmsysChatbotArena } from "./lmsys-chatbot-arena/prepare.js";
import { prepare as mlsp2013Birds } from "./mlsp-2013-birds/prepare.js";
import { prepare as nomad2018PredictTransparentConductors } from "./nomad2018-predict-transparent-conductors/prepare.js";
import { prepare as plantPathology2020Fgvc7 } from "./plant-pathology-2020-fgvc7/prepare.js";
import { prepare as randomActsOfPizza } from "./random-acts-of-pizza/prepare.js";
import { prepare as ranzcrClipCatheterLineClassification } from "./ranzcr-clip-catheter-line-classification/prepare.js";
import { prepare as siimIsicMelanomaClassification } from "./siim-isic-melanoma-classification/prepare.js";
import { prepare as spaceshipTitanic } from "./spaceship-titanic/prepare.js";
import { prepare as spookyAuthorIdentification } from "./spooky-author-identification/prepare.js";
import { prepare as tabularPlaygroundSeriesDec2021 } from "./tabular-playground-series-dec-2021/prepare.js";
import { prepare as tabularPlaygroundSeriesMay2022 } from "./tabular-playground-series-may-2022/prepare.js";
import { prepare as textNormalizationChallengeEnglishLanguage } from "./text-normalization-challenge-english-language/prepare.js";
import { prepare as textNormalizationChallengeRussianLanguage } from "./text-normalization-challenge-russian-language/prepare.js";
import { prepare as theIcml2013WhaleChallengeRightWhaleRedux } from "./the-icml-2013-whale-challenge-right-whale-redux/prepare.js";
import { prepare as tweetSentimentExtraction } from "./tweet-sentiment-extraction/prepare.js";
import { prepare as usPatentPhraseToPhraseMatching } from "./us-patent-phrase-to-phrase-matching/prepare.js";

/**
 * Ported upstream preparers by competition id. Kept apart from the graders so a competition can be
 * prepared before its grader exists (and the other way round).
 */
export const PREPARERS: ReadonlyMap<string, UpstreamSpec["prepare"]> = new Map([
  ["aerial-cactus-identification", aerialCactusIdentification],
  ["aptos2019-blindness-detection", aptos2019BlindnessDetection],
  ["chaii-hindi-and-tamil-question-answering", chaiiHindiAndTamilQuestionAnswering],
  ["denoising-dirty-documents", denoisingDirtyDocuments],
  ["detecting-insults-in-social-commentary", detectingInsultsInSocialCommentary],
  ["dog-breed-identification", dogBreedIdentification],
  ["dogs-vs-cats-redux-kernels-edition", dogsVsCatsReduxKernelsEdition],
  ["facebook-recruiting-iii-keyword-extraction", facebookRecruitingIiiKeywordExtraction],
  ["google-quest-challenge", googleQuestChallenge],
  ["histopathologic-cancer-detection", histopathologicCancerDetection],
  ["jigsaw-toxic-comment-classification-challenge", jigsawToxicCommentClassificationChallenge],
  ["jigsaw-unintended-bias-in-toxicity-classification", jigsawUnintendedBiasInToxicityClassification],
  ["leaf-classification", leafClassification],
  ["learning-agency-lab-automated-essay-scoring-2", learningAgencyLabAutomatedEssayScoring2],
  ["lmsys-chatbot-arena", lmsysChatbotArena],
  ["mlsp-2013-birds", mlsp2013Birds],
  ["nomad2018-predict-transparent-conductors", nomad2018PredictTransparentConductors],
  ["plant-pathology-2020-fgvc7", plantPathology2020Fgvc7],
  ["random-acts-of-pizza", randomActsOfPizza],
  ["ranzcr-clip-catheter-line-classification", ranzcrClipCatheterLineClassification],
  ["siim-isic-melanoma-classification", siimIsicMelanomaClassification],
  ["spaceship-titanic", spaceshipTitanic],
  ["spooky-author-identification", spookyAuthorIdentification],
  ["tabular-playground-series-dec-2021", tabularPlaygroundSeriesDec2021],
  ["tabular-playground-series-may-2022", tabularPlaygroundSeriesMay2022],
  ["text-normalization-challenge-english-language", textNormalizationChallengeEnglishLanguage],
  ["text-normalization-challenge-russian-language", textNormalizationChallengeRussianLanguage],
  ["the-icml-2013-whale-challenge-right-whale-redux", theIcml2013WhaleChallengeRightWhaleRedux],
  ["tweet-sentiment-extraction", tweetSentimentExtraction],
  ["us-patent-phrase-to-phrase-matching", usPatentPhraseToPhraseMatching],
]);

/** The upstream spec of a competition whose preparer is ported, else undefined. */
export function upstreamSpec(id: string): UpstreamSpec | undefined {
  const prepare = PREPARERS.get(id);
  return prepare ? { prepare } : undefined;
}
