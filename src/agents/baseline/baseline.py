#!/usr/bin/env python3
"""mlebench baseline agent: infer the task from the competition's files, fit a standard model,
write the submission in the sample submission's format. No LLM, no internet.

  baseline.py plan                           print the inferred task as JSON
  baseline.py fit --model auto|linear|prior  write /home/submission/submission.csv
             [--budget SECONDS]
"""
import argparse
import glob
import json
import os
import re
import sys
import time
import warnings

import numpy as np
import pandas as pd

DATA = os.environ.get("MLEBENCH_DATA_DIR") or "/home/data"
SUBMISSION_DIR = os.environ.get("MLEBENCH_SUBMISSION_DIR") or "/home/submission"
STARTED = time.time()
# The run's seed (the harness sets it; 0 by hand) drives the folds, the models and the CNN's start.
SEED = int(os.environ.get("MLEBENCH_SEED") or 0)
# Convergence and deprecation chatter would bury the steps in the agent's log.
warnings.filterwarnings("ignore")


def log(message):
    print("[baseline %5.1fs] %s" % (time.time() - STARTED, message), flush=True)


# ---------------------------------------------------------------- task inference

METRIC_CUES = [
    # (pattern in the description, metric name, what to submit)
    (r"log(arithmic)?[ -]?loss|cross[- ]entropy", "log_loss", "proba"),
    (r"roc[ -]?auc|area under the (roc|receiver)", "roc_auc", "proba"),
    (r"root mean squared log", "rmsle", "regression"),
    (r"root mean squared error|\brmse\b", "rmse", "regression"),
    (r"mean absolute error|\bmae\b", "mae", "regression"),
    (r"mean squared error|\bmse\b", "mse", "regression"),
    (r"\br2\b|r-squared|coefficient of determination", "r2", "regression"),
    (r"quadratic weighted kappa|cohen'?s kappa", "qwk", "label"),
    (r"macro[- ]averaged f1|macro f1|f1[- ]score.*macro", "f1_macro", "label"),
    (r"\bf1\b", "f1", "label"),
    (r"accuracy", "accuracy", "label"),
]


def find_csv(names, *patterns):
    for pattern in patterns:
        hits = [n for n in names if re.search(pattern, os.path.basename(n), re.I)]
        if hits:
            return sorted(hits, key=len)[0]
    return None


def metric_from_description(text):
    text = text.lower()
    section = text
    m = re.search(r"#+\s*evaluation(.*?)(\n#+\s|\Z)", text, re.S)
    if m:
        section = m.group(1)
    for where in (section, text):
        for pattern, name, family in METRIC_CUES:
            if re.search(pattern, where):
                return name, family, "lower is better" in where
    return None, None, False


