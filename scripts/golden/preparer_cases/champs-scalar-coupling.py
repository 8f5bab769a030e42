"""champs-scalar-coupling: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

AUX = ["structures", "dipole_moments", "magnetic_shielding_tensors", "mulliken_charges", "potential_energy", "scalar_coupling_contributions"]
TYPES = ["1JHC", "2JHH", "1JHN", "2JHN", "2JHC", "3JHH", "3JHC", "3JHN"]
TENSOR = ["XX", "YX", "ZX", "XY", "YY", "ZY", "XZ", "YZ", "ZZ"]


def champs_raw(molecules=40, seed=71):
    """Train molecules listed out of name order, and a few test-only molecules in structures.csv
    (as in Kaggle's), which the filtering must drop."""
    rs = np.random.RandomState(seed)
    names = ["dsgdb9nsd_%06d" % v for v in rs.choice(np.arange(1, 133885), size=molecules + 5, replace=False)]
    train_names, test_only = names[:molecules], names[molecules:]
    atoms = {m: list(rs.choice(["C", "H", "N", "O", "F"], size=rs.randint(3, 9), p=[0.3, 0.5, 0.1, 0.08, 0.02])) for m in names}
    order = list(train_names)
    rs.shuffle(order[5:])
    pairs, contrib = [], []
    for m in order:
        n = len(atoms[m])
        for _ in range(int(rs.randint(2, 7))):
            a0, a1 = (int(v) for v in rs.choice(n, size=2, replace=False))
            t = rs.choice(TYPES)
            fc, sd, pso, dso = rs.normal(0, 30), rs.normal(0, 0.1), rs.normal(0, 1), rs.normal(0, 1)
            pairs.append((m, a0, a1, t, fc + sd + pso + dso))
            contrib.append((m, a0, a1, t, fc, sd, pso, dso))
    train = pd.DataFrame(pairs, columns=["molecule_name", "atom_index_0", "atom_index_1", "type", "scalar_coupling_constant"])
    train.insert(0, "id", np.arange(len(train)))
    structures = pd.DataFrame(
        [(m, i, a, *rs.normal(0, 1.5, size=3)) for m in sorted(names) for i, a in enumerate(atoms[m])],
        columns=["molecule_name", "atom_index", "atom", "x", "y", "z"],
    )
    structures.loc[3, "x"] = 0.0
    structures.loc[4, "y"] = -1.2e-05
    dipole = pd.DataFrame({"molecule_name": sorted(train_names), "X": rs.normal(0, 2, molecules), "Y": rs.normal(0, 2, molecules), "Z": 0.0})
    dipole.loc[1:, "Z"] = rs.normal(0, 1, molecules - 1)
    tensors = pd.DataFrame([(m, i, *rs.normal(100, 80, size=9)) for m in sorted(train_names) for i in range(len(atoms[m]))], columns=["molecule_name", "atom_index"] + TENSOR)
    charges = pd.DataFrame([(m, i, rs.normal(0, 0.3)) for m in sorted(train_names) for i in range(len(atoms[m]))], columns=["molecule_name", "atom_index", "mulliken_charge"])
    energy = pd.DataFrame({"molecule_name": sorted(train_names), "potential_energy": rs.normal(-400, 40, molecules)})
    contributions = pd.DataFrame(contrib, columns=["molecule_name", "atom_index_0", "atom_index_1", "type", "fc", "sd", "pso", "dso"])
    xyz = {m: "%d\n\n" % len(atoms[m]) + "".join("%s %.8f %.8f %.8f\n" % (a, *rs.normal(0, 1.5, size=3)) for a in atoms[m]) for m in names}
    return train, {"structures": structures, "dipole_moments": dipole, "magnetic_shielding_tensors": tensors,
                   "mulliken_charges": charges, "potential_energy": energy, "scalar_coupling_contributions": contributions}, xyz


def prepare(raw, public, private):
    read = lambda name: pd.read_csv(os.path.join(raw, name + ".csv"), float_precision="round_trip")
    old_train = read("train")
    groups = list(old_train.groupby("molecule_name"))
    train_groups, test_groups = train_test_split(groups, test_size=0.1, random_state=0)
    new_train = pd.concat([g for _, g in train_groups])
    answers = pd.concat([g for _, g in test_groups])
    new_test = answers.drop(columns=["scalar_coupling_constant"])
    sample = new_test[["id"]].copy()
    sample["scalar_coupling_constant"] = 0
    aux = {}
    for name in AUX:
        df = read(name)
        aux[name] = df[df["molecule_name"].isin(new_train["molecule_name"])]
    for m in new_train["molecule_name"].unique():
        os.makedirs(os.path.join(public, "structures"), exist_ok=True)
        shutil.copyfile(os.path.join(raw, "structures", m + ".xyz"), os.path.join(public, "structures", m + ".xyz"))
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for name in AUX:
        aux[name].to_csv(os.path.join(public, name + ".csv"), index=False)


def make_raw(raw):
    train, aux, xyz = champs_raw()
    train.to_csv(os.path.join(raw, "train.csv"), index=False)
    for name, df in aux.items():
        df.to_csv(os.path.join(raw, name + ".csv"), index=False)
    os.makedirs(os.path.join(raw, "structures"))
    for m, text in xyz.items():
        with open(os.path.join(raw, "structures", m + ".xyz"), "w") as f:
            f.write(text)
