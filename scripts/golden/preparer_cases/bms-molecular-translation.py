"""bms-molecular-translation: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def nested(image_id):
    """Kaggle files each image three folders deep, by its first three characters."""
    return os.path.join(image_id[0], image_id[1], image_id[2], image_id + ".png")


def fake_png(i, image_id):
    # Copied only, never decoded.
    return b"\x89PNG\r\n\x1a\n fake structure drawing %d %s" % (i, image_id.encode())


def inchi(rs):
    c, h, o = rs.randint(2, 30), rs.randint(2, 40), rs.randint(0, 5)
    formula = "C%dH%d%s%s" % (c, h, "O%d" % o if o > 1 else ("O" if o == 1 else ""), rs.choice(["", "N", "S", "Cl", "N2O"]))
    atoms = "-".join(str(rs.randint(1, c + 1)) + ("(%d)" % rs.randint(1, c + 1) if rs.random_sample() < 0.3 else "") for _ in range(rs.randint(1, 6)))
    hyd = ",".join("%d-%dH" % (a, a + rs.randint(1, 4)) for a in sorted(rs.randint(1, c + 1, size=rs.randint(1, 4))))
    layers = ["InChI=1S", formula, "c" + atoms, "h" + hyd]
    if rs.random_sample() < 0.25:
        layers.append("t%d-,%d+/m0/s1" % (rs.randint(1, 9), rs.randint(1, 9)))
    return "/".join(layers)


def make_raw(raw):
    rs = np.random.RandomState(1234)
    n = 150
    # Small leading digits make several images share their nested folders, as they do on Kaggle.
    ids = ["%012x" % v for v in rs.randint(0, 2**42, size=n + 6, dtype=np.int64)]
    train_ids, test_ids = ids[:n], ids[n:]
    pd.DataFrame({"image_id": train_ids, "InChI": [inchi(rs) for _ in train_ids]}).to_csv(os.path.join(raw, "train_labels.csv"), index=False)
    for folder, group in (("train", train_ids), ("test", test_ids)):
        for i, image_id in enumerate(group):
            path = os.path.join(raw, folder, nested(image_id))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(fake_png(i, image_id))
    pd.DataFrame({"InChI": [inchi(rs) for _ in range(40)]}).to_csv(os.path.join(raw, "extra_approved_InChIs.csv"), index=False)
    pd.DataFrame({"image_id": test_ids, "InChI": "InChI=1S/H2O/h1H2"}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train_labels.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.2, random_state=0)
    new_train.to_csv(os.path.join(public, "train_labels.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    for frame, folder in ((new_train, "train"), (new_test, "test")):
        for image_id in frame["image_id"]:
            dst = os.path.join(public, folder, nested(image_id))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(raw, "train", nested(image_id)), dst)
    sample = new_test.copy()
    sample["InChI"] = "InChI=1S/H2O/h1H2"
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    shutil.copyfile(os.path.join(raw, "extra_approved_InChIs.csv"), os.path.join(public, "extra_approved_InChIs.csv"))
