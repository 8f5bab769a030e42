"""freesound-audio-tagging-2019: synthetic raw files and upstream's preparation steps.

Kaggle's download unpacks to the labelled train_curated.csv / train_noisy.csv (fname, labels
with several labels comma-joined and so quoted), their audio zips, test.zip and a sample
submission of fname plus 80 class columns. Upstream copies all of it and then fetches the test
labels released afterwards (FSDKaggle2019.meta.zip from Zenodo). No network here: that zip is
placed in raw/ as the download would leave it, holding FSDKaggle2019.meta/ with
test_post_competition.csv (fname, labels, usage, freesound_id, license). Its labels include a
few names outside the vocabulary and "usage" mixes Public, Private and Ignored rows.
"""
import io
import os
import shutil
import zipfile

import numpy as np
import pandas as pd

from _common import write_zip_members

META = "FSDKaggle2019.meta"
CLASS_NAMES = [
    "Accelerating_and_revving_and_vroom", "Accordion", "Acoustic_guitar", "Applause", "Bark", "Bass_drum",
    "Bass_guitar", "Bathtub_(filling_or_washing)", "Bicycle_bell", "Burping_and_eructation", "Bus", "Buzz",
    "Car_passing_by", "Cheering", "Chewing_and_mastication", "Child_speech_and_kid_speaking", "Chink_and_clink",
    "Chirp_and_tweet", "Church_bell", "Clapping", "Computer_keyboard", "Crackle", "Cricket", "Crowd",
    "Cupboard_open_or_close", "Cutlery_and_silverware", "Dishes_and_pots_and_pans", "Drawer_open_or_close", "Drip",
    "Electric_guitar", "Fart", "Female_singing", "Female_speech_and_woman_speaking", "Fill_(with_liquid)",
    "Finger_snapping", "Frying_(food)", "Gasp", "Glockenspiel", "Gong", "Gurgling", "Harmonica", "Hi-hat", "Hiss",
    "Keys_jangling", "Knock", "Male_singing", "Male_speech_and_man_speaking", "Marimba_and_xylophone",
    "Mechanical_fan", "Meow", "Microwave_oven", "Motorcycle", "Printer", "Purr", "Race_car_and_auto_racing",
    "Raindrop", "Run", "Scissors", "Screaming", "Shatter", "Sigh", "Sink_(filling_or_washing)", "Skateboard", "Slam",
    "Sneeze", "Squeak", "Stream", "Strum", "Tap", "Tick-tock", "Toilet_flush", "Traffic_noise_and_roadway_noise",
    "Trickle_and_dribble", "Walk_and_footsteps", "Water_tap_and_faucet", "Waves_and_surf", "Whispering", "Writing",
    "Yell", "Zipper_(clothing)",
]


def fnames(rs, n):
    return sorted(set("%08x.wav" % v for v in rs.randint(0, 2**31, size=n)))


def label_list(rs, extra=()):
    k = int(rs.choice([1, 1, 1, 2, 3]))
    picked = list(rs.choice(CLASS_NAMES + list(extra), size=k, replace=False))
    return ",".join(picked)


def labelled(rs, names):
    return pd.DataFrame({"fname": names, "labels": [label_list(rs) for _ in names]})


def fake_wavs(names, tag):
    return {n: b"RIFF\x24\x00\x00\x00WAVEfmt " + tag.encode() + n.encode() for n in names}


def make_raw(raw):
    rs = np.random.RandomState(2019)
    curated, noisy, test = fnames(rs, 40), fnames(rs, 60), fnames(rs, 90)
    labelled(rs, curated).to_csv(os.path.join(raw, "train_curated.csv"), index=False)
    labelled(rs, noisy).to_csv(os.path.join(raw, "train_noisy.csv"), index=False)
    write_zip_members(os.path.join(raw, "train_curated.zip"), fake_wavs(curated, "curated"))
    write_zip_members(os.path.join(raw, "train_noisy.zip"), fake_wavs(noisy, "noisy"))
    write_zip_members(os.path.join(raw, "test.zip"), fake_wavs(test, "test"))
    usage = rs.choice(["Public", "Private", "Ignored"], size=len(test), p=[0.3, 0.6, 0.1])
    private = [n for n, u in zip(test, usage) if u == "Private"]
    sample = pd.DataFrame({"fname": private})
    for c in CLASS_NAMES:
        sample[c] = 0
    sample.to_csv(os.path.join(raw, "sample_submission.csv"), index=False)
    meta = pd.DataFrame({
        "fname": test,
        "labels": [label_list(rs, extra=["Bird_song", "Chirp"]) for _ in test],
        "usage": usage,
        "freesound_id": rs.randint(1000, 450000, size=len(test)),
        "license": rs.choice(["CC0", "CC-BY", "CC-BY-NC", "CC Sampling+"], size=len(test)),
    })
    # Upstream reads the test labels in file order, which is not the fname order.
    meta = meta.iloc[rs.permutation(len(meta))]
    buf = io.StringIO()
    meta.to_csv(buf, index=False)
    write_zip_members(os.path.join(raw, META + ".zip"), {
        META + "/test_post_competition.csv": buf.getvalue().encode(),
        META + "/vocabulary.csv": "".join("%d,%s\n" % (i, c) for i, c in enumerate(CLASS_NAMES)).encode(),
    })


def prepare(raw, public, private):
    for name in sorted(os.listdir(raw)):
        if META in name:
            continue
        src = os.path.join(raw, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(public, name))
        else:
            shutil.copy(src, os.path.join(public, name))
    with zipfile.ZipFile(os.path.join(raw, META + ".zip")) as z:
        z.extractall(raw)
    labels = pd.read_csv(os.path.join(raw, META, "test_post_competition.csv"))
    held_out = labels[labels["usage"] == "Private"]
    rows = []
    for _, row in held_out.iterrows():
        present = row["labels"].split(",")
        rows.append([row["fname"]] + [int(c in present) for c in CLASS_NAMES])
    pd.DataFrame(rows, columns=["fname"] + CLASS_NAMES).to_csv(os.path.join(private, "test.csv"), index=False)
    shutil.rmtree(os.path.join(raw, META))