def infer_plan():
    names = glob.glob(os.path.join(DATA, "**", "*.csv"), recursive=True)
    sample = find_csv(names, r"sample_?submission", r"sample")
    train = find_csv([n for n in names if n != sample], r"^train", r"train")
    test = find_csv([n for n in names if n not in (sample, train)], r"^test", r"test")
    if not (sample and train and test):
        raise SystemExit("cannot find train/test/sample submission CSVs in %s (found %s)" % (DATA, names))
    description = ""
    if os.path.exists(os.path.join(DATA, "description.md")):
        with open(os.path.join(DATA, "description.md"), encoding="utf-8", errors="replace") as f:
            description = f.read()
    metric, family, lower = metric_from_description(description)

    sub = pd.read_csv(sample, nrows=50)
    head = pd.read_csv(train, nrows=2000)
    test_head = pd.read_csv(test, nrows=5)
    id_col = sub.columns[0]
    targets = list(sub.columns[1:])
    plan = {"train": train, "test": test, "sample": sample, "id": id_col, "targets": targets,
            "metric": metric, "lower_is_better": bool(lower)}

    if len(targets) > 1 and all(t in head.columns and t not in test_head.columns for t in targets):
        # One 0/1 column per label in train, several of which can hold at once: multi-label.
        plan.update(label=None, kind="multilabel", labels=targets)
    elif len(targets) > 1:
        # One probability column per class: find the train column holding those class names.
        wanted = set(str(t) for t in targets)
        label = None
        for c in head.columns:
            if c == id_col or c in test_head.columns:
                continue
            values = set(str(v) for v in head[c].dropna().unique())
            if values and values <= wanted:
                label = c
                break
        if label is None:
            raise SystemExit("cannot find the label column for class columns %s" % targets)
        plan.update(label=label, kind="proba_multi", classes=targets)
    else:
        target = targets[0]
        label = target if target in head.columns else None
        if label is None:
            extra = [c for c in head.columns if c not in test_head.columns and c != id_col]
            if len(extra) != 1:
                raise SystemExit("cannot tell which train column is the target %r (train-only columns: %s)" % (target, extra))
            label = extra[0]
        y = head[label].dropna()
        numeric = pd.api.types.is_numeric_dtype(y)
        kind = family
        if kind == "proba" and y.nunique() > 2:
            kind = "regression" if numeric else "label"
        if kind is None and y.nunique() == 2 and target in sub.columns:
            # A sample holding values that are not labels (0.5 for a 0/1 target) asks for a score per row.
            given = sub[target].dropna()
            same = float if numeric and pd.api.types.is_numeric_dtype(given) else str
            labels = set(same(v) for v in y.unique())
            if any(same(v) not in labels for v in given.unique()):
                kind = "proba"
        if kind is None:
            kind = "regression" if numeric and y.nunique() > 20 else "label"
        plan.update(label=label, kind={"proba": "proba_binary"}.get(kind, kind))

    features = [c for c in test_head.columns if c != id_col and c in head.columns and c != plan["label"] and c not in targets]
    pixels = [c for c in features if re.match(r"^(pixel|px)_?\d+$", c, re.I)]
    texts = [c for c in features if free_text(head[c])]
    if len(pixels) >= 64 and len(pixels) >= 0.9 * len(features):
        plan.update(modality="image", pixels=pixels)
    elif texts and len(features) - len(texts) <= 3:
        longest = max(texts, key=lambda c: head[c].astype(str).str.len().mean())
        # Short phrases beside the text (names, titles, keywords) carry words of their own.
        phrases = [c for c in features if c != longest and phrase_column(head[c])]
        plan.update(modality="text", text=longest, phrases=phrases)
    else:
        plan.update(modality="tabular")
    plan["features"] = features
    return plan


# ---------------------------------------------------------------- features

def word_counts(col):
    return col.astype(str).str.count(r"\S+")


def free_text(col):
    """Whether a column holds prose: long values, or sentences of several words that rarely repeat."""
    if col.dtype != object or col.empty:
        return False
    text = col.astype(str)
    if text.str.len().mean() >= 100:
        return True
    return word_counts(col).mean() >= 8 and text.nunique() >= 0.9 * len(text)


def phrase_column(col):
    """Whether a column holds short multi-word phrases that rarely repeat (not codes, not categories)."""
    if col.dtype != object or col.empty:
        return False
    return word_counts(col).mean() >= 1.5 and col.astype(str).nunique() >= 0.5 * len(col)


def text_features(plan, train, test):
    """TF-IDF of word unigrams and bigrams of the text column, and of each phrase column beside it."""
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import TfidfVectorizer
    train_parts, test_parts = [], []
    for c in [plan["text"]] + plan.get("phrases", []):
        vec = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), min_df=2, max_features=300000, dtype=np.float32)
        train_parts.append(vec.fit_transform(train[c].fillna("").astype(str)))
        test_parts.append(vec.transform(test[c].fillna("").astype(str)))
    if len(train_parts) == 1:
        return train_parts[0], test_parts[0]
    return sp.hstack(train_parts).tocsr(), sp.hstack(test_parts).tocsr()


DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def fixed_width_code(text):
    """Whether every value is a word of one length (2 to 200 characters) over at most 40 distinct characters."""
    lengths = text.str.len()
    if lengths.nunique() != 1 or not 2 <= int(lengths.iloc[0]) <= 200 or text.str.contains(r"\s").any():
        return False
    return len(set("".join(text.head(2000)))) <= 40


