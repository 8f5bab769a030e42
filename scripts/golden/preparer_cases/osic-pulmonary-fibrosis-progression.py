"""osic-pulmonary-fibrosis-progression: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def osic_raw(patients=30, seed=31):
    """Patients listed out of id order, visits partly out of week order, and repeated weeks (as in
    Kaggle's file) at each patient's first visit, so the unstable sort upstream uses decides which
    repeated visit becomes the public test row. Every patient repeats the same number of visits:
    upstream checks that each held-out patient has as many answer rows as the others, which repeated
    weeks add to."""
    rs = np.random.RandomState(seed)
    ids = ["ID00%011d%010d" % (a, b) for a, b in rs.randint(0, 10**10, size=(patients, 2), dtype=np.int64)]
    rows = []
    for pid in ids:
        age = int(rs.randint(49, 89))
        sex = rs.choice(["Male", "Female"], p=[0.8, 0.2])
        smoke = rs.choice(["Ex-smoker", "Never smoked", "Currently smokes"], p=[0.65, 0.3, 0.05])
        n = int(rs.randint(6, 11))
        weeks = np.sort(rs.choice(np.arange(-5, 134), size=n, replace=False))
        weeks = np.concatenate([[weeks[0]] * 3, weeks[1:], weeks[rs.randint(1, n, size=1)]])
        order = np.arange(len(weeks))
        rs.shuffle(order[len(order) // 2 :])
        for w in weeks[order]:
            fvc = int(rs.randint(1200, 4500))
            rows.append((pid, int(w), fvc, fvc / rs.uniform(25, 45) * 1.0, age, sex, smoke))
    return pd.DataFrame(rows, columns=["Patient", "Weeks", "FVC", "Percent", "Age", "Sex", "SmokingStatus"])


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    groups = list(old_train.groupby("Patient"))
    train_groups, test_groups = train_test_split(groups, test_size=0.1, random_state=0)
    new_train = pd.concat([g for _, g in train_groups])
    new_test = pd.concat([g for _, g in test_groups])
    test_public = new_test.sort_values(by="Weeks").groupby("Patient").first().reset_index()
    lo, hi = new_test["Weeks"].min(), new_test["Weeks"].max()
    grid = pd.DataFrame([(p, w) for p in new_test["Patient"].unique() for w in range(lo, hi + 1)], columns=["Patient", "Weeks"])
    answers = grid.merge(new_test, on=["Patient", "Weeks"], how="left")
    answers["Patient_Week"] = answers["Patient"] + "_" + answers["Weeks"].astype(str)
    answers["Confidence"] = 100
    sample = answers.copy()[["Patient_Week"]]
    sample["FVC"] = 2000
    sample["Confidence"] = 100
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    test_public.to_csv(os.path.join(public, "test.csv"), index=False)
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for folder, frame in (("train", new_train), ("test", answers)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for p in frame["Patient"].unique():
            shutil.copytree(os.path.join(raw, "train", p), os.path.join(public, folder, p), dirs_exist_ok=True)


def make_raw(raw):
    df = osic_raw()
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    rs = np.random.RandomState(32)
    for pid in df["Patient"].unique():
        folder = os.path.join(raw, "train", pid)
        os.makedirs(folder)
        for k in range(1, int(rs.randint(2, 5))):
            with open(os.path.join(folder, "%d.dcm" % k), "wb") as f:
                f.write(b"DICM fake slice %d of %s" % (k, pid.encode()))
