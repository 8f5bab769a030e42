"""hotel-id-2021-fgvc8: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv (image like "000ff3a1c0b4bc26.jpg", chain and hotel_id as ints,
timestamp as "YYYY-MM-DD HH:MM:SS"), the photos as train_images/<chain>/<image>, an almost
empty test_images/ and sample_submission.csv. One photo, ce27d36c9147cc19.jpg, is listed twice."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

DUPLICATE = "ce27d36c9147cc19.jpg"


def fake_jpg(path, tag):
    """A few bytes standing in for a hotel room photo: only which file lands where matters."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 fake hotel room " + tag.encode() + b"\xff\xd9")


def make_raw(raw):
    rs = np.random.RandomState(88)
    n = 170
    hotels = rs.choice(np.arange(1, 100000), 40, replace=False)
    # Chain 0 stands for independent hotels and is the most common, as on Kaggle.
    hotel_chain = {h: (0 if rs.random_sample() < 0.3 else int(rs.randint(1, 88))) for h in hotels}
    hotel = rs.choice(hotels, n)
    images = ["%016x.jpg" % v for v in rs.randint(0, 2 ** 62, n, dtype=np.int64)]
    seconds = rs.randint(1451606400, 1609459200, n)  # 2016 to 2020
    df = pd.DataFrame({
        "image": images,
        "chain": [hotel_chain[h] for h in hotel],
        "hotel_id": hotel,
        "timestamp": pd.to_datetime(seconds, unit="s").strftime("%Y-%m-%d %H:%M:%S"),
    })
    # The photo Kaggle lists twice, under two hotels of different chains.
    df.loc[20, "image"] = DUPLICATE
    df.loc[133, "image"] = DUPLICATE
    df.loc[133, "chain"] = (df.loc[20, "chain"] + 1) % 88
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    for image, chain in zip(df["image"], df["chain"]):
        fake_jpg(os.path.join(raw, "train_images", str(chain), image), "%s/%s" % (chain, image))
    fake_jpg(os.path.join(raw, "test_images", "abc.jpg"), "test")
    pd.DataFrame({"image": ["abc.jpg"], "hotel_id": ["36363 53586 18807 64314 60181"]}).to_csv(
        os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    df = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    df = df[df["image"] != DUPLICATE]
    train, test = train_test_split(df, test_size=0.1, random_state=0)
    sample = test[["image", "hotel_id"]].copy()
    sample["hotel_id"] = "36363 53586 18807 64314 60181"
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for image, chain in zip(train["image"], train["chain"]):
        folder = os.path.join(public, "train_images", str(chain))
        os.makedirs(folder, exist_ok=True)
        shutil.copy(os.path.join(raw, "train_images", str(chain), image), os.path.join(folder, image))
    os.makedirs(os.path.join(public, "test_images"), exist_ok=True)
    for image, chain in zip(test["image"], test["chain"]):
        shutil.copy(os.path.join(raw, "train_images", str(chain), image), os.path.join(public, "test_images", image))
    test.to_csv(os.path.join(private, "test.csv"), index=False)