def tabular_features(train, test, features):
    """Numbers as they are; dates split into parts; few-valued text as category codes; fixed-width codes
    one column per character position; other text as lengths."""
    both = pd.concat([train[features], test[features]], axis=0, ignore_index=True)
    out = pd.DataFrame(index=both.index)
    for c in features:
        col = both[c]
        if pd.api.types.is_bool_dtype(col):
            out[c] = col.astype(float)
        elif pd.api.types.is_numeric_dtype(col):
            out[c] = col.astype(float)
        else:
            text = col.astype(str)
            sample = text.dropna().head(200)
            if len(sample) and sample.str.match(DATE).mean() > 0.9:
                d = pd.to_datetime(col, errors="coerce")
                out[c + "_year"] = d.dt.year
                out[c + "_month"] = d.dt.month
                out[c + "_dayofyear"] = d.dt.dayofyear
                out[c + "_dayofweek"] = d.dt.dayofweek
            elif col.nunique(dropna=True) <= max(50, len(col) // 20):
                codes, _ = pd.factorize(col)
                out[c] = np.where(codes < 0, np.nan, codes).astype(float)
            elif fixed_width_code(text):
                # Codes of one length over a small alphabet (DNA, part numbers): one column per position.
                chars = text.str.split("", expand=True).iloc[:, 1:-1]
                for k in range(chars.shape[1]):
                    codes, _ = pd.factorize(chars.iloc[:, k])
                    out["%s_%d" % (c, k + 1)] = codes.astype(float)
            else:
                out[c + "_len"] = text.str.len().astype(float)
                out[c + "_words"] = text.str.count(r"\s+").astype(float)
    n = len(train)
    return out.iloc[:n].to_numpy(dtype=float), out.iloc[n:].to_numpy(dtype=float)


# ---------------------------------------------------------------- models

def have(module):
    try:
        __import__(module)
        return True
    except Exception:
        return False


def gbm(kind, n_classes, n_rows, budget):
    rounds = 2000 if budget > 120 else 600
    if have("xgboost"):
        import xgboost as xgb
        common = dict(n_estimators=rounds, learning_rate=0.05, max_depth=6, subsample=0.8,
                      colsample_bytree=0.8, tree_method="hist", n_jobs=os.cpu_count() or 1, random_state=SEED,
                      early_stopping_rounds=50)
        if kind == "regression":
            return "xgboost", lambda: xgb.XGBRegressor(**common)
        objective = "multi:softprob" if n_classes > 2 else "binary:logistic"
        return "xgboost", lambda: xgb.XGBClassifier(objective=objective, **common)
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
    if kind == "regression":
        return "hist-gradient-boosting", lambda: HistGradientBoostingRegressor(max_iter=rounds, learning_rate=0.05, early_stopping=True)
    return "hist-gradient-boosting", lambda: HistGradientBoostingClassifier(max_iter=rounds, learning_rate=0.05, early_stopping=True)


def linear(kind, n_classes, modality):
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.impute import SimpleImputer
    if modality == "text":
        if kind == "regression":
            return "tfidf+ridge", lambda: Ridge(alpha=1.0)
        return "tfidf+logistic", lambda: LogisticRegression(C=8.0, max_iter=2000, solver="liblinear" if n_classes <= 2 else "lbfgs")
    if kind == "regression":
        return "ridge", lambda: make_pipeline(SimpleImputer(), StandardScaler(), Ridge(alpha=1.0))
    return "logistic", lambda: make_pipeline(SimpleImputer(), StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))


def score(metric, kind, y_true, pred, classes):
    from sklearn import metrics
    try:
        if kind == "proba_multi":
            return "log_loss", metrics.log_loss(y_true, pred, labels=list(range(len(classes))))
        if kind == "proba_binary":
            if metric == "log_loss":
                return "log_loss", metrics.log_loss(y_true, pred, labels=[0, 1])
            return "roc_auc", metrics.roc_auc_score(y_true, pred)
        if kind == "regression":
            if metric == "mae":
                return "mae", metrics.mean_absolute_error(y_true, pred)
            return "rmse", float(np.sqrt(metrics.mean_squared_error(y_true, pred)))
        if metric == "f1_macro":
            return "f1_macro", metrics.f1_score(y_true, pred, average="macro")
        if metric == "qwk":
            return "qwk", metrics.cohen_kappa_score(y_true, pred, weights="quadratic")
        return "accuracy", metrics.accuracy_score(y_true, pred)
    except Exception as e:  # a fold without every class, say: the score is only for the log
        return metric or "score", float("nan")


def predict(model, X, kind):
    if kind in ("proba_multi", "proba_binary"):
        p = model.predict_proba(X)
        return p if kind == "proba_multi" else p[:, 1]
    if kind == "label":
        return model.predict(X).astype(int)
    return model.predict(X)


