"""cdiscount-image-classification-challenge: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _bson import Int64, decode_file_iter, encode, encode_raw

CATEGORIES = [1000010653, 1000010667, 1000004079, 1000018290, 1000004141, 1000015309, 1000001859]


def picture(rs, k):
    return b"\xff\xd8\xff\xe0" + bytes(rs.randint(0, 256, size=rs.randint(8, 40)).tolist()) + b"product %d\xff\xd9" % k


def product(rs, pid, k):
    imgs = [("doc", [("picture", picture(rs, k))]) for _ in range(rs.randint(1, 5))]
    category = int(rs.choice(CATEGORIES))
    pairs = [("_id", pid), ("imgs", ("array", [(str(i), d) for i, d in enumerate(imgs)])), ("category_id", category)]
    if k % 17 == 3:
        # Another writer's int64 label: pymongo keeps it int64 on the way back out.
        pairs[2] = ("category_id", Int64(category))
    if k % 53 == 10:
        # "_id" after the other fields: pymongo writes it first again.
        pairs = [pairs[1], pairs[2], pairs[0]]
    if k % 41 == 7:
        # Array keys that are not 0, 1, ...: pymongo renumbers them.
        pairs[1] = ("imgs", ("array", [("7", d) for d in imgs]))
    if k == 120:
        # A repeated key: the last value counts, at the first position.
        pairs.insert(1, ("category_id", 1))
    return pairs


def make_raw(raw):
    rs = np.random.RandomState(17)
    ids = np.cumsum(rs.randint(1, 30, size=300)).tolist()
    docs = [encode_raw(product(rs, pid, k)) for k, pid in enumerate(ids)]
    with open(os.path.join(raw, "train.bson"), "wb") as f:
        f.write(b"".join(docs))
    with open(os.path.join(raw, "train_example.bson"), "wb") as f:
        f.write(b"".join(docs[:82]))
    with open(os.path.join(raw, "test.bson"), "wb") as f:
        f.write(b"".join(encode_raw([("_id", 10 + k), ("imgs", ("array", [("0", ("doc", [("picture", picture(rs, k))]))]))]) for k in range(5)))
    names = pd.DataFrame({
        "category_id": CATEGORIES,
        "category_level1": ["ABONNEMENT / SERVICES", "AMENAGEMENT URBAIN - VOIRIE", "ANIMALERIE", "APICULTURE", "ART DE LA TABLE - ARTICLES CULINAIRES", "AUTO - MOTO", "BAGAGERIE"],
        "category_level2": ["CARTE PREPAYEE", "AMENAGEMENT URBAIN", "ACCESSOIRE POUR ANIMAUX", "APICULTURE", "ARTICLES CULINAIRES", "ENTRETIEN", "SAC, \"VALISE\""],
        "category_level3": ["CARTE PREPAYEE MULTIMEDIA", "ABRI FUMEUR", "CHATIÈRE", "RUCHE", "POÊLE", "NETTOYANT", "SAC À DOS"],
    })
    names.to_csv(os.path.join(raw, "category_names.csv"), index=False)


def prepare(raw, public, private):
    def labels(path):
        with open(path, "rb") as f:
            return pd.DataFrame([{"_id": d["_id"], "category_id": d["category_id"]} for d in decode_file_iter(f)])

    def keep(path, ids, out, drop=(), max_rows=None):
        written = 0
        with open(path, "rb") as f, open(out, "wb") as g:
            for record in decode_file_iter(f):
                if record["_id"] in ids:
                    for col in drop:
                        record.pop(col, None)
                    written += 1
                    g.write(encode(record))
                if max_rows is not None and written >= max_rows:
                    break

    train_bson = os.path.join(raw, "train.bson")
    old = labels(train_bson)
    new_train, answers = train_test_split(old, test_size=0.1, random_state=0)
    answers = answers.sort_values(by="_id")
    sample = answers[["_id"]].copy()
    sample["category_id"] = 1000010653
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    keep(train_bson, set(new_train["_id"]), os.path.join(public, "train.bson"))
    keep(train_bson, set(answers["_id"]), os.path.join(public, "test.bson"), drop=["category_id"])
    keep(train_bson, set(new_train["_id"]), os.path.join(public, "train_example.bson"), max_rows=100)
    shutil.copy(os.path.join(raw, "category_names.csv"), os.path.join(public, "category_names.csv"))
