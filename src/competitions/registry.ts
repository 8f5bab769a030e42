import fs from "node:fs";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { competition as aerialCactus } from "./aerial-cactus-identification/index.js";
import { competition as aptos } from "./aptos2019-blindness-detection/index.js";
import { competition as dogsVsCats } from "./dogs-vs-cats-redux-kernels-edition/index.js";
import { competition as handm } from "./h-and-m-personalized-fashion-recommendations/index.js";
import { competition as nycTaxi } from "./new-york-city-taxi-fare-prediction/index.js";
import { competition as spaceshipTitanic } from "./spaceship-titanic/index.js";
import { competition as spooky } from "./spooky-author-identification/index.js";
import { competition as tpsDec2021 } from "./tabular-playground-series-dec-2021/index.js";
import { competition as detectingInsultsInSocialCommentary } from "./detecting-insults-in-social-commentary/index.js";
import { competition as denoisingDirtyDocuments } from "./denoising-dirty-documents/index.js";
import { competition as dogBreedIdentification } from "./dog-breed-identification/index.js";
import { competition as histopathologicCancerDetection } from "./histopathologic-cancer-detection/index.js";
import { competition as jigsawToxicCommentClassificationChallenge } from "./jigsaw-toxic-comment-classification-challenge/index.js";
import { competition as leafClassification } from "./leaf-classification/index.js";
import { competition as mlsp2013Birds } from "./mlsp-2013-birds/index.js";
import { competition as nomad2018PredictTransparentConductors } from "./nomad2018-predict-transparent-conductors/index.js";
import { competition as tabularPlaygroundSeriesMay2022 } from "./tabular-playground-series-may-2022/index.js";
import { competition as textNormalizationChallengeEnglishLanguage } from "./text-normalization-challenge-english-language/index.js";
import { competition as textNormalizationChallengeRussianLanguage } from "./text-normalization-challenge-russian-language/index.js";
import { competition as theIcml2013WhaleChallengeRightWhaleRedux } from "./the-icml-2013-whale-challenge-right-whale-redux/index.js";
import { competition as plantPathology2020Fgvc7 } from "./plant-pathology-2020-fgvc7/index.js";
import { competition as randomActsOfPizza } from "./random-acts-of-pizza/index.js";
import { competition as ranzcrClipCatheterLineClassification } from "./ranzcr-clip-catheter-line-classification/index.js";
import { competition as siimIsicMelanomaClassification } from "./siim-isic-melanoma-classification/index.js";
import { competition as cassavaLeafDiseaseClassification } from "./cassava-leaf-disease-classification/index.js";
import { competition as plantPathology2021Fgvc8 } from "./plant-pathology-2021-fgvc8/index.js";
import { competition as herbarium2020Fgvc7 } from "./herbarium-2020-fgvc7/index.js";
import { competition as herbarium2021Fgvc8 } from "./herbarium-2021-fgvc8/index.js";
import { competition as herbarium2022Fgvc9 } from "./herbarium-2022-fgvc9/index.js";
import { competition as setiBreakthroughListen } from "./seti-breakthrough-listen/index.js";
import { competition as alaska2ImageSteganalysis } from "./alaska2-image-steganalysis/index.js";
import { competition as imet2020Fgvc7 } from "./imet-2020-fgvc7/index.js";
import { competition as whaleCategorizationPlayground } from "./whale-categorization-playground/index.js";
import { competition as hotelId2021Fgvc8 } from "./hotel-id-2021-fgvc8/index.js";
import { competition as lmsysChatbotArena } from "./lmsys-chatbot-arena/index.js";
import { competition as statoilIcebergClassifierChallenge } from "./statoil-iceberg-classifier-challenge/index.js";
import { competition as petfinderPawpularityScore } from "./petfinder-pawpularity-score/index.js";
import { competition as ventilatorPressurePrediction } from "./ventilator-pressure-prediction/index.js";
import { competition as tensorflowSpeechRecognitionChallenge } from "./tensorflow-speech-recognition-challenge/index.js";
import { competition as learningAgencyLabAutomatedEssayScoring2 } from "./learning-agency-lab-automated-essay-scoring-2/index.js";
import { competition as usPatentPhraseToPhraseMatching } from "./us-patent-phrase-to-phrase-matching/index.js";
import { competition as tweetSentimentExtraction } from "./tweet-sentiment-extraction/index.js";
import { competition as chaiiHindiAndTamilQuestionAnswering } from "./chaii-hindi-and-tamil-question-answering/index.js";
import { competition as googleQuestChallenge } from "./google-quest-challenge/index.js";
import { competition as facebookRecruitingIiiKeywordExtraction } from "./facebook-recruiting-iii-keyword-extraction/index.js";
import { competition as freesoundAudioTagging2019 } from "./freesound-audio-tagging-2019/index.js";
import { competition as osicPulmonaryFibrosisProgression } from "./osic-pulmonary-fibrosis-progression/index.js";
import { competition as jigsawUnintendedBiasInToxicityClassification } from "./jigsaw-unintended-bias-in-toxicity-classification/index.js";
import { competition as iwildcam2020Fgvc7 } from "./iwildcam-2020-fgvc7/index.js";
import { competition as inaturalist2019Fgvc6 } from "./inaturalist-2019-fgvc6/index.js";
import { competition as cdiscountImageClassificationChallenge } from "./cdiscount-image-classification-challenge/index.js";
import { competition as champsScalarCoupling } from "./champs-scalar-coupling/index.js";
import { competition as ml2021springHw2 } from "./ml2021spring-hw2/index.js";
import { competition as movieReviewSentimentAnalysisKernelsOnly } from "./movie-review-sentiment-analysis-kernels-only/index.js";
import { competition as invasiveSpeciesMonitoring } from "./invasive-species-monitoring/index.js";
import { competition as playgroundSeriesS3e18 } from "./playground-series-s3e18/index.js";
import { competition as plantSeedlingsClassification } from "./plant-seedlings-classification/index.js";
import { competition as paddyDiseaseClassification } from "./paddy-disease-classification/index.js";
import { competition as ai4code } from "./AI4Code/index.js";
import { competition as billionWordImputation } from "./billion-word-imputation/index.js";
import { competition as multiModalGestureRecognition } from "./multi-modal-gesture-recognition/index.js";
import { competition as titanic } from "./titanic/index.js";
import { competition as seattleWeather } from "./seattle-weather/index.js";
import { competition as movieRatings } from "./movie-ratings/index.js";
import { competition as digits } from "./digits/index.js";
import { competition as spamAssassin } from "./spam-assassin/index.js";
import { competition as sotuParty } from "./sotu-party/index.js";
import { competition as fashionMnist } from "./fashion-mnist/index.js";
import { competition as iwildcam2019Fgvc6 } from "./iwildcam-2019-fgvc6/index.js";
import { competition as bmsMolecularTranslation } from "./bms-molecular-translation/index.js";
import { competition as tensorflow2QuestionAnswering } from "./tensorflow2-question-answering/index.js";
import { competition as hmsHarmfulBrainActivityClassification } from "./hms-harmful-brain-activity-classification/index.js";
import { competition as nflPlayerContactDetection } from "./nfl-player-contact-detection/index.js";
import { competition as rsna2022CervicalSpineFractureDetection } from "./rsna-2022-cervical-spine-fracture-detection/index.js";
import { competition as rsnaBreastCancerDetection } from "./rsna-breast-cancer-detection/index.js";
import { competition as siimCovid19Detection } from "./siim-covid19-detection/index.js";
import { competition as vinbigdataChestXrayAbnormalitiesDetection } from "./vinbigdata-chest-xray-abnormalities-detection/index.js";
import { competition as icecubeNeutrinosInDeepIce } from "./icecube-neutrinos-in-deep-ice/index.js";
import { competition as smartphoneDecimeter2022 } from "./smartphone-decimeter-2022/index.js";
import { competition as stanfordCovidVaccine } from "./stanford-covid-vaccine/index.js";
import { competition as predictVolcanicEruptionsIngvOe } from "./predict-volcanic-eruptions-ingv-oe/index.js";
import { competition as rsnaMiccaiBrainTumorRadiogenomicClassification } from "./rsna-miccai-brain-tumor-radiogenomic-classification/index.js";
import { competition as c3dObjectDetectionForAutonomousVehicles } from "./3d-object-detection-for-autonomous-vehicles/index.js";
import { competition as hubmapKidneySegmentation } from "./hubmap-kidney-segmentation/index.js";
import { competition as vesuviusChallengeInkDetection } from "./vesuvius-challenge-ink-detection/index.js";
import { competition as googleResearchIdentifyContrailsReduceGlobalWarming } from "./google-research-identify-contrails-reduce-global-warming/index.js";
import { competition as tgsSaltIdentificationChallenge } from "./tgs-salt-identification-challenge/index.js";
import { competition as kuzushijiRecognition } from "./kuzushiji-recognition/index.js";
import { competition as uwMadisonGiTractImageSegmentation } from "./uw-madison-gi-tract-image-segmentation/index.js";
import { upstreamSpec } from "./preparers.js";
import { SPLITS } from "./splits.js";