def run_fit(plan, model_name, budget):
    from sklearn.model_selection import KFold, StratifiedKFold
    train = pd.read_csv(plan["train"])
    test = pd.read_csv(plan["test"])
    sample = pd.read_csv(plan["sample"])
    kind, label, modality = plan["kind"], plan["label"], plan["modality"]
    if kind == "multilabel":
        return fit_multilabel(plan, train, test, sample, model_name, budget)
    train = train[train[label].notna()].reset_index(drop=True)
    log("train %d rows, test %d rows, sample %d rows; task %s (%s), metric %s"
        % (len(train), len(test), len(sample), kind, modality, plan.get("metric")))

    # Targets: class indices for classification, floats for regression.
    if kind == "proba_multi":
        classes = [str(c) for c in plan["targets"]]
        y = train[label].astype(str).map({c: i for i, c in enumerate(classes)}).to_numpy()
    elif kind == "regression":
        classes = []
        y = train[label].astype(float).to_numpy()
    else:
        raw_classes = sorted(train[label].unique().tolist(), key=lambda v: (str(type(v)), v))
        classes = raw_classes
        y = train[label].map({c: i for i, c in enumerate(raw_classes)}).to_numpy()
    n_classes = len(classes)

    if model_name == "prior":
        return prior_submission(plan, sample, train, classes, kind)

    if modality == "text":
        X, Xt = text_features(plan, train, test)
        name, make = linear(kind, n_classes, "text")
    elif modality == "image":
        X = train[plan["pixels"]].to_numpy(dtype=np.float32)
        Xt = test[plan["pixels"]].to_numpy(dtype=np.float32)
        scale = max(1.0, float(X.max()))
        X, Xt = X / scale, Xt / scale
        side = int(round(np.sqrt(X.shape[1])))
        if model_name == "auto" and kind != "regression" and side * side == X.shape[1] and have("torch"):
            log("model: small CNN (torch) on %dx%d images" % (side, side))
            pred = cnn_fit_predict(X, y, Xt, n_classes, kind, budget)
            return assemble(plan, sample, test, pred, classes, kind)
        from sklearn.decomposition import PCA
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        comps = min(100, X.shape[1])
        if kind == "regression":
            name, make = linear(kind, n_classes, "tabular")
        else:
            name, make = "pca+logistic", lambda: make_pipeline(StandardScaler(), PCA(n_components=comps, random_state=SEED), LogisticRegression(C=0.5, max_iter=500))
    else:
        X, Xt = tabular_features(train, test, plan["features"])
        if model_name == "linear":
            name, make = linear(kind, n_classes, "tabular")
        else:
            name, make = gbm(kind if kind == "regression" else "classification", n_classes, len(train), budget)
    log("model: %s; features: %d" % (name, X.shape[1]))

    is_xgb = name == "xgboost"
    regression = kind == "regression"
    folds = 5 if X.shape[0] * X.shape[1] < 5_000_000 and modality != "text" else 3
    splitter = KFold(folds, shuffle=True, random_state=SEED) if regression else StratifiedKFold(folds, shuffle=True, random_state=SEED)
    oof_scores, best_rounds, fold_models = [], [], []
    fold_start = time.time()
    for k, (a, b) in enumerate(splitter.split(X, y)):
        model = make()
        kwargs = {"eval_set": [(X[b], y[b])], "verbose": False} if is_xgb else {}
        model.fit(X[a], y[a], **kwargs)
        fold_models.append(model)
        if is_xgb:
            best_rounds.append(int(getattr(model, "best_iteration", model.n_estimators)) + 1)
        metric_name, value = score(plan.get("metric"), kind, y[b], predict(model, X[b], kind), classes)
        oof_scores.append(value)
        log("fold %d/%d: %s %.5f" % (k + 1, folds, metric_name, value))
        per_fold = (time.time() - fold_start) / (k + 1)
        # Keep time for the final fit (about two folds' worth) within the budget.
        if time.time() - STARTED + per_fold * 2.5 > budget and k + 1 < folds:
            log("stopping cross-validation early to stay within the %gs budget" % budget)
            break
    log("cross-validation %s: %.5f ± %.5f" % (metric_name, np.nanmean(oof_scores), np.nanstd(oof_scores)))

    # A refit on all rows costs about a fold and a quarter; where the budget has no room for it,
    # the fold models already trained predict instead (averaged), rather than a refit that the
    # time limit would cut short.
    left = budget - (time.time() - STARTED)
    if left < per_fold * 1.6:
        log("%.0fs left, too little for a final fit (about %.0fs): averaging the %d fold model(s)" % (left, per_fold * 1.25, len(fold_models)))
        return assemble(plan, sample, test, predict_mean(fold_models, Xt, kind), classes, kind)
    final = make()
    if is_xgb:
        final.set_params(n_estimators=max(10, int(np.mean(best_rounds) * 1.1)), early_stopping_rounds=None)
    final.fit(X, y)
    pred = predict(final, Xt, kind)
    return assemble(plan, sample, test, pred, classes, kind)


