"""tensorflow-speech-recognition-challenge: synthetic raw files and upstream's preparation steps.

Kaggle ships the clips as raw/train.7z, which upstream unpacks into raw/train/ first. The fixture
holds that folder already unpacked (neither 7z nor py7zr is part of the test setup); both
preparers unpack train.7z when it is there."""
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

WORDS = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "bed", "bird", "cat", "dog", "eight", "happy", "wow"]


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    if (raw / "train.7z").exists():
        subprocess.run(["7z", "x", "-y", "-o%s" % raw, str(raw / "train.7z")], check=True, stdout=subprocess.DEVNULL)
    files = sorted([(p.parent.name, p) for p in (raw / "train" / "audio").rglob("*.wav")], key=lambda f: f"{f[0]}_{f[1].name}")
    train_files, test_files = train_test_split(files, test_size=0.1, random_state=0)
    for label in dict.fromkeys(label for label, _ in train_files):
        (public / "train" / "audio" / label).mkdir(parents=True, exist_ok=True)
    (public / "test" / "audio").mkdir(parents=True, exist_ok=True)
    for label, p in train_files:
        shutil.copyfile(p, public / "train" / "audio" / label / p.name)
    records = []
    for idx, (label, p) in enumerate(test_files):
        name = "clip_%s.wav" % str(idx).zfill(8)
        records.append({"fname": name, "label": label})
        shutil.copyfile(p, public / "test" / "audio" / name)
    test = pd.DataFrame.from_records(records)
    test.to_csv(private / "test.csv", index=False)
    sample = test.drop(columns=["label"]).copy()
    sample["label"] = "silence"
    sample.to_csv(public / "sample_submission.csv", index=False)


def make_raw(raw):
    rs = np.random.RandomState(61)
    audio = Path(raw) / "train" / "audio"
    speakers = [rs.bytes(4).hex() for _ in range(30)]
    listed = []
    for word in WORDS:
        (audio / word).mkdir(parents=True)
        for _ in range(int(rs.randint(8, 18))):
            name = "%s_nohash_%d.wav" % (speakers[rs.randint(len(speakers))], rs.randint(0, 5))
            (audio / word / name).write_bytes(b"RIFF fake clip " + word.encode() + b"/" + name.encode())
            listed.append("%s/%s" % (word, name))
    noise = audio / "_background_noise_"
    noise.mkdir()
    for name in ["doing_the_dishes.wav", "dude_miaowing.wav", "exercise_bike.wav", "white_noise.wav"]:
        (noise / name).write_bytes(b"RIFF fake noise " + name.encode())
    (noise / "README.md").write_text("Background noise clips (synthetic stand-ins).\n")
    (Path(raw) / "train" / "testing_list.txt").write_text("\n".join(sorted(listed)[::7]) + "\n")
    (Path(raw) / "train" / "validation_list.txt").write_text("\n".join(sorted(listed)[3::7]) + "\n")