/** Every competition with a grader, by id. */
export const COMPETITIONS: ReadonlyMap<string, Competition> = new Map(
  [aerialCactus, aptos, dogsVsCats, handm, nycTaxi, spaceshipTitanic, spooky, tpsDec2021, detectingInsultsInSocialCommentary, denoisingDirtyDocuments, dogBreedIdentification, histopathologicCancerDetection, jigsawToxicCommentClassificationChallenge, leafClassification, mlsp2013Birds, nomad2018PredictTransparentConductors, tabularPlaygroundSeriesMay2022, textNormalizationChallengeEnglishLanguage, textNormalizationChallengeRussianLanguage, theIcml2013WhaleChallengeRightWhaleRedux, plantPathology2020Fgvc7, randomActsOfPizza, ranzcrClipCatheterLineClassification, siimIsicMelanomaClassification, titanic, seattleWeather, movieRatings, digits, spamAssassin, sotuParty, fashionMnist, cassavaLeafDiseaseClassification, plantPathology2021Fgvc8, herbarium2020Fgvc7, herbarium2021Fgvc8, herbarium2022Fgvc9, setiBreakthroughListen, alaska2ImageSteganalysis, imet2020Fgvc7, whaleCategorizationPlayground, hotelId2021Fgvc8, lmsysChatbotArena, statoilIcebergClassifierChallenge, petfinderPawpularityScore, ventilatorPressurePrediction, tensorflowSpeechRecognitionChallenge, learningAgencyLabAutomatedEssayScoring2, usPatentPhraseToPhraseMatching, tweetSentimentExtraction, chaiiHindiAndTamilQuestionAnswering, googleQuestChallenge, facebookRecruitingIiiKeywordExtraction, freesoundAudioTagging2019, osicPulmonaryFibrosisProgression, jigsawUnintendedBiasInToxicityClassification, iwildcam2020Fgvc7, inaturalist2019Fgvc6, cdiscountImageClassificationChallenge, champsScalarCoupling, ml2021springHw2, movieReviewSentimentAnalysisKernelsOnly, invasiveSpeciesMonitoring, playgroundSeriesS3e18, plantSeedlingsClassification, paddyDiseaseClassification, ai4code, billionWordImputation, multiModalGestureRecognition, iwildcam2019Fgvc6, bmsMolecularTranslation, tensorflow2QuestionAnswering, hmsHarmfulBrainActivityClassification, nflPlayerContactDetection, rsna2022CervicalSpineFractureDetection, rsnaBreastCancerDetection, siimCovid19Detection, vinbigdataChestXrayAbnormalitiesDetection, icecubeNeutrinosInDeepIce, smartphoneDecimeter2022, stanfordCovidVaccine, predictVolcanicEruptionsIngvOe, rsnaMiccaiBrainTumorRadiogenomicClassification, c3dObjectDetectionForAutonomousVehicles, hubmapKidneySegmentation, vesuviusChallengeInkDetection, googleResearchIdentifyContrailsReduceGlobalWarming, tgsSaltIdentificationChallenge, kuzushijiRecognition, uwMadisonGiTractImageSegmentation].map((c) => [
    c.id,
    { ...c, upstream: upstreamSpec(c.id) },
  ]),
);