def predict_mean(models, X, kind):
    """The models' mean prediction: probabilities or values averaged; labels by the mean class
    probabilities. Only models that saw the same classes as the first are averaged (a fold can
    miss a rare class)."""
    same = [m for m in models if np.array_equal(getattr(m, "classes_", None), getattr(models[0], "classes_", None))]
    if kind == "label":
        if not all(hasattr(m, "predict_proba") for m in same):
            return predict(models[0], X, kind)
        proba = np.mean([m.predict_proba(X) for m in same], axis=0)
        return np.asarray(same[0].classes_)[proba.argmax(axis=1)].astype(int)
    return np.mean([predict(m, X, kind) for m in same], axis=0)


def fit_multilabel(plan, train, test, sample, model_name, budget):
    """One binary model per label column (TF-IDF + logistic regression for text, xgboost or
    logistic regression otherwise), each giving the probability that its label holds."""
    labels = plan["labels"]
    train = train[train[labels].notna().all(axis=1)].reset_index(drop=True)
    Y = train[labels].astype(float).to_numpy()
    log("train %d rows, test %d rows; multi-label, %d label columns, metric %s"
        % (len(train), len(test), len(labels), plan.get("metric")))
    if model_name == "prior":
        pred = np.tile(Y.mean(axis=0), (len(test), 1))
        log("prior submission (multilabel)")
        return assemble(plan, sample, test, pred, labels, "multilabel")
    if plan["modality"] == "text":
        X, Xt = text_features(plan, train, test)
        name, make = linear("proba_binary", 2, "text")
    else:
        X, Xt = tabular_features(train, test, plan["features"])
        if model_name == "linear" or not have("xgboost"):
            name, make = linear("proba_binary", 2, "tabular")
        else:
            import xgboost as xgb
            name = "xgboost"
            make = lambda: xgb.XGBClassifier(n_estimators=300, learning_rate=0.1, max_depth=6, subsample=0.8, colsample_bytree=0.8,
                                             tree_method="hist", n_jobs=os.cpu_count() or 1, random_state=SEED)
    log("model: %s per label; features: %d" % (name, X.shape[1]))
    pred = np.empty((Xt.shape[0], len(labels)))
    for j, column in enumerate(labels):
        y = Y[:, j].astype(int)
        rate = float(y.mean()) if len(y) else 0.5
        # A label that never (or always) holds in train cannot be learned; the rate is the answer.
        if len(np.unique(y)) < 2 or time.time() - STARTED > budget * 0.9:
            pred[:, j] = rate
            continue
        model = make()
        model.fit(X, y)
        pred[:, j] = model.predict_proba(Xt)[:, 1]
        log("label %d/%d (%s): fitted, rate %.4f" % (j + 1, len(labels), column, rate))
    return assemble(plan, sample, test, pred, labels, "multilabel")


