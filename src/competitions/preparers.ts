import type { UpstreamSpec } from "../core/competition.js";
import * as c3dObjectDetectionForAutonomousVehicles from "./3d-object-detection-for-autonomous-vehicles/prepare.js";
import * as ai4code from "./AI4Code/prepare.js";
import * as aerialCactusIdentification from "./aerial-cactus-identification/prepare.js";
import * as alaska2ImageSteganalysis from "./alaska2-image-steganalysis/prepare.js";
import * as aptos2019BlindnessDetection from "./aptos2019-blindness-detection/prepare.js";
import * as billionWordImputation from "./billion-word-imputation/prepare.js";
import * as bmsMolecularTranslation from "./bms-molecular-translation/prepare.js";
import * as cassavaLeafDiseaseClassification from "./cassava-leaf-disease-classification/prepare.js";
import * as cdiscountImageClassificationChallenge from "./cdiscount-image-classification-challenge/prepare.js";
import * as chaiiHindiAndTamilQuestionAnswering from "./chaii-hindi-and-tamil-question-answering/prepare.js";
import * as champsScalarCoupling from "./champs-scalar-coupling/prepare.js";
import * as denoisingDirtyDocuments from "./denoising-dirty-documents/prepare.js";
import * as detectingInsultsInSocialCommentary from "./detecting-insults-in-social-commentary/prepare.js";
import * as dogBreedIdentification from "./dog-breed-identification/prepare.js";
import * as dogsVsCatsReduxKernelsEdition from "./dogs-vs-cats-redux-kernels-edition/prepare.js";
import * as facebookRecruitingIiiKeywordExtraction from "./facebook-recruiting-iii-keyword-extraction/prepare.js";
import * as freesoundAudioTagging2019 from "./freesound-audio-tagging-2019/prepare.js";
import * as googleQuestChallenge from "./google-quest-challenge/prepare.js";
import * as googleResearchIdentifyContrailsReduceGlobalWarming from "./google-research-identify-contrails-reduce-global-warming/prepare.js";
import * as hAndMPersonalizedFashionRecommendations from "./h-and-m-personalized-fashion-recommendations/prepare.js";
import * as herbarium2020Fgvc7 from "./herbarium-2020-fgvc7/prepare.js";
import * as herbarium2021Fgvc8 from "./herbarium-2021-fgvc8/prepare.js";
import * as herbarium2022Fgvc9 from "./herbarium-2022-fgvc9/prepare.js";
import * as histopathologicCancerDetection from "./histopathologic-cancer-detection/prepare.js";
import * as hmsHarmfulBrainActivityClassification from "./hms-harmful-brain-activity-classification/prepare.js";
import * as hotelId2021Fgvc8 from "./hotel-id-2021-fgvc8/prepare.js";
import * as hubmapKidneySegmentation from "./hubmap-kidney-segmentation/prepare.js";
import * as icecubeNeutrinosInDeepIce from "./icecube-neutrinos-in-deep-ice/prepare.js";
import * as imet2020Fgvc7 from "./imet-2020-fgvc7/prepare.js";
import * as inaturalist2019Fgvc6 from "./inaturalist-2019-fgvc6/prepare.js";
import * as invasiveSpeciesMonitoring from "./invasive-species-monitoring/prepare.js";
import * as iwildcam2019Fgvc6 from "./iwildcam-2019-fgvc6/prepare.js";
import * as iwildcam2020Fgvc7 from "./iwildcam-2020-fgvc7/prepare.js";
import * as jigsawToxicCommentClassificationChallenge from "./jigsaw-toxic-comment-classification-challenge/prepare.js";
import * as jigsawUnintendedBiasInToxicityClassification from "./jigsaw-unintended-bias-in-toxicity-classification/prepare.js";
import * as kuzushijiRecognition from "./kuzushiji-recognition/prepare.js";
import * as leafClassification from "./leaf-classification/prepare.js";
import * as learningAgencyLabAutomatedEssayScoring2 from "./learning-agency-lab-automated-essay-scoring-2/prepare.js";
import * as lmsysChatbotArena from "./lmsys-chatbot-arena/prepare.js";
import * as ml2021springHw2 from "./ml2021spring-hw2/prepare.js";
import * as mlsp2013Birds from "./mlsp-2013-birds/prepare.js";
import * as movieReviewSentimentAnalysisKernelsOnly from "./movie-review-sentiment-analysis-kernels-only/prepare.js";
import * as multiModalGestureRecognition from "./multi-modal-gesture-recognition/prepare.js";
import * as newYorkCityTaxiFarePrediction from "./new-york-city-taxi-fare-prediction/prepare.js";
import * as nflPlayerContactDetection from "./nfl-player-contact-detection/prepare.js";
import * as nomad2018PredictTransparentConductors from "./nomad2018-predict-transparent-conductors/prepare.js";
import * as osicPulmonaryFibrosisProgression from "./osic-pulmonary-fibrosis-progression/prepare.js";
import * as paddyDiseaseClassification from "./paddy-disease-classification/prepare.js";
import * as petfinderPawpularityScore from "./petfinder-pawpularity-score/prepare.js";
import * as plantPathology2020Fgvc7 from "./plant-pathology-2020-fgvc7/prepare.js";
import * as plantPathology2021Fgvc8 from "./plant-pathology-2021-fgvc8/prepare.js";
import * as plantSeedlingsClassification from "./plant-seedlings-classification/prepare.js";
import * as playgroundSeriesS3e18 from "./playground-series-s3e18/prepare.js";
import * as predictVolcanicEruptionsIngvOe from "./predict-volcanic-eruptions-ingv-oe/prepare.js";
import * as randomActsOfPizza from "./random-acts-of-pizza/prepare.js";
import * as ranzcrClipCatheterLineClassification from "./ranzcr-clip-catheter-line-classification/prepare.js";
import * as rsna2022CervicalSpineFractureDetection from "./rsna-2022-cervical-spine-fracture-detection/prepare.js";
import * as rsnaBreastCancerDetection from "./rsna-breast-cancer-detection/prepare.js";
import * as rsnaMiccaiBrainTumorRadiogenomicClassification from "./rsna-miccai-brain-tumor-radiogenomic-classification/prepare.js";
import * as setiBreakthroughListen from "./seti-breakthrough-listen/prepare.js";
import * as siimCovid19Detection from "./siim-covid19-detection/prepare.js";
import * as siimIsicMelanomaClassification from "./siim-isic-melanoma-classification/prepare.js";
import * as smartphoneDecimeter2022 from "./smartphone-decimeter-2022/prepare.js";
import * as spaceshipTitanic from "./spaceship-titanic/prepare.js";
import * as spookyAuthorIdentification from "./spooky-author-identification/prepare.js";
import * as stanfordCovidVaccine from "./stanford-covid-vaccine/prepare.js";
import * as statoilIcebergClassifierChallenge from "./statoil-iceberg-classifier-challenge/prepare.js";
import * as tabularPlaygroundSeriesDec2021 from "./tabular-playground-series-dec-2021/prepare.js";
import * as tabularPlaygroundSeriesMay2022 from "./tabular-playground-series-may-2022/prepare.js";
import * as tensorflowSpeechRecognitionChallenge from "./tensorflow-speech-recognition-challenge/prepare.js";
import * as tensorflow2QuestionAnswering from "./tensorflow2-question-answering/prepare.js";
import * as textNormalizationChallengeEnglishLanguage from "./text-normalization-challenge-english-language/prepare.js";
import * as textNormalizationChallengeRussianLanguage from "./text-normalization-challenge-russian-language/prepare.js";
import * as tgsSaltIdentificationChallenge from "./tgs-salt-identification-challenge/prepare.js";
import * as theIcml2013WhaleChallengeRightWhaleRedux from "./the-icml-2013-whale-challenge-right-whale-redux/prepare.js";
import * as tweetSentimentExtraction from "./tweet-sentiment-extraction/prepare.js";
import * as usPatentPhraseToPhraseMatching from "./us-patent-phrase-to-phrase-matching/prepare.js";
import * as uwMadisonGiTractImageSegmentation from "./uw-madison-gi-tract-image-segmentation/prepare.js";
import * as ventilatorPressurePrediction from "./ventilator-pressure-prediction/prepare.js";
import * as vesuviusChallengeInkDetection from "./vesuvius-challenge-ink-detection/prepare.js";
import * as vinbigdataChestXrayAbnormalitiesDetection from "./vinbigdata-chest-xray-abnormalities-detection/prepare.js";
import * as whaleCategorizationPlayground from "./whale-categorization-playground/prepare.js";

