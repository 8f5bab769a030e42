#!/usr/bin/env python3
"""Oracle for the upstream preparers: synthetic raw data shaped like each competition's Kaggle
files, and the md5 of every file pandas + scikit-learn write when the documented preparation
steps are applied to it. Run with Debian's /usr/bin/python3; writes test/fixtures/preparers/."""
import hashlib
import json
import os
import sys
import tempfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "fixtures", "preparers")


def md5(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def spaceship_raw(n=700, seed=7):
    rs = np.random.RandomState(seed)
    def maybe(values, p_missing=0.03):
        return [None if rs.random_sample() < p_missing else v for v in values]
    groups = np.cumsum(rs.randint(1, 3, size=n))
    ids = []
    last, k = None, 0
    for g in groups:
        k = k + 1 if g == last else 1
        last = g
        ids.append("%04d_%02d" % (g, k))
    planets = rs.choice(["Earth", "Europa", "Mars"], size=n)
    cryo = rs.random_sample(n) < 0.35
    cabins = ["%s/%d/%s" % (rs.choice(list("ABCDEFGT")), rs.randint(0, 1900), rs.choice(["P", "S"])) for _ in range(n)]
    dest = rs.choice(["TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"], size=n)
    age = rs.randint(0, 80, size=n).astype(float)
    vip = rs.random_sample(n) < 0.03
    spend = {c: np.where(cryo, 0.0, np.round(rs.exponential(300, size=n)) * (rs.random_sample(n) < 0.6)) for c in ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]}
    first = rs.choice(["Juanna", "Altark", "Solam", "Willy", "Sandie", "Billex"], size=n)
    lastn = rs.choice(["Vines", "Susent", "Santantines", "Hetforhaney", "Hinetthews"], size=n)
    transported = (cryo | (rs.random_sample(n) < 0.3)) & ~(vip & (rs.random_sample(n) < 0.5))
    df = pd.DataFrame({
        "PassengerId": ids,
        "HomePlanet": maybe(list(planets)),
        "CryoSleep": maybe(list(cryo)),
        "Cabin": maybe(cabins),
        "Destination": maybe(list(dest)),
        "Age": maybe(list(age)),
        "VIP": maybe(list(vip)),
        **{c: maybe(list(v)) for c, v in spend.items()},
        "Name": maybe(["%s %s" % (a, b) for a, b in zip(first, lastn)]),
        "Transported": transported,
    })
    return df


def spaceship_prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    sample = new_test[["PassengerId", "Transported"]].copy()
    sample["Transported"] = False
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.drop("Transported", axis="columns").to_csv(os.path.join(public, "test.csv"), index=False)


def spooky_raw(n=400, seed=11):
    rs = np.random.RandomState(seed)
    words = ["the", "night", "was", "dark,", "and", "\"strange\"", "whispers", "filled", "old", "house;", "I", "felt"]
    texts = [" ".join(rs.choice(words, size=rs.randint(3, 25))) for _ in range(n)]
    return pd.DataFrame({
        "id": ["id%05d" % i for i in rs.permutation(n * 3)[:n]],
        "text": texts,
        "author": rs.choice(["EAP", "HPL", "MWS"], size=n, p=[0.4, 0.29, 0.31]),
    })


def spooky_prepare(raw, public, private):
    import zipfile
    with zipfile.ZipFile(os.path.join(raw, "train.zip")) as z:
        z.extractall(raw)
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    one_hot = pd.DataFrame(0, index=new_test.index, columns=["id", "EAP", "HPL", "MWS"])
    one_hot["id"] = new_test["id"]
    for i, row in new_test.iterrows():
        one_hot.loc[i, row["author"]] = 1
    sample = one_hot.copy()
    sample["EAP"] = 0.403493538995863
    sample["HPL"] = 0.287808366106543
    sample["MWS"] = 0.308698094897594
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.drop(columns=["author"]).to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    one_hot.to_csv(os.path.join(private, "test.csv"), index=False)


def aptos_raw(n=120, seed=5):
    rs = np.random.RandomState(seed)
    ids = ["%012x" % v for v in rs.randint(0, 2**40, size=n)]
    return pd.DataFrame({"id_code": ids, "diagnosis": rs.choice([0, 1, 2, 3, 4], size=n, p=[0.5, 0.1, 0.25, 0.05, 0.1])})


