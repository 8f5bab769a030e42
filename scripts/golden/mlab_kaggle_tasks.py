#!/usr/bin/python3
"""Generate test/fixtures/mlagentbench/kaggle-tasks/: small synthetic downloads of the Kaggle
competitions behind the house-price, spaceship-titanic, feedback, parkinsons, identify-contrails
and fathomnet research tasks (real file names and columns, made-up values), the public and private
files MLAgentBench's preparers make from them, and scores of sample submissions.

Run with Debian's interpreter (it has numpy, pandas and scikit-learn):
    /usr/bin/python3 scripts/golden/mlab_kaggle_tasks.py

Layout per task:  <task>/raw/...        what the competition's zip holds
                  <task>/expected/...   public/ and private/ after the split, written by pandas
                  <task>/golden.json    [{"name", "submission" (CSV text), "score"}]
The scores are computed here with pandas, numpy and scikit-learn, matching submission rows to
answers by id.
"""
import json
import os
import random
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import mean_absolute_error, mean_squared_error, roc_auc_score

OUT = Path(__file__).resolve().parents[2] / "test" / "fixtures" / "mlagentbench" / "kaggle-tasks"


def fresh(task):
    root = OUT / task
    shutil.rmtree(root, ignore_errors=True)
    for part in ("raw", "expected/public", "expected/private"):
        (root / part).mkdir(parents=True)
    return root


def write_golden(root, cases):
    (root / "golden.json").write_text(json.dumps(cases, indent=1) + "\n")


def csv_text(frame):
    return frame.to_csv(index=False)


def split_in_order(train, fraction, shuffle_seed=None):
    if shuffle_seed is not None:
        train = train.sample(frac=1, random_state=shuffle_seed)
    train = train.reset_index(drop=True)
    cut = int(len(train) * fraction)
    return train.iloc[:cut], train.iloc[cut:]


# ---------------------------------------------------------------------------------------------
# house-price (home-data-for-ml-course)

HOUSE_NUMERIC = [
    "MSSubClass", "LotArea", "OverallQual", "OverallCond", "YearBuilt", "YearRemodAdd", "1stFlrSF", "2ndFlrSF",
    "LowQualFinSF", "GrLivArea", "FullBath", "HalfBath", "BedroomAbvGr", "KitchenAbvGr", "TotRmsAbvGrd",
    "Fireplaces", "WoodDeckSF", "OpenPorchSF", "EnclosedPorch", "3SsnPorch", "ScreenPorch", "PoolArea",
    "MiscVal", "MoSold", "YrSold",
]


def house_price():
    root = fresh("house-price")
    rs = np.random.RandomState(1)
    n = 47
    frame = pd.DataFrame({"Id": np.arange(1, n + 1), "MSZoning": rs.choice(["RL", "RM", "FV"], n)})
    frame["LotFrontage"] = np.where(rs.rand(n) < 0.2, np.nan, rs.randint(40, 120, n).astype(float))
    for col in HOUSE_NUMERIC:
        frame[col] = rs.randint(0, 3000, n)
    frame["Alley"] = np.where(rs.rand(n) < 0.7, None, rs.choice(["Grvl", "Pave"], n))
    frame["SalePrice"] = rs.randint(50_000, 400_000, n)
    frame.to_csv(root / "raw/train.csv", index=False)
    kaggle_test = frame.drop(columns=["SalePrice"]).head(5).assign(Id=lambda f: f["Id"] + 1000)
    kaggle_test.to_csv(root / "raw/test.csv", index=False)
    pd.DataFrame({"Id": kaggle_test["Id"], "SalePrice": 180000.0}).to_csv(root / "raw/sample_submission.csv", index=False)
    (root / "raw/data_description.txt").write_text("MSSubClass: Identifies the type of dwelling involved in the sale.\n")

    train, test = split_in_order(frame, 0.8)
    train.to_csv(root / "expected/public/train.csv", index=False)
    test.drop(columns=["SalePrice"]).to_csv(root / "expected/public/test.csv", index=False)
    shutil.copy(root / "raw/data_description.txt", root / "expected/public/data_description.txt")
    answer = test[["Id", "SalePrice"]]
    answer.to_csv(root / "expected/private/answer.csv", index=False)

    cases = []
    for name, noise, shuffle in [("exact", 0, False), ("noisy", 25_000, False), ("noisy-shuffled", 40_000, True)]:
        sub = answer.copy()
        sub["SalePrice"] = sub["SalePrice"] + rs.normal(0, noise, len(sub)) if noise else sub["SalePrice"].astype(float)
        if shuffle:
            sub = sub.sample(frac=1, random_state=3)
        merged = answer.merge(sub, on="Id", suffixes=("", "_pred"))
        cases.append({"name": name, "submission": csv_text(sub), "score": mean_absolute_error(merged["SalePrice"], merged["SalePrice_pred"])})
    write_golden(root, cases)