/**
 * Ported upstream preparers by competition id. Kept apart from the graders so a competition can be
 * prepared before its grader exists (and the other way round). Each module exports `prepare` and,
 * where some output cannot match upstream's bytes, `unverifiable` (see UpstreamSpec).
 */
export const PREPARERS: ReadonlyMap<string, UpstreamSpec> = new Map<string, UpstreamSpec>([
  ["3d-object-detection-for-autonomous-vehicles", c3dObjectDetectionForAutonomousVehicles],
  ["AI4Code", ai4code],
  ["aerial-cactus-identification", aerialCactusIdentification],
  ["alaska2-image-steganalysis", alaska2ImageSteganalysis],
  ["aptos2019-blindness-detection", aptos2019BlindnessDetection],
  ["billion-word-imputation", billionWordImputation],
  ["bms-molecular-translation", bmsMolecularTranslation],
  ["cassava-leaf-disease-classification", cassavaLeafDiseaseClassification],
  ["cdiscount-image-classification-challenge", cdiscountImageClassificationChallenge],
  ["chaii-hindi-and-tamil-question-answering", chaiiHindiAndTamilQuestionAnswering],
  ["champs-scalar-coupling", champsScalarCoupling],
  ["denoising-dirty-documents", denoisingDirtyDocuments],
  ["detecting-insults-in-social-commentary", detectingInsultsInSocialCommentary],
  ["dog-breed-identification", dogBreedIdentification],
  ["dogs-vs-cats-redux-kernels-edition", dogsVsCatsReduxKernelsEdition],
  ["facebook-recruiting-iii-keyword-extraction", facebookRecruitingIiiKeywordExtraction],
  ["freesound-audio-tagging-2019", freesoundAudioTagging2019],
  ["google-quest-challenge", googleQuestChallenge],
  ["google-research-identify-contrails-reduce-global-warming", googleResearchIdentifyContrailsReduceGlobalWarming],
  ["h-and-m-personalized-fashion-recommendations", hAndMPersonalizedFashionRecommendations],
  ["herbarium-2020-fgvc7", herbarium2020Fgvc7],
  ["herbarium-2021-fgvc8", herbarium2021Fgvc8],
  ["herbarium-2022-fgvc9", herbarium2022Fgvc9],
  ["histopathologic-cancer-detection", histopathologicCancerDetection],
  ["hms-harmful-brain-activity-classification", hmsHarmfulBrainActivityClassification],
  ["hotel-id-2021-fgvc8", hotelId2021Fgvc8],
  ["hubmap-kidney-segmentation", hubmapKidneySegmentation],
  ["icecube-neutrinos-in-deep-ice", icecubeNeutrinosInDeepIce],
  ["imet-2020-fgvc7", imet2020Fgvc7],
  ["inaturalist-2019-fgvc6", inaturalist2019Fgvc6],
  ["invasive-species-monitoring", invasiveSpeciesMonitoring],
  ["iwildcam-2019-fgvc6", iwildcam2019Fgvc6],
  ["iwildcam-2020-fgvc7", iwildcam2020Fgvc7],
  ["jigsaw-toxic-comment-classification-challenge", jigsawToxicCommentClassificationChallenge],
  ["jigsaw-unintended-bias-in-toxicity-classification", jigsawUnintendedBiasInToxicityClassification],
  ["kuzushiji-recognition", kuzushijiRecognition],
  ["leaf-classification", leafClassification],
  ["learning-agency-lab-automated-essay-scoring-2", learningAgencyLabAutomatedEssayScoring2],
  ["lmsys-chatbot-arena", lmsysChatbotArena],
  ["ml2021spring-hw2", ml2021springHw2],
  ["mlsp-2013-birds", mlsp2013Birds],
  ["movie-review-sentiment-analysis-kernels-only", movieReviewSentimentAnalysisKernelsOnly],
  ["multi-modal-gesture-recognition", multiModalGestureRecognition],
  ["new-york-city-taxi-fare-prediction", newYorkCityTaxiFarePrediction],
  ["nfl-player-contact-detection", nflPlayerContactDetection],
  ["nomad2018-predict-transparent-conductors", nomad2018PredictTransparentConductors],
  ["osic-pulmonary-fibrosis-progression", osicPulmonaryFibrosisProgression],
  ["paddy-disease-classification", paddyDiseaseClassification],
  ["petfinder-pawpularity-score", petfinderPawpularityScore],
  ["plant-pathology-2020-fgvc7", plantPathology2020Fgvc7],
  ["plant-pathology-2021-fgvc8", plantPathology2021Fgvc8],
  ["plant-seedlings-classification", plantSeedlingsClassification],
  ["playground-series-s3e18", playgroundSeriesS3e18],
  ["predict-volcanic-eruptions-ingv-oe", predictVolcanicEruptionsIngvOe],
  ["random-acts-of-pizza", randomActsOfPizza],
  ["ranzcr-clip-catheter-line-classification", ranzcrClipCatheterLineClassification],
  ["rsna-2022-cervical-spine-fracture-detection", rsna2022CervicalSpineFractureDetection],
  ["rsna-breast-cancer-detection", rsnaBreastCancerDetection],
  ["rsna-miccai-brain-tumor-radiogenomic-classification", rsnaMiccaiBrainTumorRadiogenomicClassification],
  ["seti-breakthrough-listen", setiBreakthroughListen],
  ["siim-covid19-detection", siimCovid19Detection],
  ["siim-isic-melanoma-classification", siimIsicMelanomaClassification],
  ["smartphone-decimeter-2022", smartphoneDecimeter2022],
  ["spaceship-titanic", spaceshipTitanic],
  ["spooky-author-identification", spookyAuthorIdentification],
  ["stanford-covid-vaccine", stanfordCovidVaccine],
  ["statoil-iceberg-classifier-challenge", statoilIcebergClassifierChallenge],
  ["tabular-playground-series-dec-2021", tabularPlaygroundSeriesDec2021],
  ["tabular-playground-series-may-2022", tabularPlaygroundSeriesMay2022],
  ["tensorflow-speech-recognition-challenge", tensorflowSpeechRecognitionChallenge],
  ["tensorflow2-question-answering", tensorflow2QuestionAnswering],
  ["text-normalization-challenge-english-language", textNormalizationChallengeEnglishLanguage],
  ["text-normalization-challenge-russian-language", textNormalizationChallengeRussianLanguage],
  ["tgs-salt-identification-challenge", tgsSaltIdentificationChallenge],
  ["the-icml-2013-whale-challenge-right-whale-redux", theIcml2013WhaleChallengeRightWhaleRedux],
  ["tweet-sentiment-extraction", tweetSentimentExtraction],
  ["us-patent-phrase-to-phrase-matching", usPatentPhraseToPhraseMatching],
  ["uw-madison-gi-tract-image-segmentation", uwMadisonGiTractImageSegmentation],
  ["ventilator-pressure-prediction", ventilatorPressurePrediction],
  ["vesuvius-challenge-ink-detection", vesuviusChallengeInkDetection],
  ["vinbigdata-chest-xray-abnormalities-detection", vinbigdataChestXrayAbnormalitiesDetection],
  ["whale-categorization-playground", whaleCategorizationPlayground],
]);

/** The upstream spec of a competition whose preparer is ported, else undefined. */
export function upstreamSpec(id: string): UpstreamSpec | undefined {
  return PREPARERS.get(id);
}
