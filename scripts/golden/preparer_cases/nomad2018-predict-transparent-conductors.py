"""nomad2018-predict-transparent-conductors: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv.zip / test.csv.zip (one CSV each: id from 1, space group, the atom count
written as a float, Al/Ga/In fractions, lattice vectors and angles, and for train the two
targets) and train.zip / test.zip (train/<id>/geometry.xyz, an ASE text file per structure)."""
import glob
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_csv, zip_tree

N_TRAIN = 150
N_TEST = 40
SPACEGROUPS = [12, 33, 167, 194, 206, 227]


def _frame(rs, n, with_targets):
    atoms = rs.choice([10, 20, 30, 40, 60, 80], n).astype(float)
    al = rs.randint(0, 9, n) / 8
    ga = np.minimum(rs.randint(0, 9, n) / 8, 1 - al)
    df = pd.DataFrame({
        "id": np.arange(1, n + 1),
        "spacegroup": rs.choice(SPACEGROUPS, n),
        "number_of_total_atoms": atoms,
        "percent_atom_al": al,
        "percent_atom_ga": ga,
        "percent_atom_in": np.round(1 - al - ga, 4),
        "lattice_vector_1_ang": np.round(rs.uniform(3, 25, n), 4),
        "lattice_vector_2_ang": np.round(rs.uniform(3, 11, n), 4),
        "lattice_vector_3_ang": np.round(rs.uniform(5, 26, n), 4),
        "lattice_angle_alpha_degree": np.round(np.where(rs.random_sample(n) < 0.7, 90 + rs.normal(0, 0.01, n), rs.uniform(80, 110, n)), 4),
        "lattice_angle_beta_degree": np.round(np.where(rs.random_sample(n) < 0.7, 90 + rs.normal(0, 0.01, n), rs.uniform(80, 110, n)), 4),
        "lattice_angle_gamma_degree": np.round(np.where(rs.random_sample(n) < 0.5, 90.0, rs.uniform(29, 121, n)), 4),
    })
    if with_targets:
        df["formation_energy_ev_natom"] = np.round(rs.gamma(2, 0.1, n), 4)
        df["bandgap_energy_ev"] = np.round(rs.uniform(0, 5.3, n), 4)
    return df


def _geometry(rs, row):
    lines = ["#=======================================================",
             "#Created using the Atomic Simulation Environment (ASE)",
             "#======================================================="]
    for k in (1, 2, 3):
        lines.append("lattice_vector %s %s %s " % tuple(repr(float(v)) for v in rs.normal(0, 5, 3).round(8)))
    for _ in range(int(row["number_of_total_atoms"]) // 10):
        x, y, z = rs.uniform(0, 10, 3).round(8)
        lines.append("atom %r %r %r %s" % (float(x), float(y), float(z), rs.choice(["Al", "Ga", "In", "O"])))
    return "\n".join(lines) + "\n"


def _geometry_zip(rs, df, folder, zip_path):
    with tempfile.TemporaryDirectory() as tmp:
        for _, row in df.iterrows():
            d = os.path.join(tmp, folder, str(int(row["id"])))
            os.makedirs(d)
            with open(os.path.join(d, "geometry.xyz"), "w") as f:
                f.write(_geometry(rs, row))
        zip_tree(tmp, zip_path)


def make_raw(raw):
    rs = np.random.RandomState(2018)
    train, test = _frame(rs, N_TRAIN, True), _frame(rs, N_TEST, False)
    write_zip_csv(train, raw, "train.csv.zip", "train.csv")
    write_zip_csv(test, raw, "test.csv.zip", "test.csv")
    _geometry_zip(rs, train, "train", os.path.join(raw, "train.zip"))
    _geometry_zip(rs, test, "test", os.path.join(raw, "test.zip"))


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    for archive, dest in (("train.zip", "train"), ("train.csv.zip", "train.csv"), ("test.zip", "test"), ("test.csv.zip", "test.csv")):
        with zipfile.ZipFile(raw / archive) as z:
            z.extractall(raw / dest)
    old = pd.read_csv(raw / "train.csv/train.csv", float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    train_ids = {old_id: new for new, old_id in enumerate(train["id"], start=1)}
    test_ids = {old_id: new for new, old_id in enumerate(test["id"], start=1)}
    train["id"] = train["id"].map(train_ids)
    test["id"] = test["id"].map(test_ids)
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.drop(columns=["formation_energy_ev_natom", "bandgap_energy_ev"]).to_csv(public / "test.csv", index=False)
    sources = sorted(glob.glob(str(raw / "train/train/**/*.xyz")))
    for ids, folder in ((train_ids, "train"), (test_ids, "test")):
        for src in sources:
            old_id = int(Path(src).parts[-2])
            if old_id in ids:
                (public / folder / str(ids[old_id])).mkdir(parents=True, exist_ok=True)
                shutil.copy(src, public / folder / str(ids[old_id]) / "geometry.xyz")
    pd.DataFrame({"id": test["id"], "formation_energy_ev_natom": 0.1779, "bandgap_energy_ev": 1.8892}).to_csv(
        public / "sample_submission.csv", index=False)