# ---------------------------------------------------------------------------------------------
# spaceship-titanic


def with_gaps(rs, values, share=0.1):
    values = pd.Series(values, dtype=object)
    values[rs.rand(len(values)) < share] = np.nan
    return values


def spaceship():
    root = fresh("spaceship-titanic")
    rs = np.random.RandomState(2)
    n = 52
    groups = np.sort(rs.randint(1, 30, n))
    ids = [f"{g:04d}_{i:02d}" for i, g in enumerate(groups, start=1)]
    frame = pd.DataFrame({
        "PassengerId": ids,
        "HomePlanet": with_gaps(rs, rs.choice(["Earth", "Europa", "Mars"], n)),
        "CryoSleep": with_gaps(rs, rs.rand(n) < 0.4),
        "Cabin": with_gaps(rs, [f"{d}/{k}/{s}" for d, k, s in zip(rs.choice(list("ABCDEFG"), n), rs.randint(0, 300, n), rs.choice(["P", "S"], n))]),
        "Destination": with_gaps(rs, rs.choice(["TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"], n)),
        "Age": np.where(rs.rand(n) < 0.1, np.nan, rs.randint(0, 80, n).astype(float)),
        "VIP": with_gaps(rs, rs.rand(n) < 0.05),
    })
    for col in ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]:
        frame[col] = np.where(rs.rand(n) < 0.1, np.nan, np.round(rs.exponential(300, n) * (rs.rand(n) < 0.5)))
    frame["Name"] = with_gaps(rs, [f"Name{i} Family{g}" for i, g in enumerate(groups)])
    frame["Transported"] = rs.rand(n) < 0.5
    frame.to_csv(root / "raw/train.csv", index=False)
    frame.drop(columns=["Transported"]).head(4).to_csv(root / "raw/test.csv", index=False)
    pd.DataFrame({"PassengerId": ids[:4], "Transported": False}).to_csv(root / "raw/sample_submission.csv", index=False)

    train, test = split_in_order(frame, 0.8)
    train.to_csv(root / "expected/public/train.csv", index=False)
    test.drop(columns=["Transported"]).to_csv(root / "expected/public/test.csv", index=False)
    answer = test[["PassengerId", "Transported"]]
    answer.to_csv(root / "expected/private/answer.csv", index=False)

    cases = []
    for name, flip, ints in [("exact", 0.0, False), ("some-wrong", 0.3, False), ("as-integers", 0.5, True)]:
        sub = answer.copy()
        wrong = rs.rand(len(sub)) < flip
        sub["Transported"] = sub["Transported"] ^ wrong
        if ints:
            sub["Transported"] = sub["Transported"].astype(int)
        merged = answer.merge(sub, on="PassengerId", suffixes=("", "_pred"))
        score = float((merged["Transported"].astype(int) == merged["Transported_pred"].astype(int)).mean())
        cases.append({"name": name, "submission": csv_text(sub.sample(frac=1, random_state=5)), "score": score})
    write_golden(root, cases)


