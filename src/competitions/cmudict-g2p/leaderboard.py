#!/usr/bin/python3
"""Reference leaderboard for the offline `cmudict-g2p` competition.

Trains a documented population of grapheme-to-phoneme converters on the public train split
(30,000 words), scores each by phoneme error rate on the private answers (3,000 other words),
and writes leaderboard.csv beside this script (best first; lower is better). The scores form a
*reference population* of pipelines, not a leaderboard of human teams. Nothing but the final
scoring reads the answers: model choices (rounds, epochs, blend members and weights) are made on
a seeded development split of train (3,000 of its words), the rest of train ("fit") training
the models behind those choices.

Most models share one letter-to-phoneme alignment, learnt on train alone by hard (Viterbi) EM:
every letter emits none, one or two phonemes ("x" -> K S, a silent "e" -> nothing), so a
pronunciation becomes one label per letter and G2P becomes letter tagging.

The population (about 540 entries), bottom to top:

1. Trivial: no phonemes at all; one constant phoneme for every word (each of the 39); the
   commonest phoneme repeated once per letter; seeded random phoneme strings of a plausible
   length; hand-written spelling rules (one sound per letter, then common digraphs such as
   "th", "sh", "ph", "ck" and doubled letters, then a silent final "e" and a few vowel pairs).
2. Context look-up tables ("memory-based"): the commonest label of a letter given k1 letters
   to its left and k2 to its right (k1, k2 = 0 ... 4), backing off to narrower contexts when a
   context was never seen (or seen fewer than 2, 3 or 5 times); every window on 1%, 3%, 10%,
   30%, 50% and 100% of train, and a back-off order that keeps the right context longest.
3. Per-letter classifiers (one model per letter) on the letters of a +-k window (k = 1 ... 5):
   decision trees on letter codes and on one-hot windows (several leaf sizes), categorical
   naive Bayes, logistic regression (small budgets) and random forests, on 3% to 100% of train.
4. Strong pipelines, fitted on the fit part of train, their choices made on the development part:
   - xgboost per letter on one-hot windows of +-3 letters, and of +-4 letters plus the letter's
     distance to each end of the word, early-stopped on the development words of that letter;
     entries at several round counts, and the better configuration refit on all of train;
   - joint "graphone" n-gram models (each token a letter with its phoneme chunk, orders 3 to 6,
     interpolated Kneser-Ney), decoded by beam search over the labels each letter allows;
     the best order also refit on all of train, orders 3 and 4 on smaller budgets;
   - a convolutional letter tagger in torch (embeddings, three 1-D convolutions), an entry per
     epoch of a one-cycle schedule;
   - ensembles: per-letter (weighted) majority votes over the aligned outputs of the best
     models by development error, of the best model of each family, and of a greedy forward
     selection on the development words; each also with the refit models swapped in.

Runtime: about 8 CPU-minutes, single-threaded (OMP/BLAS/torch threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn, xgboost and torch):
    node dist/cli/main.js prepare -c cmudict-g2p --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/cmudict-g2p/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import collections  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import torch  # noqa: E402
import xgboost as xgb  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.naive_bayes import CategoricalNB  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
torch.set_num_threads(1)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "leaderboard.csv")
DEV_WORDS = 3000
BUDGETS = [0.01, 0.03, 0.1, 0.3, 0.5, 1.0]
MAX_K = 5

# Hand-written spelling rules: one sound per letter, then digraphs, then a few vowel patterns.
LETTER_SOUND = {
    "a": "AE", "b": "B", "c": "K", "d": "D", "e": "EH", "f": "F", "g": "G", "h": "HH", "i": "IH", "j": "JH", "k": "K",
    "l": "L", "m": "M", "n": "N", "o": "AA", "p": "P", "q": "K", "r": "R", "s": "S", "t": "T", "u": "AH", "v": "V",
    "w": "W", "x": "K S", "y": "Y", "z": "Z",
}
DIGRAPHS = {"th": "TH", "sh": "SH", "ch": "CH", "ph": "F", "ng": "NG", "ck": "K", "wh": "W", "qu": "K W", "gh": ""}
VOWEL_PAIRS = {"ee": "IY", "ea": "IY", "oo": "UW", "ou": "AW", "ai": "EY", "ay": "EY", "oa": "OW", "oi": "OY", "au": "AO", "er": "ER"}


def spell(word, digraphs, vowels):
    """Pronounce by rules, longest match first; `vowels` adds the vowel pairs, a silent final e and a final y."""
    out, i = [], 0
    rules = dict(DIGRAPHS) if digraphs else {}
    if vowels:
        rules.update(VOWEL_PAIRS)
    while i < len(word):
        pair = word[i:i + 2]
        if pair in rules:
            out.append(rules[pair])
            i += 2
            continue
        if digraphs and i + 1 < len(word) and word[i] == word[i + 1] and word[i] not in "aeiou":
            i += 1  # a doubled consonant sounds once
            continue
        c = word[i]
        if vowels and i == len(word) - 1 and len(word) > 2 and c == "e":
            break
        if vowels and i == len(word) - 1 and len(word) > 1 and c == "y":
            out.append("IY")
            break
        out.append(LETTER_SOUND[c])
        i += 1
    return " ".join(x for x in out if x).split()


def align(words, prons, iterations=5):
    """Hard-EM alignment: each letter takes 0, 1 or 2 phonemes. Returns one label list per word (None if impossible)."""
    logp, default = {}, {0: -3.0, 1: -1.0, 2: -4.0}
    neg = -1e18
    for _ in range(iterations):
        out, counts = [], collections.Counter()
        for w, ph in zip(words, prons):
            n, m = len(w), len(ph)
            if m > 2 * n:
                out.append(None)
                continue
            best = [[neg] * (m + 1) for _ in range(n + 1)]
            back = [[0] * (m + 1) for _ in range(n + 1)]
            best[0][0] = 0.0
            for i in range(1, n + 1):
                c, prev, row, brow = w[i - 1], best[i - 1], best[i], back[i]
                for j in range(max(0, m - 2 * (n - i)), min(m, 2 * i) + 1):
                    bv, bd = neg, 0
                    for d in (0, 1, 2):
                        if j - d < 0:
                            break
                        if prev[j - d] <= neg:
                            continue
                        s = prev[j - d] + logp.get((c, " ".join(ph[j - d:j])), default[d])
                        if s > bv:
                            bv, bd = s, d
                    row[j], brow[j] = bv, bd
            if best[n][m] <= neg:
                out.append(None)
                continue
            labels, j = [None] * n, m
            for i in range(n, 0, -1):
                d = back[i][j]
                labels[i - 1] = " ".join(ph[j - d:j])
                j -= d
            out.append(labels)
            counts.update(zip(w, labels))
        totals = collections.Counter()
        for (c, _), k in counts.items():
            totals[c] += k
        logp = {(c, lab): math.log(k / totals[c]) for (c, lab), k in counts.items()}
        default = {0: -12.0, 1: -12.0, 2: -14.0}
    return out


def edit_distance(a, b):
    """Levenshtein distance between two token lists."""
    if a == b:
        return 0
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


class Scorer:
    """Phoneme error rate against fixed references, memoised per (word, hypothesis)."""

    def __init__(self, refs):
        self.refs = [tuple(r) for r in refs]
        self.total = sum(len(r) for r in refs)
        self.memo = {}

    def __call__(self, hyps):
        edits = 0
        for k, h in enumerate(hyps):
            key = (k, tuple(h))
            d = self.memo.get(key)
            if d is None:
                d = self.memo[key] = edit_distance(self.refs[k], key[1])
            edits += d
        return edits / self.total


class Letters:
    """The letters of a word list, flattened, with window codes (0 = before the word, 1 = after, 2.. = a-z) and positions."""

    def __init__(self, words):
        self.words = words
        self.starts = np.cumsum([0] + [len(w) for w in words])
        pad = "^" * MAX_K
        codes, pos = [], []
        for w in words:
            s = pad + w + "$" * MAX_K
            n = len(w)
            for i in range(n):
                codes.append([0 if ch == "^" else 1 if ch == "$" else ord(ch) - 95 for ch in s[i:i + 2 * MAX_K + 1]])
                pos.append([min(i, 5), min(n - 1 - i, 5), min(n, 12)])
        self.codes = np.array(codes, dtype=np.int64)
        self.pos = np.array(pos, dtype=np.int64)
        self.letter = self.codes[:, MAX_K]

    def window(self, k):
        """Codes of the letters k to the left ... k to the right."""
        return self.codes[:, MAX_K - k:MAX_K + k + 1]

    def onehot(self, k, positions=False, left=None):
        """Sparse one-hot of the +-k window (28 symbols a slot), optionally with the position codes."""
        W = self.window(k)
        cols = [W + np.arange(W.shape[1]) * 28]
        width = W.shape[1] * 28
        if positions:
            cols.append(self.pos + width + np.array([0, 6, 12]))
            width += 25
        M = np.hstack(cols)
        n, m = M.shape
        return sp.csr_matrix((np.ones(n * m, dtype=np.float32), (np.repeat(np.arange(n), m), M.ravel())), shape=(n, width))

    def tokens(self, labels):
        """Phoneme tokens per word from one label per letter."""
        return [" ".join(x for x in labels[self.starts[k]:self.starts[k + 1]] if x).split() for k in range(len(self.words))]

    def contexts(self, left, right):
        """The context string of every letter for a window of `left` and `right` letters."""
        W = self.codes[:, MAX_K - left:MAX_K + right + 1]
        return ["".join(chr(c + 95) for c in row) for row in W]


def per_letter(make, train, y, targets, encode, fit_kwargs=None):
    """One classifier per letter; returns predicted labels for each target Letters set."""
    outs = [np.empty(len(t.letter), dtype=object) for t in targets]
    Xtr = encode(train)
    Xts = [encode(t) for t in targets]
    for c in np.unique(train.letter):
        m = train.letter == c
        labs = y[m]
        classes, inv = np.unique(labs, return_inverse=True)
        masks = [t.letter == c for t in targets]
        if len(classes) == 1:
            for o, mt in zip(outs, masks):
                o[mt] = classes[0]
            continue
        model = make().fit(Xtr[m], inv, **(fit_kwargs or {}))
        for o, mt, X in zip(outs, masks, Xts):
            if mt.any():
                o[mt] = classes[model.predict(X[mt])]
    for t, o in zip(targets, outs):
        # A letter never seen in training (rare in small budgets): its commonest sound by rule.
        missing = np.array([v is None for v in o])
        o[missing] = [LETTER_SOUND[chr(c + 95)] for c in t.letter[missing]]
    return outs


class Backoff:
    """Commonest label of a letter given its context, for every window up to (4, 4), with counts."""

    CHAINS = {
        # Wider contexts first; between equal sizes, the one with more right context.
        "balanced": lambda w: (-(w[0] + w[1]), -w[1], -w[0]),
        # Keep the right context as long as possible: the left one shrinks first.
        "right-first": lambda w: (-w[1], -w[0]),
    }

    def __init__(self, train, y):
        self.tables = {}
        for left in range(5):
            for right in range(5):
                t = collections.defaultdict(collections.Counter)
                for ctx, lab in zip(train.contexts(left, right), y):
                    t[ctx][lab] += 1
                self.tables[(left, right)] = {k: (c.most_common(1)[0][0], sum(c.values())) for k, c in t.items()}
        self.mapped = {}

    def lookups(self, target, name):
        """Per window, the label and context count of every letter of `target` (None and 0 where unseen), cached by name."""
        if name not in self.mapped:
            out = {}
            for w, table in self.tables.items():
                hits = [table.get(c, (None, 0)) for c in target.contexts(*w)]
                out[w] = (np.array([h[0] for h in hits], dtype=object), np.array([h[1] for h in hits]))
            self.mapped[name] = out
        return self.mapped[name]

    def predict(self, target, name, left, right, min_count=1, chain="balanced"):
        """Labels for `target`, backing off from (left, right) through narrower windows to the letter alone."""
        windows = sorted({(a, b) for a in range(left + 1) for b in range(right + 1)}, key=self.CHAINS[chain])
        found = self.lookups(target, name)
        out = np.array([LETTER_SOUND[chr(c + 95)] for c in target.letter], dtype=object)
        # Narrowest first, so that each wider window that qualifies overwrites.
        for w in reversed(windows):
            labels, counts = found[w]
            use = counts >= (1 if w == (0, 0) else min_count)
            out[use] = labels[use]
        return out


class JointNgram:
    """Interpolated Kneser-Ney n-gram over graphones (letter|label), decoded by beam search."""

    def __init__(self, words, labels, order, discount=0.75):
        self.n, self.d = order, discount
        self.cands = collections.defaultdict(set)
        top = collections.Counter()
        for w, a in zip(words, labels):
            seq = ["<s>"] * (order - 1) + [c + "|" + lab for c, lab in zip(w, a)] + ["</s>"]
            for c, lab in zip(w, a):
                self.cands[c].add(lab)
            for i in range(order - 1, len(seq)):
                top[(tuple(seq[i - order + 1:i]), seq[i])] += 1
        self.counts = {order - 1: top}
        for k in range(order - 2, -1, -1):
            c = collections.Counter()
            for (h, g) in self.counts[k + 1]:
                c[(h[1:], g)] += 1
            self.counts[k] = c
        self.tot, self.types = collections.Counter(), collections.Counter()
        for c in self.counts.values():
            for (h, g), v in c.items():
                self.tot[h] += v
                self.types[h] += 1
        self.vocab = len(self.counts[0])
        self.cache = {}

    def prob(self, h, g):
        key = (h, g)
        p = self.cache.get(key)
        if p is None:
            lower = self.prob(h[1:], g) if h else 1.0 / self.vocab
            t = self.tot.get(h, 0)
            p = lower if t == 0 else (max(self.counts[len(h)].get(key, 0) - self.d, 0) + self.d * self.types[h] * lower) / t
            self.cache[key] = p
        return p

    def decode(self, target, beam):
        """One label per letter of every word of `target`."""
        out = []
        for w in target.words:
            hyps = [(0.0, ("<s>",) * (self.n - 1), ())]
            for c in w:
                new = {}
                for s, h, labs in hyps:
                    for lab in self.cands.get(c) or {LETTER_SOUND[c]}:
                        g = c + "|" + lab
                        s2 = s + math.log(self.prob(h, g))
                        h2 = (h + (g,))[1:]
                        if h2 not in new or new[h2][0] < s2:
                            new[h2] = (s2, h2, labs + (lab,))
                hyps = sorted(new.values(), key=lambda x: -x[0])[:beam]
            out.extend(max(hyps, key=lambda x: x[0] + math.log(self.prob(x[1], "</s>")))[2])
        return np.array(out, dtype=object)


class Tagger(torch.nn.Module):
    """Letter embeddings, three 1-D convolutions, a label per letter."""

    def __init__(self, n_labels, width):
        super().__init__()
        self.emb = torch.nn.Embedding(28, 48, padding_idx=0)
        self.convs = torch.nn.Sequential(
            torch.nn.Conv1d(48, width, 5, padding=2), torch.nn.ReLU(), torch.nn.Conv1d(width, width, 5, padding=2), torch.nn.ReLU(),
            torch.nn.Conv1d(width, width, 3, padding=1), torch.nn.ReLU())
        self.out = torch.nn.Linear(width, n_labels)

    def forward(self, x):
        return self.out(self.convs(self.emb(x).transpose(1, 2)).transpose(1, 2))


def padded(L):
    """Word-by-letter code matrix (0 = padding, 2.. = a-z) of a Letters set."""
    X = np.zeros((len(L.words), max(len(w) for w in L.words)), dtype=np.int64)
    for k, w in enumerate(L.words):
        X[k, :len(w)] = [ord(c) - 95 for c in w]
    return torch.tensor(X)


def cnn_epochs(fit, y_fit, targets, width, epochs, seed):
    """Train the tagger with a one-cycle schedule; yields (epoch, labels per target) after each epoch."""
    names = sorted(set(y_fit))
    index = {lab: i for i, lab in enumerate(names)}
    X = padded(fit)
    Y = torch.full(X.shape, -100, dtype=torch.int64)
    for k in range(len(fit.words)):
        a, b = fit.starts[k], fit.starts[k + 1]
        Y[k, :b - a] = torch.tensor([index[v] for v in y_fit[a:b]])
    lengths = (X > 0).sum(1)
    Xts = [padded(t) for t in targets]
    torch.manual_seed(seed)
    model = Tagger(len(names), width)
    batch = 256
    opt = torch.optim.Adam(model.parameters(), lr=4e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-3, total_steps=epochs * ((len(X) + batch - 1) // batch))
    for ep in range(epochs):
        model.train()
        perm = torch.randperm(len(X))
        for s in range(0, len(X), batch):
            idx = perm[s:s + batch]
            width_now = int(lengths[idx].max())
            logits = model(X[idx, :width_now])
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, len(names)), Y[idx, :width_now].reshape(-1), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        outs = []
        with torch.no_grad():
            for t, Xt in zip(targets, Xts):
                P = model(Xt).argmax(-1).numpy()
                outs.append(np.array([names[P[k, i]] for k, w in enumerate(t.words) for i in range(len(w))], dtype=object))
        yield ep + 1, outs


def vote(members, weights=None):
    """Per-letter weighted majority vote over aligned label arrays; ties go to the earlier member."""
    weights = weights or [1.0] * len(members)
    n = len(members[0])
    out = np.empty(n, dtype=object)
    for i in range(n):
        tally = {}
        for m, w in zip(members, weights):
            tally[m[i]] = tally.get(m[i], 0.0) + w
        best = max(tally.values())
        out[i] = next(m[i] for m in members if tally[m[i]] == best)
    return out


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "cmudict-g2p", "prepared")
    read = lambda f: pd.read_csv(os.path.join(root, f), keep_default_na=False)  # noqa: E731
    train, test, answers = read("public/train.csv"), read("public/test.csv"), read("private/test.csv")
    truth = test[["id"]].merge(answers, on="id", how="left").phonemes
    assert truth.notna().all(), "answers do not cover every test id"
    score_test = Scorer([p.split() for p in truth])
    T = Letters(test.word.tolist())
    rows = []

    def add(team, pipeline, hyps):
        assert len(hyps) == len(test), team
        rows.append({"teamName": team, "score": score_test(hyps), "pipeline": pipeline})

    words = train.word.tolist()
    prons = [p.split() for p in train.phonemes]

    # 1. Trivial.
    add("empty", "no phonemes for any word", [[] for _ in range(len(test))])
    freq = collections.Counter(x for p in prons for x in p)
    for ph, _ in freq.most_common():
        add(f"constant-{ph}", f"the single phoneme {ph} for every word", [[ph]] * len(test))
    top = freq.most_common(1)[0][0]
    ratio = sum(len(p) for p in prons) / sum(len(w) for w in words)
    add(f"{top}-per-letter", f"{top} repeated once per letter", [[top] * len(w) for w in T.words])
    add(f"{top}-per-{ratio:.2f}-letter", f"{top} repeated {ratio:.2f} times per letter (train's phonemes per letter)",
        [[top] * max(1, round(ratio * len(w))) for w in T.words])
    symbols, p = zip(*freq.items())
    p = np.array(p, dtype=float) / sum(p)
    for s in range(10):
        rng = np.random.default_rng(s)
        add(f"random-phonemes/seed{s}", f"phonemes drawn at train frequency, {ratio:.2f} per letter (seed {s})",
            [list(rng.choice(symbols, size=max(1, round(ratio * len(w))), p=p)) for w in T.words])
    add("rules/letters", "one hand-picked sound per letter", [spell(w, False, False) for w in T.words])
    add("rules/digraphs", "one sound per letter, common digraphs (th, sh, ph, ck ...) and doubled consonants", [spell(w, True, False) for w in T.words])
    add("rules/digraphs+vowels", "spelling rules with digraphs, vowel pairs, a silent final e and final y",
        [spell(w, True, True) for w in T.words])
    print(f"trivial done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # The shared alignment, and the development split of train.
    aligned = align(words, prons)
    ok = np.array([a is not None for a in aligned])
    print(f"aligned {ok.sum()} of {len(words)} train words, {time.process_time() - started:.0f} CPU-s", flush=True)
    order = np.random.default_rng(2024).permutation(len(words))
    order = order[ok[order]]
    dev_idx, fit_idx = order[:DEV_WORDS], order[DEV_WORDS:]
    budget_order = np.random.default_rng(7).permutation(order)

    def subset(idx):
        L = Letters([words[i] for i in idx])
        return L, np.array([lab for i in idx for lab in aligned[i]], dtype=object)

    # 2. Context look-up tables, every window on every budget.
    for budget in BUDGETS:
        pct = f"{budget * 100:g}pct"
        L, y = subset(budget_order[:max(50, int(round(budget * len(budget_order))))])
        table = Backoff(L, y)
        for left in range(5):
            for right in range(5):
                add(f"lookup-l{left}r{right}/{pct}", f"commonest label given {left} letters left and {right} right, backing off; {pct} of train",
                    T.tokens(table.predict(T, "test", left, right)))
                if left + right == 0:
                    continue
                for min_count in [2, 3, 5] if budget == 1.0 else [3] if budget in (0.1, 0.3) else []:
                    add(f"lookup-l{left}r{right}/min{min_count}/{pct}", f"as lookup-l{left}r{right}, a context used only if seen {min_count}+ times; "
                        f"{pct} of train", T.tokens(table.predict(T, "test", left, right, min_count=min_count)))
                if budget == 1.0 and left > 0 and right > 0:
                    add(f"lookup-l{left}r{right}/right-first/{pct}", f"as lookup-l{left}r{right}, backing off by the left context first; "
                        f"{pct} of train", T.tokens(table.predict(T, "test", left, right, chain="right-first")))
    print(f"look-up tables done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 3. Per-letter classifiers on letter windows.
    for budget in [0.03, 0.1, 0.3, 1.0]:
        pct = f"{budget * 100:g}pct"
        L, y = subset(budget_order[:int(round(budget * len(budget_order)))])
        for k in [1, 2, 3, 4, 5]:
            for leaf in [1, 4, 16]:
                out = per_letter(lambda leaf=leaf: DecisionTreeClassifier(min_samples_leaf=leaf, random_state=0), L, y, [T], lambda S, k=k: S.window(k))[0]
                add(f"tree-codes-k{k}-leaf{leaf}/{pct}", f"per-letter decision tree on the codes of a +-{k} window (min leaf {leaf}); {pct} of train",
                    T.tokens(out))
            for alpha in [0.05, 0.5]:
                out = per_letter(lambda a=alpha: CategoricalNB(alpha=a, min_categories=28), L, y, [T], lambda S, k=k: S.window(k))[0]
                add(f"naive-bayes-k{k}-a{alpha}/{pct}", f"per-letter categorical naive Bayes on a +-{k} window (alpha {alpha}); {pct} of train",
                    T.tokens(out))
        if budget >= 0.3:
            for k in [2, 3, 4]:
                for leaf in [1, 4]:
                    out = per_letter(lambda leaf=leaf: DecisionTreeClassifier(min_samples_leaf=leaf, random_state=0), L, y, [T], lambda S, k=k: S.onehot(k))[0]
                    add(f"tree-onehot-k{k}-leaf{leaf}/{pct}", f"per-letter decision tree on a one-hot +-{k} window (min leaf {leaf}); {pct} of train",
                        T.tokens(out))
        if budget <= 0.1:
            for k in [1, 2, 3] + ([4] if budget < 0.1 else []):
                out = per_letter(lambda: LogisticRegression(C=1.0, max_iter=200), L, y, [T], lambda S, k=k: S.onehot(k))[0]
                add(f"logreg-k{k}/{pct}", f"per-letter logistic regression on a one-hot +-{k} window; {pct} of train", T.tokens(out))
        if budget == 1.0:
            for k, n_trees in [(3, 20), (4, 30)]:
                out = per_letter(lambda n=n_trees: RandomForestClassifier(n_estimators=n, min_samples_leaf=1, max_features=0.5, random_state=0),
                                 L, y, [T], lambda S, k=k: S.window(k))[0]
                add(f"forest-k{k}-n{n_trees}/{pct}", f"per-letter random forest ({n_trees} trees) on the codes of a +-{k} window; {pct} of train",
                    T.tokens(out))
    print(f"per-letter classifiers done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines: fitted on `fit`, chosen on `dev`.
    F, y_fit = subset(fit_idx)
    D, y_dev = subset(dev_idx)
    score_dev = Scorer([prons[i] for i in dev_idx])
    library = {}
    refits = {}

    def enter(team, pipeline, dev_labels, test_labels, keep=True):
        dev_per = score_dev(D.tokens(dev_labels))
        add(team, f"{pipeline} (dev PER {dev_per:.4f})", T.tokens(test_labels))
        if keep:
            library[team] = (dev_per, dev_labels, test_labels)
        return dev_per

    lookup = Backoff(F, y_fit)
    for left, right in [(3, 3), (4, 4)]:
        enter(f"lookup-l{left}r{right}/fit", f"look-up table l{left}r{right} on the fit words",
              lookup.predict(D, "dev", left, right), lookup.predict(T, "test", left, right))
    dev_out, test_out = per_letter(lambda: DecisionTreeClassifier(random_state=0), F, y_fit, [D, T], lambda S: S.onehot(4))
    enter("tree-onehot-k4/fit", "per-letter decision tree on a one-hot +-4 window, fit words", dev_out, test_out)

    # xgboost per letter, early-stopped on the development words of the same letter.
    configs = [("k3", 3, False, 8, 0.3), ("k4-pos", 4, True, 8, 0.3)]
    results = []
    for name, k, pos, depth, lr in configs:
        Xf, Xd, Xt = F.onehot(k, pos), D.onehot(k, pos), T.onehot(k, pos)
        staged = {r: ([np.empty(len(D.letter), dtype=object), np.empty(len(T.letter), dtype=object)]) for r in [5, 10, 25, 40, "best"]}
        rounds = {}
        for c in np.unique(F.letter):
            m, md, mt = F.letter == c, D.letter == c, T.letter == c
            classes, inv = np.unique(y_fit[m], return_inverse=True)
            if len(classes) == 1:
                for v in staged.values():
                    v[0][md], v[1][mt] = classes[0], classes[0]
                continue
            known = np.isin(y_dev[md], classes)
            dev_y = np.searchsorted(classes, y_dev[md][known])
            model = xgb.XGBClassifier(n_estimators=60, max_depth=depth, learning_rate=lr, tree_method="hist", max_bin=16, n_jobs=1,
                                      early_stopping_rounds=5, eval_metric="mlogloss", random_state=0)
            if known.any():
                model.fit(Xf[m], inv, eval_set=[(Xd[md][known], dev_y)], verbose=False)
                best = model.best_iteration + 1
            else:
                model.set_params(early_stopping_rounds=None, n_estimators=40).fit(Xf[m], inv)
                best = 40
            rounds[c] = (m.sum(), best)
            for r, v in staged.items():
                it = (0, best if r == "best" else min(r, best))
                if md.any():
                    v[0][md] = classes[np.argmax(model.predict_proba(Xd[md], iteration_range=it), axis=1)]
                if mt.any():
                    v[1][mt] = classes[np.argmax(model.predict_proba(Xt[mt], iteration_range=it), axis=1)]
        mean_rounds = sum(n * r for n, r in rounds.values()) / sum(n for n, _ in rounds.values())
        for r, (dv, tv) in staged.items():
            label = "early-stopped" if r == "best" else f"at most {r} rounds"
            dev_per = enter(f"xgb-{name}/{r}", f"xgboost per letter on a one-hot +-{k} window{' and positions' if pos else ''}, depth {depth}, "
                            f"lr {lr}, {label} (letter-weighted mean {mean_rounds:.0f} rounds), fit words", dv, tv, keep=r == "best")
            if r == "best":
                results.append((dev_per, name, k, pos, depth, lr, rounds))
        print(f"xgb {name}: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)
    # Refit the best configuration on all of train with each letter's early-stopped round count.
    dev_per, name, k, pos, depth, lr, rounds = min(results, key=lambda r: r[0])
    A, y_all = subset(order)
    Xa, Xt = A.onehot(k, pos), T.onehot(k, pos)
    refit_out = np.empty(len(T.letter), dtype=object)
    for c in np.unique(A.letter):
        m, mt = A.letter == c, T.letter == c
        classes, inv = np.unique(y_all[m], return_inverse=True)
        if len(classes) == 1 or not mt.any():
            refit_out[mt] = classes[0]
            continue
        model = xgb.XGBClassifier(n_estimators=max(5, int(rounds.get(c, (0, 40))[1] * 1.1)), max_depth=depth, learning_rate=lr, tree_method="hist", max_bin=16,
                                  n_jobs=1, random_state=0).fit(Xa[m], inv)
        refit_out[mt] = classes[model.predict(Xt[mt])]
    add(f"xgb-{name}/refit", f"best xgboost configuration on dev ({name}) refit on all of train", T.tokens(refit_out))
    refits[f"xgb-{name}/best"] = refit_out
    print(f"xgboost done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Joint graphone n-grams.
    fit_words = [words[i] for i in fit_idx]
    fit_labels = [aligned[i] for i in fit_idx]
    joint_dev = {}
    for n_order in [3, 4, 5, 6]:
        model = JointNgram(fit_words, fit_labels, n_order)
        joint_dev[n_order] = enter(f"joint-{n_order}gram/fit", f"joint graphone {n_order}-gram, Kneser-Ney, beam 8, fit words",
                                   model.decode(D, 8), model.decode(T, 8))
    best_order = min(joint_dev, key=joint_dev.get)
    all_words = [words[i] for i in order]
    all_labels = [aligned[i] for i in order]
    refits[f"joint-{best_order}gram/fit"] = JointNgram(all_words, all_labels, best_order).decode(T, 8)
    add(f"joint-{best_order}gram/refit", f"joint graphone {best_order}-gram (best order on dev) refit on all of train, beam 8",
        T.tokens(refits[f"joint-{best_order}gram/fit"]))
    for budget in [0.03, 0.1, 0.3]:
        idx = budget_order[:int(round(budget * len(budget_order)))]
        for n_order in [3, 4]:
            model = JointNgram([words[i] for i in idx], [aligned[i] for i in idx], n_order)
            add(f"joint-{n_order}gram/{budget * 100:g}pct", f"joint graphone {n_order}-gram, Kneser-Ney, beam 8; {budget * 100:g}% of train",
                T.tokens(model.decode(T, 8)))
    print(f"joint n-grams done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Convolutional tagger.
    epochs = 10
    for ep, (dv, tv) in cnn_epochs(F, y_fit, [D, T], 64, epochs, seed=0):
        if ep >= 3:
            enter(f"cnn-tagger-w64/epoch{ep:02d}", f"torch CNN letter tagger (3 conv layers, 64 channels), epoch {ep} of a {epochs}-epoch "
                  "one-cycle schedule, fit words", dv, tv, keep=ep == epochs)
    print(f"cnn done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Ensembles: votes over aligned outputs, chosen on dev; the "-refit" twins swap in the refit models' test labels.
    ranked = sorted(library, key=lambda k: library[k][0])

    def ensemble(team, what, members, weights=None):
        enter(team, what + ", ".join(members), vote([library[m][1] for m in members], weights), vote([library[m][2] for m in members], weights),
              keep=False)
        if any(m in refits for m in members):
            add(team + "-refit", what + ", ".join(members) + "; the refit models' labels where there are refits",
                T.tokens(vote([refits.get(m, library[m][2]) for m in members], weights)))

    for top_n in [3, 5, 7, len(ranked)]:
        members = ranked[:top_n]
        ensemble(f"vote/top{top_n}", "per-letter majority vote of ", members)
        ensemble(f"vote-weighted/top{top_n}", "per-letter 1/PER-weighted majority vote of ", members, [1.0 / library[m][0] for m in members])
    families = {}
    for m in ranked:
        families.setdefault(m.split("-")[0], m)
    ensemble("vote/family-best", "per-letter majority vote of the best model of each family: ", list(families.values()))
    # Greedy forward selection (with replacement) from the best three, each step adding the member that most lowers dev PER.
    chosen = ranked[:3]
    for steps in range(1, 7):
        chosen = chosen + [min(ranked, key=lambda m: score_dev(D.tokens(vote([library[x][1] for x in chosen + [m]]))))]
        if steps % 2 == 0:
            ensemble(f"vote/greedy-{steps}", f"per-letter vote of the best three plus {steps} greedy forward steps on dev: ", chosen)

    write_board(rows, OUT, lower_is_better=True, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
