/** Upstream MLE-bench's competition splits (ids only; experiments/splits/*.txt at the pinned commit). */

export const LOW = [
  "aerial-cactus-identification", "aptos2019-blindness-detection", "denoising-dirty-documents",
  "detecting-insults-in-social-commentary", "dog-breed-identification", "dogs-vs-cats-redux-kernels-edition",
  "histopathologic-cancer-detection", "jigsaw-toxic-comment-classification-challenge", "leaf-classification",
  "mlsp-2013-birds", "new-york-city-taxi-fare-prediction", "nomad2018-predict-transparent-conductors",
  "plant-pathology-2020-fgvc7", "random-acts-of-pizza", "ranzcr-clip-catheter-line-classification",
  "siim-isic-melanoma-classification", "spooky-author-identification", "tabular-playground-series-dec-2021",
  "tabular-playground-series-may-2022", "text-normalization-challenge-english-language",
  "text-normalization-challenge-russian-language", "the-icml-2013-whale-challenge-right-whale-redux",
];

export const MEDIUM = [
  "AI4Code", "alaska2-image-steganalysis", "billion-word-imputation", "cassava-leaf-disease-classification",
  "cdiscount-image-classification-challenge", "chaii-hindi-and-tamil-question-answering", "champs-scalar-coupling",
  "facebook-recruiting-iii-keyword-extraction", "freesound-audio-tagging-2019", "google-quest-challenge",
  "h-and-m-personalized-fashion-recommendations", "herbarium-2020-fgvc7", "herbarium-2021-fgvc8",
  "herbarium-2022-fgvc9", "hotel-id-2021-fgvc8", "hubmap-kidney-segmentation", "icecube-neutrinos-in-deep-ice",
  "imet-2020-fgvc7", "inaturalist-2019-fgvc6", "iwildcam-2020-fgvc7", "jigsaw-unintended-bias-in-toxicity-classification",
  "kuzushiji-recognition", "learning-agency-lab-automated-essay-scoring-2", "lmsys-chatbot-arena",
  "multi-modal-gesture-recognition", "osic-pulmonary-fibrosis-progression", "petfinder-pawpularity-score",
  "plant-pathology-2021-fgvc8", "seti-breakthrough-listen", "statoil-iceberg-classifier-challenge",
  "tensorflow-speech-recognition-challenge", "tensorflow2-question-answering", "tgs-salt-identification-challenge",
  "tweet-sentiment-extraction", "us-patent-phrase-to-phrase-matching", "uw-madison-gi-tract-image-segmentation",
  "ventilator-pressure-prediction", "whale-categorization-playground",
];

export const HIGH = [
  "3d-object-detection-for-autonomous-vehicles", "bms-molecular-translation",
  "google-research-identify-contrails-reduce-global-warming", "hms-harmful-brain-activity-classification",
  "iwildcam-2019-fgvc6", "nfl-player-contact-detection", "predict-volcanic-eruptions-ingv-oe",
  "rsna-2022-cervical-spine-fracture-detection", "rsna-breast-cancer-detection",
  "rsna-miccai-brain-tumor-radiogenomic-classification", "siim-covid19-detection", "smartphone-decimeter-2022",
  "stanford-covid-vaccine", "vesuvius-challenge-ink-detection", "vinbigdata-chest-xray-abnormalities-detection",
];

export const DEV = [
  "invasive-species-monitoring", "ml2021spring-hw2", "movie-review-sentiment-analysis-kernels-only",
  "paddy-disease-classification", "plant-seedlings-classification", "playground-series-s3e18", "spaceship-titanic",
];

/** The embedded offline benchmark: real datasets that ship inside npm or Debian packages. */
export const OFFLINE = ["titanic", "seattle-weather", "movie-ratings", "digits", "spam-assassin", "sotu-party", "fashion-mnist"];

/** Named splits: the complexity tiers, their union, the lite alias, the dev set and the offline benchmark. */
export const SPLITS: Record<string, readonly string[]> = {
  low: LOW,
  lite: LOW,
  medium: MEDIUM,
  high: HIGH,
  split75: [...LOW, ...MEDIUM, ...HIGH],
  offline: OFFLINE,
  dev: DEV,
};