# ---------------------------------------------------------------------------------------------
# feedback (feedback-prize-english-language-learning)

DIMENSIONS = ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"]
WORDS = "the school students should have a longer summer because they learn more when, honestly, \"rest\" helps".split()


def feedback():
    root = fresh("feedback")
    rs = np.random.RandomState(3)
    n = 160
    texts = []
    for _ in range(n):
        sentences = [" ".join(rs.choice(WORDS, rs.randint(4, 12))) for _ in range(rs.randint(1, 4))]
        texts.append(".\n\n".join(sentences) + ".")
    frame = pd.DataFrame({"text_id": [f"{rs.randint(16 ** 11, 16 ** 12):012X}" for _ in range(n)], "full_text": texts})
    for d in DIMENSIONS:
        frame[d] = rs.randint(2, 11, n) / 2
    frame.to_csv(root / "raw/train.csv", index=False)
    frame[["text_id", "full_text"]].head(3).to_csv(root / "raw/test.csv", index=False)
    pd.DataFrame({"text_id": frame["text_id"].head(3), **{d: 3.0 for d in DIMENSIONS}}).to_csv(root / "raw/sample_submission.csv", index=False)

    train, test = split_in_order(frame, 0.98, shuffle_seed=42)
    train.to_csv(root / "expected/public/train.csv", index=False)
    test.drop(columns=DIMENSIONS).to_csv(root / "expected/public/test.csv", index=False)
    answer = test.drop(columns=["full_text"])
    answer.to_csv(root / "expected/private/answer.csv", index=False)

    cases = []
    for name, noise in [("exact", 0.0), ("noisy", 0.4), ("very-noisy", 1.0)]:
        sub = answer.copy()
        for d in DIMENSIONS:
            sub[d] = sub[d] + rs.normal(0, noise, len(sub))
        sub = sub.sample(frac=1, random_state=7)
        merged = answer.merge(sub, on="text_id", suffixes=("", "_pred"))
        rmses = [mean_squared_error(merged[d], merged[d + "_pred"], squared=False) for d in DIMENSIONS]
        cases.append({"name": name, "submission": csv_text(sub), "score": float(np.mean(rmses))})
    write_golden(root, cases)


# ---------------------------------------------------------------------------------------------
# parkinsons (amp-parkinsons-disease-progression-prediction)

MONTHS = [0, 3, 6, 12, 18, 24, 30, 36, 42, 48, 54, 60, 72, 84, 96, 108]


def smape_plus_one(truth, predicted):
    truth, predicted = np.asarray(truth, dtype=float), np.asarray(predicted, dtype=float)
    keep = np.isfinite(truth)
    truth, predicted = truth[keep], predicted[keep]
    return float(np.average(np.abs(predicted - truth) / ((truth + predicted) / 2 + 1)) * 100)


def clinical_rows(rs, patients, months_of):
    rows = []
    for p in patients:
        for m in months_of(p):
            rows.append({
                "visit_id": f"{p}_{m}", "patient_id": p, "visit_month": m,
                "updrs_1": np.nan if rs.rand() < 0.05 else float(rs.randint(0, 20)),
                "updrs_2": np.nan if rs.rand() < 0.05 else float(rs.randint(0, 25)),
                "updrs_3": np.nan if rs.rand() < 0.1 else float(rs.randint(0, 60)),
                "updrs_4": np.nan if rs.rand() < 0.4 else float(rs.randint(0, 10)),
                "upd23b_clinical_state_on_medication": rs.choice(["On", "Off", None], p=[0.5, 0.2, 0.3]),
            })
    return pd.DataFrame(rows)