/** The competition with this id, or a UserError listing close matches. */
export function getCompetition(id: string): Competition {
  const found = COMPETITIONS.get(id);
  if (found) return found;
  const known = [...COMPETITIONS.keys()];
  const close = known.filter((k) => k.includes(id) || id.includes(k.split("-")[0]));
  const suggestion = close.length > 0 ? ` Did you mean: ${close.join(", ")}?` : "";
  throw new UserError(`Unknown competition "${id}".${suggestion} Run "mlebench list" to see the competitions available.`);
}

/** Competitions of a named split that have graders here, in split order. */
export function competitionsInSplit(split: string): Competition[] {
  const ids = SPLITS[split];
  if (!ids) {
    throw new UserError(`Unknown split "${split}"; known splits: ${Object.keys(SPLITS).join(", ")}.`);
  }
  return ids.flatMap((id) => {
    const c = COMPETITIONS.get(id);
    return c ? [c] : [];
  });
}

/**
 * Competition ids listed in a text file, one per line (upstream's competition-set files); blank
 * lines and # comments are skipped, and each id keeps its line number for error messages.
 */
export function readCompetitionList(file: string, flag: string): { id: string; line: number }[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserError(`${flag}: cannot read ${file}: ${(e as Error).message}`);
  }
  const ids = text
    .split(/\r?\n/)
    .map((l, i) => ({ id: l.trim(), line: i + 1 }))
    .filter((x) => x.id && !x.id.startsWith("#"));
  if (ids.length === 0) throw new UserError(`${flag}: ${file} lists no competitions`);
  return ids;
}