def cnn_fit_predict(X, y, Xt, n_classes, kind, budget):
    """A small convolutional network on square images; trains epochs while the budget allows."""
    import torch
    from torch import nn
    side = int(round(np.sqrt(X.shape[1])))
    torch.manual_seed(SEED)
    torch.set_num_threads(os.cpu_count() or 1)
    to_images = lambda a: torch.tensor(a, dtype=torch.float32).reshape(-1, 1, side, side)
    rng = np.random.default_rng(SEED)
    order = rng.permutation(len(X))
    cut = max(1, len(X) // 10)
    hold, fit = order[:cut], order[cut:]
    Xf, yf = to_images(X[fit]), torch.tensor(y[fit], dtype=torch.long)
    Xh = to_images(X[hold])
    quarter = max(1, side // 4)
    net = nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2) if side >= 8 else nn.Identity(),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2) if side >= 8 else nn.Identity(),
        nn.Flatten(), nn.Linear(64 * (quarter if side >= 8 else side) ** 2, 128), nn.ReLU(), nn.Dropout(0.3),
        nn.Linear(128, n_classes),
    )
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()

    def probs(images):
        net.eval()
        with torch.no_grad():
            out = [torch.softmax(net(images[i:i + 1024]), dim=1) for i in range(0, len(images), 1024)]
        net.train()
        return torch.cat(out).numpy()

    epoch_start = time.time()
    for epoch in range(30):
        perm = torch.randperm(len(Xf))
        for i in range(0, len(Xf), 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            loss_fn(net(Xf[idx]), yf[idx]).backward()
            opt.step()
        p = probs(Xh)
        metric_name, value = score(None, "proba_multi" if kind != "label" else "label", y[hold],
                                   p if kind != "label" else p.argmax(axis=1), list(range(n_classes)))
        log("epoch %d: holdout %s %.5f" % (epoch + 1, metric_name, value))
        per_epoch = (time.time() - epoch_start) / (epoch + 1)
        if time.time() - STARTED + per_epoch * 1.5 > budget:
            break
    p = probs(to_images(Xt))
    if kind == "label":
        return p.argmax(axis=1)
    return p if kind == "proba_multi" else p[:, 1]


def assemble(plan, sample, test, pred, classes, kind):
    """Predictions in the sample submission's row order and columns."""
    id_col = plan["id"]
    order = pd.Series(np.arange(len(test)), index=test[id_col].astype(str))
    rows = order.reindex(sample[id_col].astype(str)).to_numpy()
    if np.isnan(rows.astype(float)).any():
        raise SystemExit("the sample submission has ids that the test file lacks")
    rows = rows.astype(int)
    out = pd.DataFrame({id_col: sample[id_col]})
    if kind == "multilabel":
        for i, c in enumerate(plan["labels"]):
            out[c] = np.clip(pred[rows, i], 1e-6, 1 - 1e-6)
    elif kind == "proba_multi":
        p = np.clip(pred[rows], 1e-6, 1.0)
        p = p / p.sum(axis=1, keepdims=True)
        for i, c in enumerate(plan["targets"]):
            out[c] = p[:, i]
    elif kind == "proba_binary":
        out[plan["targets"][0]] = np.clip(pred[rows], 1e-6, 1 - 1e-6)
    elif kind == "label":
        out[plan["targets"][0]] = [classes[i] for i in pred[rows]]
    else:
        out[plan["targets"][0]] = pred[rows]
    return out


def prior_submission(plan, sample, train, classes, kind):
    """The last resort: class frequencies, the majority class or the mean, for every row."""
    label = plan["label"]
    out = sample.copy()
    if kind == "proba_multi":
        freq = train[label].astype(str).value_counts(normalize=True)
        for c in plan["targets"]:
            out[c] = float(freq.get(str(c), 1e-6))
    elif kind == "proba_binary":
        out[plan["targets"][0]] = float((train[label] == classes[-1]).mean())
    elif kind == "label":
        out[plan["targets"][0]] = train[label].mode().iloc[0]
    else:
        out[plan["targets"][0]] = float(train[label].astype(float).mean())
    log("prior submission (%s)" % kind)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("plan")
    fit = sub.add_parser("fit")
    fit.add_argument("--model", choices=["auto", "linear", "prior"], default="auto")
    fit.add_argument("--budget", type=float, default=600.0)
    args = parser.parse_args()
    if args.command == "plan":
        # Long column lists are summarised: the plan is for reading; fit infers it again.
        shown = {k: ("<%d columns>" % len(v) if isinstance(v, list) and len(v) > 20 else v) for k, v in infer_plan().items()}
        print(json.dumps(shown))
        return
    plan = infer_plan()
    submission = run_fit(plan, args.model, args.budget)
    os.makedirs(SUBMISSION_DIR, exist_ok=True)
    path = os.path.join(SUBMISSION_DIR, "submission.csv")
    tmp = path + ".tmp"
    submission.to_csv(tmp, index=False)
    os.replace(tmp, path)
    log("wrote %s (%d rows)" % (path, len(submission)))


if __name__ == "__main__":
    main()