def aptos_images(raw_dir, df):
    """Tiny stand-ins for the retina photos: what matters is which file lands where."""
    os.makedirs(os.path.join(raw_dir, "train_images"), exist_ok=True)
    for i, code in enumerate(df["id_code"]):
        with open(os.path.join(raw_dir, "train_images", code + ".png"), "wb") as f:
            f.write(b"\x89PNG fake image %d %s" % (i, code.encode()))


def aptos_prepare(raw, public, private):
    import shutil
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    without = new_test.drop(columns=["diagnosis"])
    os.makedirs(os.path.join(public, "test_images"))
    os.makedirs(os.path.join(public, "train_images"))
    for code in new_train["id_code"]:
        shutil.copyfile(os.path.join(raw, "train_images", code + ".png"), os.path.join(public, "train_images", code + ".png"))
    for code in without["id_code"]:
        shutil.copyfile(os.path.join(raw, "train_images", code + ".png"), os.path.join(public, "test_images", code + ".png"))
    sample = new_test.copy()
    sample["diagnosis"] = 0
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    without.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def tps_dec_raw(n=500, seed=3):
    rs = np.random.RandomState(seed)
    df = pd.DataFrame({"Id": np.arange(n)})
    for c in ["Elevation", "Aspect", "Slope", "Horizontal_Distance_To_Hydrology", "Hillshade_9am"]:
        df[c] = rs.randint(-50, 4000, size=n)
    for k in range(1, 5):
        df["Wilderness_Area%d" % k] = (rs.random_sample(n) < 0.25).astype(int)
    for k in range(1, 6):
        df["Soil_Type%d" % k] = (rs.random_sample(n) < 0.1).astype(int)
    df["Cover_Type"] = rs.choice([1, 2, 3, 4, 6, 7], size=n, p=[0.36, 0.56, 0.05, 0.001, 0.009, 0.02])
    return df


def tps_dec_prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    new_test.drop(columns=["Cover_Type"]).to_csv(os.path.join(public, "test.csv"), index=False)
    pd.DataFrame({"Id": new_test["Id"].values, "Cover_Type": 2}).to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def write_zip(df, raw_dir, zip_name, member):
    """The raw folder as Kaggle ships it: the CSV inside a zip (fixed dates keep its bytes stable)."""
    import io
    import zipfile
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    with zipfile.ZipFile(os.path.join(raw_dir, zip_name), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo(member, (2020, 1, 1, 0, 0, 0)), buf.getvalue())


CASES = {
    "aptos2019-blindness-detection": (aptos_raw, aptos_prepare, "train.csv"),
    "spaceship-titanic": (spaceship_raw, spaceship_prepare, "train.csv"),
    "spooky-author-identification": (spooky_raw, spooky_prepare, "train.zip:train.csv"),
    "tabular-playground-series-dec-2021": (tps_dec_raw, tps_dec_prepare, "train.csv"),
}


def main():
    for cid, (make_raw, prepare, raw_name) in CASES.items():
        out = os.path.join(ROOT, cid)
        os.makedirs(os.path.join(out, "raw"), exist_ok=True)
        if ":" in raw_name:
            zip_name, member = raw_name.split(":")
            write_zip(make_raw(), os.path.join(out, "raw"), zip_name, member)
        else:
            df = make_raw()
            df.to_csv(os.path.join(out, "raw", raw_name), index=False)
            if cid == "aptos2019-blindness-detection":
                aptos_images(os.path.join(out, "raw"), df)
        with tempfile.TemporaryDirectory() as tmp:
            public, private = os.path.join(tmp, "public"), os.path.join(tmp, "private")
            os.makedirs(public)
            os.makedirs(private)
            # The preparer may unpack into raw/; it works on a copy so the fixture stays as shipped.
            raw_copy = os.path.join(tmp, "raw")
            __import__("shutil").copytree(os.path.join(out, "raw"), raw_copy)
            prepare(raw_copy, public, private)
            expected = {}
            for label, d in (("public", public), ("private", private)):
                for folder, _dirs, files in os.walk(d):
                    for name in files:
                        rel = os.path.relpath(os.path.join(folder, name), d).replace(os.sep, "/")
                        expected["%s/%s" % (label, rel)] = md5(os.path.join(folder, name))
            expected = dict(sorted(expected.items()))
        with open(os.path.join(out, "expected.json"), "w") as f:
            json.dump({"pandas": pd.__version__, "sklearn": __import__("sklearn").__version__, "md5": expected}, f, indent=2)
            f.write("\n")
        print(cid, expected, file=sys.stderr)


if __name__ == "__main__":
    main()
