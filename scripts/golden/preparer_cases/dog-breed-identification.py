"""dog-breed-identification: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

# The answer columns, in upstream's order.
BREEDS = """
affenpinscher afghan_hound african_hunting_dog airedale american_staffordshire_terrier
appenzeller australian_terrier basenji basset beagle bedlington_terrier bernese_mountain_dog
black-and-tan_coonhound blenheim_spaniel bloodhound bluetick border_collie border_terrier borzoi
boston_bull bouvier_des_flandres boxer brabancon_griffon briard brittany_spaniel bull_mastiff
cairn cardigan chesapeake_bay_retriever chihuahua chow clumber cocker_spaniel collie
curly-coated_retriever dandie_dinmont dhole dingo doberman english_foxhound english_setter
english_springer entlebucher eskimo_dog flat-coated_retriever french_bulldog german_shepherd
german_short-haired_pointer giant_schnauzer golden_retriever gordon_setter great_dane
great_pyrenees greater_swiss_mountain_dog groenendael ibizan_hound irish_setter irish_terrier
irish_water_spaniel irish_wolfhound italian_greyhound japanese_spaniel keeshond kelpie
kerry_blue_terrier komondor kuvasz labrador_retriever lakeland_terrier leonberg lhasa malamute
malinois maltese_dog mexican_hairless miniature_pinscher miniature_poodle miniature_schnauzer
newfoundland norfolk_terrier norwegian_elkhound norwich_terrier old_english_sheepdog otterhound
papillon pekinese pembroke pomeranian pug redbone rhodesian_ridgeback rottweiler saint_bernard
saluki samoyed schipperke scotch_terrier scottish_deerhound sealyham_terrier shetland_sheepdog
shih-tzu siberian_husky silky_terrier soft-coated_wheaten_terrier staffordshire_bullterrier
standard_poodle standard_schnauzer sussex_spaniel tibetan_mastiff tibetan_terrier toy_poodle
toy_terrier vizsla walker_hound weimaraner welsh_springer_spaniel west_highland_white_terrier
whippet wire-haired_fox_terrier yorkshire_terrier
""".split()
assert len(BREEDS) == 120


def fake_jpg(path, tag):
    """A few bytes standing in for a photo: only which file lands where matters."""
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 fake jpeg " + tag.encode() + b"\xff\xd9")


def make_raw(raw):
    rs = np.random.RandomState(120)
    n = 190
    ids = [rs.bytes(16).hex() for _ in range(n)]
    # Kaggle's ids are 32 hex digits; a leading-zero one checks that ids stay text.
    ids[3] = "0" * 8 + ids[3][8:]
    ids[7] = "1234567890" * 3 + "12"
    breeds = rs.choice(BREEDS, size=n)
    pd.DataFrame({"id": ids, "breed": breeds}).to_csv(os.path.join(raw, "labels.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    for code in ids:
        fake_jpg(os.path.join(raw, "train", code + ".jpg"), code)
    # Kaggle's own unlabelled test photos and sample submission: shipped, never used.
    os.makedirs(os.path.join(raw, "test"))
    test_ids = [rs.bytes(16).hex() for _ in range(4)]
    for code in test_ids:
        fake_jpg(os.path.join(raw, "test", code + ".jpg"), code)
    sample = pd.DataFrame({"id": test_ids, **{b: [1 / 120] * 4 for b in BREEDS}})
    sample.to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    labels = pd.read_csv(os.path.join(raw, "labels.csv"), float_precision="round_trip")
    train, test = train_test_split(labels, test_size=0.1, random_state=0)
    # Answers are one-hot, as the submissions will be.
    answers = pd.DataFrame(0, index=test.index, columns=["id"] + BREEDS)
    answers["id"] = test["id"]
    for label, row in test.iterrows():
        answers.loc[label, row["breed"]] = 1
    train.to_csv(os.path.join(public, "labels.csv"), index=False)
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    for folder, frame in (("train", train), ("test", answers)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for code in frame["id"]:
            shutil.copyfile(os.path.join(raw, "train", code + ".jpg"), os.path.join(public, folder, code + ".jpg"))
    sample = answers.copy()
    for col in sample.columns[1:]:
        sample[col] = sample[col].astype("float64")
    sample.iloc[:, 1:] = 1 / 120
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
