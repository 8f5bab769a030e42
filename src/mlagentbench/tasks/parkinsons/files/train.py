import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import GroupKFold

from public_timeseries_testing_util import MockApi

PARTS = ["updrs_1", "updrs_2", "updrs_3", "updrs_4"]
HORIZONS = [0, 6, 12, 24]


def smape_plus_one(truth, predicted):
    truth, predicted = np.asarray(truth, dtype=float), np.asarray(predicted, dtype=float)
    keep = np.isfinite(truth)
    truth, predicted = truth[keep], predicted[keep]
    return float(np.mean(np.abs(predicted - truth) / ((truth + predicted) / 2 + 1)) * 100)


def pairs(clinical, part, horizon):
    """(visit month, patient, rating `horizon` months later) for every visit whose later rating is known."""
    later = clinical[["patient_id", "visit_month", part]].rename(columns={part: "target"})
    later["visit_month"] = later["visit_month"] - horizon
    joined = clinical[["patient_id", "visit_month"]].merge(later, on=["patient_id", "visit_month"])
    return joined.dropna(subset=["target"])


clinical = pd.concat([pd.read_csv("train_clinical_data.csv"), pd.read_csv("supplemental_clinical_data.csv")])

models = {}
scores = []
for part in PARTS:
    for horizon in HORIZONS:
        data = pairs(clinical, part, horizon)
        x, y, groups = data[["visit_month"]].to_numpy(), data["target"].to_numpy(), data["patient_id"].to_numpy()
        fold_scores = []
        for fit, val in GroupKFold(n_splits=5).split(x, y, groups):
            model = RandomForestRegressor(n_estimators=30, min_samples_leaf=20, random_state=0).fit(x[fit], y[fit])
            fold_scores.append(smape_plus_one(y[val], model.predict(x[val])))
        scores.append(np.mean(fold_scores))
        models[(part, horizon)] = RandomForestRegressor(n_estimators=30, min_samples_leaf=20, random_state=0).fit(x, y)
        print(f"{part} +{horizon} months: cross-validated SMAPE+1 {scores[-1]:.2f}")
print(f"Mean cross-validated SMAPE+1: {np.mean(scores):.2f}")

env = MockApi()
for test, test_peptides, test_proteins, sample_submission in env.iter_test():
    if len(sample_submission) == 0:
        env.predict(sample_submission)
        continue
    # prediction_id is "<patient>_<month>_updrs_<part>_plus_<horizon>_months".
    fields = sample_submission["prediction_id"].str.split("_", expand=True)
    months = fields[1].astype(int).to_numpy().reshape(-1, 1)
    parts = "updrs_" + fields[3]
    horizons = fields[5].astype(int)
    ratings = np.zeros(len(sample_submission))
    for (part, horizon), model in models.items():
        rows = ((parts == part) & (horizons == horizon)).to_numpy()
        if rows.any():
            ratings[rows] = model.predict(months[rows])
    sample_submission["rating"] = np.round(ratings)
    env.predict(sample_submission)
