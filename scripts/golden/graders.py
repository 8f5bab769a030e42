#!/usr/bin/python3
"""Golden fixtures for the competition graders.

For each competition this writes an answers file, a leaderboard and several submissions under
test/fixtures/graders/<competition>/, and the scores that pandas + scikit-learn give them to
test/fixtures/graders/expected.json. Run with Debian's interpreter (it has pandas, numpy and
scikit-learn):  /usr/bin/python3 scripts/golden/graders.py

The scores are computed here independently of the TypeScript graders. Log loss is computed with
an explicit numpy formula (clip to float64 machine epsilon, no renormalisation), because the
scikit-learn in Debian 12 renormalises rows, unlike the >= 1.5 versions the benchmark follows.
"""
import json
import math
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, cohen_kappa_score, mean_squared_error, roc_auc_score

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "fixtures", "graders")
EPS = np.finfo(np.float64).eps
rng = np.random.RandomState(20261129)
expected = {}


def read(path):
    return pd.read_csv(path, float_precision="round_trip")


def write(df, comp, name):
    path = os.path.join(ROOT, comp, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    df.to_csv(path, index=False)
    return path


def leaderboard(comp, scores):
    write(pd.DataFrame({"teamName": [f"team{i}" for i in range(len(scores))], "score": scores}), comp, "leaderboard.csv")


def record(comp, name, score):
    expected.setdefault(comp, {})[name] = None if score is None else round(float(score), 5)


def log_loss_np(y_true_onehot, y_pred):
    p = np.clip(np.asarray(y_pred, dtype=float), EPS, 1 - EPS)
    return float(-np.mean(np.sum(y_true_onehot * np.log(p), axis=1)))


def hex_ids(n, width):
    return ["".join(rng.choice(list("0123456789abcdef"), width)) for _ in range(n)]


# tabular-playground-series-dec-2021: accuracy of the cover type (1-7), rows matched by Id.
def tps_dec_2021():
    comp = "tabular-playground-series-dec-2021"
    n = 400
    ids = sorted(rng.permutation(4_000_000)[:n].tolist())
    truth = rng.choice([1, 2, 3, 4, 6, 7], size=n, p=[0.36, 0.56, 0.05, 0.001, 0.009, 0.02])
    answers = pd.DataFrame({"Id": ids, "Cover_Type": truth})
    write(answers, comp, "answers.csv")
    leaderboard(comp, sorted(np.round(rng.uniform(0.9, 0.9566, 1188), 5), reverse=True))
    noisy = np.where(rng.rand(n) < 0.15, rng.choice([1, 2, 3, 7], size=n), truth)
    cases = {"perfect": truth.copy(), "constant": np.full(n, 2), "noisy": noisy}
    for name, pred in cases.items():
        sub = pd.DataFrame({"Id": ids, "Cover_Type": pred}).sample(frac=1, random_state=2)
        write(sub, comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("Id")
        s = read(os.path.join(ROOT, comp, f"{name}.csv")).sort_values("Id")
        assert list(a.Id) == list(s.Id)
        record(comp, name, accuracy_score(a.Cover_Type.to_numpy(), s.Cover_Type.to_numpy()))
    # Floats 2.0 compare equal to the integer class 2.
    write(pd.DataFrame({"Id": ids, "Cover_Type": noisy.astype(float)}), comp, "as_floats.csv")
    record(comp, "as_floats", expected[comp]["noisy"])
    # A missing id, and a wrong target column name: both invalid.
    write(pd.DataFrame({"Id": ids[1:], "Cover_Type": truth[1:]}), comp, "missing_id.csv")
    record(comp, "missing_id", None)
    write(pd.DataFrame({"Id": ids, "CoverType": truth}), comp, "wrong_column.csv")
    record(comp, "wrong_column", None)


# spaceship-titanic: accuracy of a boolean column, rows matched by PassengerId.
def spaceship():
    comp = "spaceship-titanic"
    n = 300
    ids = [f"{g:04d}_{k:02d}" for g, k in zip(rng.permutation(9000)[:n], rng.randint(1, 4, n))]
    truth = rng.rand(n) < 0.5
    answers = pd.DataFrame({"PassengerId": ids, "Transported": truth})
    write(answers, comp, "answers.csv")
    leaderboard(comp, sorted(np.round(rng.uniform(0.5, 0.82, 150), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "constant": np.zeros(n, dtype=bool),
        "noisy": np.where(rng.rand(n) < 0.2, ~truth, truth),
    }
    for name, pred in cases.items():
        sub = pd.DataFrame({"PassengerId": ids, "Transported": pred}).sample(frac=1, random_state=1)
        write(sub, comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("PassengerId")
        s = read(os.path.join(ROOT, comp, f"{name}.csv")).sort_values("PassengerId")
        assert list(a.PassengerId) == list(s.PassengerId)
        record(comp, name, accuracy_score(a.Transported.to_numpy(), s.Transported.to_numpy()))
    # Integers 0/1 instead of booleans compare equal to False/True.
    sub = pd.DataFrame({"PassengerId": ids, "Transported": cases["noisy"].astype(int)})
    write(sub, comp, "as_ints.csv")
    record(comp, "as_ints", expected[comp]["noisy"])
    # Text labels cannot be compared with booleans: invalid.
    write(pd.DataFrame({"PassengerId": ids, "Transported": np.where(truth, "yes", "no")}), comp, "text_labels.csv")
    record(comp, "text_labels", None)


# aerial-cactus-identification: ROC AUC, rows matched by id.
def cactus():
    comp = "aerial-cactus-identification"
    n = 500
    ids = [f"{h}.jpg" for h in hex_ids(n, 32)]
    truth = (rng.rand(n) < 0.75).astype(int)
    write(pd.DataFrame({"id": ids, "has_cactus": truth}), comp, "answers.csv")
    leaderboard(comp, sorted(np.round(1 - rng.uniform(0, 0.3, 120) ** 2, 5), reverse=True))
    cases = {
        "perfect": truth.astype(float),
        "constant": np.full(n, 0.5),
        "noisy": np.clip(truth * 0.6 + rng.rand(n) * 0.7, 0, 1),
        "ties": np.round(np.clip(truth * 0.3 + rng.rand(n) * 0.7, 0, 1), 1),
    }
    for name, pred in cases.items():
        write(pd.DataFrame({"id": ids, "has_cactus": pred}).sample(frac=1, random_state=2), comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("id")
        s = read(os.path.join(ROOT, comp, f"{name}.csv")).sort_values("id")
        record(comp, name, roc_auc_score(a.has_cactus.to_numpy(), s.has_cactus.to_numpy()))
    bad = cases["noisy"].copy()
    bad[3] = 1.5
    write(pd.DataFrame({"id": ids, "has_cactus": bad}), comp, "out_of_range.csv")
    record(comp, "out_of_range", None)


# dogs-vs-cats-redux-kernels-edition: binary log loss on the probability of "dog" (label 1).
def dogs_vs_cats():
    comp = "dogs-vs-cats-redux-kernels-edition"
    n = 400
    ids = list(rng.permutation(np.arange(1, 12501))[:n])
    truth = (rng.rand(n) < 0.5).astype(int)
    write(pd.DataFrame({"id": ids, "label": truth}), comp, "answers.csv")
    leaderboard(comp, sorted(np.round(rng.uniform(0.03, 0.7, 1300), 5)))
    cases = {
        "perfect": truth.astype(float),
        "half": np.full(n, 0.5),
        "noisy": np.clip(np.where(truth == 1, 0.8, 0.2) + rng.normal(0, 0.15, n), 0, 1),
        "confident_wrong": np.where(rng.rand(n) < 0.1, 1 - truth, truth).astype(float),
    }
    for name, pred in cases.items():
        write(pd.DataFrame({"id": ids, "label": pred}).sample(frac=1, random_state=3), comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("id")
        s = read(os.path.join(ROOT, comp, f"{name}.csv")).sort_values("id")
        p1 = s.label.to_numpy()
        onehot = np.stack([1 - a.label.to_numpy(), a.label.to_numpy()], axis=1)
        record(comp, name, log_loss_np(onehot, np.stack([1 - p1, p1], axis=1)))
    write(pd.DataFrame({"id": ids[:-1], "label": cases["half"][:-1]}), comp, "missing_row.csv")
    record(comp, "missing_row", None)


# spooky-author-identification: multi-class log loss over EAP/HPL/MWS, rows matched by id.
def spooky():
    comp = "spooky-author-identification"
    n = 300
    classes = ["EAP", "HPL", "MWS"]
    ids = [f"id{v:05d}" for v in rng.permutation(30000)[:n]]
    labels = rng.randint(0, 3, n)
    onehot = np.eye(3, dtype=int)[labels]
    answers = pd.DataFrame({"id": ids, **{c: onehot[:, i] for i, c in enumerate(classes)}})
    write(answers, comp, "answers.csv")
    leaderboard(comp, sorted(np.round(rng.uniform(0.15, 1.1, 1240), 5)))
    logits = rng.normal(0, 1, (n, 3)) + onehot * 1.5
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    cases = {
        "uniform": np.full((n, 3), 1 / 3),
        "softmax": soft,
        "onehot_perfect": onehot.astype(float),
    }
    for name, pred in cases.items():
        sub = pd.DataFrame({"id": ids, **{c: pred[:, i] for i, c in enumerate(classes)}}).sample(frac=1, random_state=4)
        write(sub, comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("id")
        s = read(os.path.join(ROOT, comp, f"{name}.csv")).sort_values("id")
        record(comp, name, log_loss_np(a[classes].to_numpy(), s[classes].to_numpy()))
    # Columns in another order are matched by name.
    sub = pd.DataFrame({"id": ids, "MWS": soft[:, 2], "EAP": soft[:, 0], "HPL": soft[:, 1]})
    write(sub, comp, "reordered.csv")
    record(comp, "reordered", expected[comp]["softmax"])
    bad = soft.copy()
    bad[:, 0] *= 0.5
    write(pd.DataFrame({"id": ids, **{c: bad[:, i] for i, c in enumerate(classes)}}), comp, "not_normalised.csv")
    record(comp, "not_normalised", None)


# new-york-city-taxi-fare-prediction: RMSE after sorting both sides by key (keys not compared).
def taxi():
    comp = "new-york-city-taxi-fare-prediction"
    n = 400
    base = pd.Timestamp("2013-01-01")
    keys = [str(base + pd.Timedelta(seconds=int(s))) + f".{k:07d}" for s, k in zip(rng.randint(0, 10**8, n), rng.randint(0, 10**6, n))]
    fares = np.round(rng.gamma(2.0, 6.0, n) + 2.5, 2)
    write(pd.DataFrame({"key": keys, "fare_amount": fares}), comp, "answers.csv")
    leaderboard(comp, sorted(np.round(rng.uniform(2.8, 9.5, 1480), 5)))
    cases = {
        "perfect": fares.copy(),
        "mean": np.full(n, 11.35),
        "noisy": fares + rng.normal(0, 3, n),
    }
    for name, pred in cases.items():
        write(pd.DataFrame({"key": keys, "fare_amount": pred}).sample(frac=1, random_state=5), comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("key")
        s = read(os.path.join(ROOT, comp, f"{name}.csv")).sort_values("key")
        record(comp, name, math.sqrt(mean_squared_error(a.fare_amount, s.fare_amount)))
    # Keys are not checked: other keys in the same count still score, row by row after sorting.
    other = [k[:-1] + "x" for k in keys]
    pred = cases["noisy"]
    write(pd.DataFrame({"key": other, "fare_amount": pred}), comp, "wrong_keys.csv")
    a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("key")
    s = read(os.path.join(ROOT, comp, "wrong_keys.csv")).sort_values("key")
    record(comp, "wrong_keys", math.sqrt(mean_squared_error(a.fare_amount, s.fare_amount)))


# aptos2019-blindness-detection: quadratic weighted kappa, ids compared as sets.
def aptos():
    comp = "aptos2019-blindness-detection"
    n = 300
    ids = hex_ids(n, 12)
    truth = rng.choice(5, n, p=[0.5, 0.1, 0.25, 0.05, 0.1])
    write(pd.DataFrame({"id_code": ids, "diagnosis": truth}), comp, "answers.csv")
    leaderboard(comp, sorted(np.round(rng.uniform(0.5, 0.936, 2930), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "off_by_one": np.clip(truth + rng.randint(-1, 2, n), 0, 4),
        "constant": np.full(n, 2),
        "as_floats": np.clip(truth + rng.randint(-1, 2, n), 0, 4).astype(float),
    }
    for name, pred in cases.items():
        write(pd.DataFrame({"id_code": ids, "diagnosis": pred}).sample(frac=1, random_state=6), comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("id_code")
        s = read(os.path.join(ROOT, comp, f"{name}.csv")).sort_values("id_code")
        record(comp, name, cohen_kappa_score(s.diagnosis.to_numpy(), a.diagnosis.to_numpy(), weights="quadratic"))
    pred = np.clip(truth + rng.randint(-1, 2, n), 0, 4) + 0.5
    write(pd.DataFrame({"id_code": ids, "diagnosis": pred}), comp, "continuous.csv")
    record(comp, "continuous", None)


# h-and-m-personalized-fashion-recommendations: MAP@12 over space-separated article ids.
def handm():
    comp = "h-and-m-personalized-fashion-recommendations"
    n = 250
    customers = hex_ids(n, 64)
    articles = [f"0{v:09d}" for v in rng.randint(10**8, 10**9, 400)]
    truth = [" ".join(rng.choice(articles, rng.randint(1, 6), replace=False)) for _ in range(n)]
    write(pd.DataFrame({"customer_id": customers, "prediction": truth}), comp, "answers.csv")
    leaderboard(comp, sorted(np.round(rng.uniform(0.0, 0.037, 2950), 5), reverse=True))

    def map12(actual, predicted):
        total = 0.0
        for act, pred in zip(actual, predicted):
            pred = pred[:12]
            hits, score, seen = 0, 0.0, set()
            for i, p in enumerate(pred):
                if p in act and p not in seen:
                    hits += 1
                    score += hits / (i + 1)
                seen.add(p)
            total += score / min(len(act), 12) if act else 0.0
        return total / len(actual)

    popular = " ".join(articles[:12])
    cases = {
        "popular": [popular] * n,
        "perfect": truth,
        "mixed": [t.split(" ")[0] + " " + popular if k % 3 else popular for k, t in enumerate(truth)],
    }
    for name, preds in cases.items():
        extra = hex_ids(20, 64)
        sub = pd.DataFrame({"customer_id": customers + extra, "prediction": list(preds) + [popular] * 20}).sample(frac=1, random_state=7)
        write(sub, comp, f"{name}.csv")
        a = read(os.path.join(ROOT, comp, "answers.csv")).sort_values("customer_id")
        s = read(os.path.join(ROOT, comp, f"{name}.csv"))
        s = s[s.customer_id.isin(set(a.customer_id))].sort_values("customer_id")
        actual = [set(str(v).split(" ")) for v in a.prediction]
        predicted = [str(v).split(" ") for v in s.prediction]
        record(comp, name, map12(actual, predicted))
    write(pd.DataFrame({"customer_id": customers[:-1], "prediction": [popular] * (n - 1)}), comp, "missing_customer.csv")
    record(comp, "missing_customer", None)


if __name__ == "__main__":
    shutil.rmtree(ROOT, ignore_errors=True)
    for fn in [spaceship, cactus, dogs_vs_cats, spooky, taxi, aptos, handm, tps_dec_2021]:
        fn()
    with open(os.path.join(ROOT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")