def parkinsons():
    root = fresh("parkinsons")
    rs = np.random.RandomState(4)
    patients = [int(p) for p in rs.choice(np.arange(55, 65000), 9, replace=False)]
    months_of = lambda p: sorted(rs.choice(MONTHS, rs.randint(5, 12), replace=False).tolist())
    clinical = clinical_rows(rs, patients, months_of)
    supplemental = clinical_rows(rs, patients[:3] + [int(p) for p in rs.choice(np.arange(70000, 80000), 3, replace=False)], months_of)
    visits = clinical[["visit_id", "visit_month", "patient_id"]]
    sampled = visits[rs.rand(len(visits)) < 0.7]
    proteins = sampled.loc[sampled.index.repeat(2)].reset_index(drop=True)
    proteins["UniProt"] = ["O00391", "P00441"] * (len(proteins) // 2)
    proteins["NPX"] = np.round(rs.lognormal(10, 1, len(proteins)), 1)
    peptides = proteins[["visit_id", "visit_month", "patient_id", "UniProt"]].copy()
    peptides["Peptide"] = np.where(peptides["UniProt"] == "O00391", "NEQEQPLGQWHLS", "GDGPVQGIINFEQK")
    peptides["PeptideAbundance"] = np.round(rs.lognormal(9, 1, len(peptides)), 2)

    clinical.to_csv(root / "raw/train_clinical_data.csv", index=False)
    supplemental.to_csv(root / "raw/supplemental_clinical_data.csv", index=False)
    proteins.to_csv(root / "raw/train_proteins.csv", index=False)
    peptides.to_csv(root / "raw/train_peptides.csv", index=False)
    for folder in ("example_test_files", "amp_pd_peptide", "amp_pd_peptide_310"):
        (root / "raw" / folder).mkdir()
    (root / "raw/example_test_files/test.csv").write_text("visit_id,visit_month,patient_id,updrs_test,row_id,group_key\n3342_0,0,3342,updrs_1,3342_0_updrs_1,0\n")
    (root / "raw/amp_pd_peptide/__init__.py").write_text("")
    (root / "raw/public_timeseries_testing_util.py").write_text("# Kaggle's own copy\n")

    # The split, with upstream's semantics: two patients drawn by Python's random module.
    random.seed(42)
    ids = clinical["patient_id"].unique()
    test_ids = random.sample(ids.tolist(), 2)
    train_ids = [p for p in ids if p not in test_ids]
    pub, priv = root / "expected/public", root / "expected/private"
    (pub / "example_test_files").mkdir()
    for name, frame in [("train_proteins.csv", proteins), ("train_clinical_data.csv", clinical), ("train_peptides.csv", peptides), ("supplemental_clinical_data.csv", supplemental)]:
        frame[frame["patient_id"].isin(train_ids)].to_csv(pub / name, index=False)
    proteins[proteins["patient_id"].isin(test_ids)].to_csv(pub / "example_test_files/test_proteins.csv", index=False)
    peptides[peptides["patient_id"].isin(test_ids)].to_csv(pub / "example_test_files/test_peptides.csv", index=False)
    test_clinical = clinical[clinical["patient_id"].isin(test_ids)]

    parts = []
    for level in range(1, 5):
        part = test_clinical.copy()
        part["level_3"] = level
        part["updrs_test"] = f"updrs_{level}"
        parts.append(part)
    mock = pd.concat(parts)
    mock["row_id"] = [f"{p}_{int(m)}_updrs_{l}" for p, m, l in zip(mock["patient_id"], mock["visit_month"], mock["level_3"])]
    mock[["visit_id", "patient_id", "visit_month", "row_id", "updrs_test"]].to_csv(pub / "example_test_files/test.csv", index=False)

    waits = []
    for wait in [0, 6, 12, 24]:
        part = mock.copy()
        part["wait"] = wait
        waits.append(part)
    y = pd.concat(waits)
    y = y[y["visit_month"] + y["wait"] <= 108]
    y["prediction_id"] = [f"{p}_{int(m)}_updrs_{l}_plus_{w}_months" for p, m, w, l in zip(y["patient_id"], y["visit_month"], y["wait"], y["level_3"])]
    by_visit = test_clinical.set_index("visit_id")
    ratings = []
    for p, m, w, l in zip(y["patient_id"], y["visit_month"], y["wait"], y["level_3"]):
        key = f"{p}_{int(m) + int(w)}"
        ratings.append(by_visit.loc[key, f"updrs_{l}"] if key in by_visit.index else None)
    y["rating"] = pd.Series(ratings, index=y.index, dtype=float)
    y = y.dropna()
    answer = y[["prediction_id", "rating", "visit_month"]]
    answer.to_csv(priv / "answer.csv", index=False)
    y["rating"] = 0
    y[["prediction_id", "rating", "visit_month"]].to_csv(pub / "example_test_files/sample_submission.csv", index=False)

    cases = []
    for name, noise in [("exact", 0.0), ("noisy", 3.0), ("zeros", None)]:
        sub = answer[["prediction_id", "rating"]].copy()
        sub["rating"] = 0.0 if noise is None else np.clip(np.round(sub["rating"] + rs.normal(0, noise, len(sub)) if noise else sub["rating"]), 0, None)
        sub = sub.sample(frac=1, random_state=9)
        merged = answer.merge(sub, on="prediction_id", suffixes=("", "_pred"))
        cases.append({"name": name, "submission": csv_text(sub), "score": smape_plus_one(merged["rating"], merged["rating_pred"])})
    write_golden(root, cases)
    return test_ids


# ---------------------------------------------------------------------------------------------
# identify-contrails (google-research-identify-contrails-reduce-global-warming)

BANDS = [f"band_{b:02d}.npy" for b in range(8, 17)]
SIDE = 6


def rle_runs(mask):
    """1-based "start length" pairs, pixels numbered down each column first; '-' for an empty mask."""
    flat = mask.T.flatten()
    runs, prev = [], -2
    for b in np.where(flat == 1)[0]:
        if b > prev + 1:
            runs += [b + 1, 0]
        runs[-1] += 1
        prev = b
    return " ".join(str(int(v)) for v in runs) if runs else "-"


def rle_mask(text, shape):
    img = np.zeros(shape[0] * shape[1], dtype=np.uint8)
    if text != "-":
        nums = [int(v) for v in text.split()]
        for start, length in zip(nums[0::2], nums[1::2]):
            img[start - 1:start - 1 + length] = 1
    return img.reshape(shape, order="F")


def smoothed_dice(pred, truth, smooth=1e-6):
    return (2 * np.sum(pred * truth) + smooth) / (np.sum(pred) + np.sum(truth) + smooth)


def contrail_record(rs, folder, labelled, individual):
    folder.mkdir(parents=True)
    for band in BANDS:
        np.save(folder / band, (rs.rand(SIDE, SIDE, 8) * 60 + 240).astype(np.float32))
    if labelled:
        mask = (rs.rand(SIDE, SIDE, 1) < 0.3).astype(np.int32)
        np.save(folder / "human_pixel_masks.npy", mask)
        if individual:
            np.save(folder / "human_individual_masks.npy", np.repeat(mask[..., None], 3, axis=3))


def contrails():
    root = fresh("identify-contrails")
    rs = np.random.RandomState(5)
    ids = {part: [str(rs.randint(10 ** 17, 9 * 10 ** 18, dtype=np.int64)) for _ in range(3)] for part in ("train", "validation")}
    ids["test"] = ["1000834164244036115"]
    for part, records in ids.items():
        for rid in records:
            contrail_record(rs, root / "raw" / part / rid, part != "test", part == "train")
    # The validation record whose mask is empty checks that an empty prediction scores 1 there.
    np.save(root / "raw/validation" / ids["validation"][0] / "human_pixel_masks.npy", np.zeros((SIDE, SIDE, 1), dtype=np.int32))
    for part in ("train", "validation"):
        (root / "raw" / f"{part}_metadata.json").write_text(json.dumps([{"record_id": r, "timestamps": [1.5e9]} for r in ids[part]]))
    pd.DataFrame({"record_id": [int(r) for r in ids["test"]], "encoded_pixels": ["1 3 10 5"]}).to_csv(root / "raw/sample_submission.csv", index=False)

    truth = {r: np.load(root / "raw/validation" / r / "human_pixel_masks.npy")[:, :, 0] for r in ids["validation"]}
    cases = []
    for name in ("exact", "empty", "random", "template-rows-kept"):
        rows = []
        for rid in sorted(truth):
            if name == "exact":
                rows.append((rid, rle_runs(truth[rid])))
            elif name == "empty":
                rows.append((rid, "-"))
            else:
                rows.append((rid, rle_runs((rs.rand(SIDE, SIDE) < 0.4).astype(np.uint8))))
        if name == "template-rows-kept":
            rows.insert(0, (ids["test"][0], "1 3 10 5"))
        sub = pd.DataFrame(rows, columns=["record_id", "encoded_pixels"])
        total = 0.0
        for rid in os.listdir(root / "raw/validation"):
            pred = rle_mask(sub.set_index("record_id").loc[rid, "encoded_pixels"], (SIDE, SIDE))
            total += smoothed_dice(pred, truth[rid])
        cases.append({"name": name, "submission": csv_text(sub), "score": total / len(truth)})
    write_golden(root, cases)


# ---------------------------------------------------------------------------------------------
# fathomnet (fathomnet-out-of-sample-detection)


def apk(actual, predicted, k=20):
    predicted = predicted[:k]
    hits, score = 0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1
            score += hits / (i + 1)
    return score / min(len(actual), k) if actual else 0.0


def fathomnet():
    root = fresh("fathomnet")
    rs = np.random.RandomState(6)
    n_categories, n = 12, 150
    (root / "raw/multilabel_classification").mkdir()
    (root / "raw/object_detection").mkdir()
    pd.DataFrame({"id": range(1, n_categories + 1), "name": [f"Species {c}" for c in range(1, n_categories + 1)],
                  "supercat": rs.choice(["Fish", "Sea star", "Coral"], n_categories)}).to_csv(root / "raw/category_key.csv", index=False)
    uuids = ["%08x-%04x-%04x-%04x-%012x" % tuple(int(v) for v in (rs.randint(0, 2 ** 31), rs.randint(0, 2 ** 16), rs.randint(0, 2 ** 16), rs.randint(0, 2 ** 16), rs.randint(0, 2 ** 40))) for _ in range(n + 4)]
    cats = [sorted(set(int(c) for c in rs.randint(1, n_categories + 1, rs.randint(1, 4)))) for _ in range(n)]
    frame = pd.DataFrame({"id": uuids[:n], "categories": [str([float(c) for c in cs]) for cs in cats]})
    frame.to_csv(root / "raw/multilabel_classification/train.csv", index=False)

    def image(i, uid):
        return {"id": i, "width": 1920, "height": 1080, "file_name": uid + ".png", "license": 0,
                "coco_url": f"https://fathomnet.org/static/m3/{uid}.png", "date_captured": "2014-04-16 22:40:38"}

    categories = [{"id": c, "name": f"Species {c}", "supercategory": "Fish"} for c in range(1, n_categories + 1)]
    images = [image(i + 1, uid) for i, uid in enumerate(uuids[:n])]
    annotations = []
    for i, cs in enumerate(cats):
        for c in cs:
            annotations.append({"id": len(annotations) + 1, "image_id": i + 1, "category_id": c, "segmentation": [], "area": float(rs.randint(100, 9000)),
                                "bbox": [float(rs.randint(0, 1800)), 12.5, 40.0, 31.0], "iscrowd": 0})
    info = {"year": 2023, "version": "0", "description": "Generated with FathomNet \u00e9 tools", "contributor": "synthetic"}
    with open(root / "raw/object_detection/train.json", "w") as f:
        json.dump({"info": info, "images": images, "annotations": annotations, "categories": categories, "licenses": []}, f)
    with open(root / "raw/object_detection/eval.json", "w") as f:
        json.dump({"info": info, "images": [image(i + 1, uid) for i, uid in enumerate(uuids[n:])], "categories": categories, "licenses": []}, f)
    pd.DataFrame({"id": uuids[n:], "categories": "1 2 3", "osd": 0.1}).to_csv(root / "raw/sample_submission.csv", index=False)
    for name in ("download_images.py", "requirements.txt", "demo_download.ipynb"):
        (root / "raw" / name).write_text("# Kaggle's helper\n")

    # The split, with upstream's semantics.
    shuffled = frame.sample(frac=1, random_state=42).reset_index(drop=True)
    cut = int(len(shuffled) * 0.98)
    train, test = shuffled.iloc[:cut], shuffled.iloc[cut:]
    pub, priv = root / "expected/public", root / "expected/private"
    (pub / "multilabel_classification").mkdir()
    (pub / "object_detection").mkdir()
    train.to_csv(pub / "multilabel_classification/train.csv", index=False)
    shutil.copy(root / "raw/category_key.csv", pub / "category_key.csv")
    orig = json.load(open(root / "raw/object_detection/train.json"))
    test_json = json.load(open(root / "raw/object_detection/eval.json"))
    test_ids = set(test["id"])
    train_json = dict(orig)
    train_json["images"] = [x for x in orig["images"] if x["file_name"][:-4] not in test_ids]
    kept = {x["id"] for x in train_json["images"]}
    train_json["annotations"] = [a for a in orig["annotations"] if a["image_id"] in kept]
    test_json["images"] = [x for x in orig["images"] if x["file_name"][:-4] in test_ids]
    for i, x in enumerate(train_json["images"]):
        for a in train_json["annotations"]:
            if a["image_id"] == x["id"]:
                a["image_id"] = i + 1
        x["id"] = i + 1
    for i, a in enumerate(train_json["annotations"]):
        a["id"] = i + 1
    for i, x in enumerate(test_json["images"]):
        x["id"] = i + 1
    with open(pub / "object_detection/train.json", "w") as f:
        json.dump(train_json, f, indent=4)
    with open(pub / "object_detection/eval.json", "w") as f:
        json.dump(test_json, f, indent=4)
    # Out-of-sample labels are drawn once, with Python's random seeded 42, and kept with the answers.
    draw = random.Random(42)
    answer = test[["id", "categories"]].copy()
    answer["osd"] = [draw.randint(0, 1) for _ in range(len(answer))]
    answer.to_csv(priv / "answer.csv", index=False)

    truth_cats = {r: [int(float(c)) for c in cs.strip("[]").split(",") if c.strip()] for r, cs in zip(answer["id"], answer["categories"])}
    cases = []
    for name in ("perfect", "noisy", "constant-osd"):
        rows = []
        for rid, osd in zip(answer["id"], answer["osd"]):
            if name == "perfect":
                predicted, score = truth_cats[rid], float(osd)
            else:
                predicted = [int(c) for c in rs.permutation(n_categories)[: rs.randint(1, 6)] + 1]
                score = 0.5 if name == "constant-osd" else float(np.round(rs.rand(), 3))
            rows.append((rid, " ".join(str(c) for c in predicted), score))
        sub = pd.DataFrame(rows, columns=["id", "categories", "osd"]).sample(frac=1, random_state=2)
        merged = answer.merge(sub, on="id", suffixes=("", "_pred")).sort_values("id")
        auc = roc_auc_score(merged["osd"], merged["osd_pred"])
        mapk = np.mean([apk(truth_cats[r], [int(c) for c in p.split()]) for r, p in zip(merged["id"], merged["categories_pred"])])
        cases.append({"name": name, "submission": csv_text(sub), "score": 0.5 * (2 * (auc - 0.5) + mapk)})
    write_golden(root, cases)
    return answer["osd"].tolist()


if __name__ == "__main__":
    contrails()
    print("fathomnet out-of-sample labels:", fathomnet())
    house_price()
    spaceship()
    feedback()
    print("parkinsons test patients:", parkinsons())
    print(f"wrote {OUT}")
