#!/usr/bin/python3
"""Reference leaderboard for the offline `spam-assassin` competition.

Trains a documented population of spam filters on the public train split (4,232 raw messages),
scores each by ROC AUC on the private answers (1,814 messages), and writes
src/competitions/spam-assassin/leaderboard.csv (best first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams. Nothing but the final scoring
reads the answers: hyper-parameters are fixed below, or chosen (like blend members, blend and
stacking weights, boosting rounds) by 5-fold stratified cross-validation on train. Models
submit their decision function (naive Bayes its log-odds, others their probability), min-max
scaled to [0, 1]: that keeps their order, and so their AUC, without the ties that rounding
confident probabilities to 0 or 1 would create.

The population (about 560 entries), bottom to top:

1. Trivial: 0.5 for every message (the sample submission), seeded random scores, and a logistic
   regression on one hand-made statistic of the message (length, links, uppercase share,
   exclamation marks, HTML tags, typical spam words, Received hops, List-* headers, a reply
   header, an X-Mailer, an HTML content type, distinct link domains...). With one feature only
   the sign is learned, so each statistic is one entry.
2. Standard models on the hand-made statistics together (logistic regression, naive Bayes,
   decision trees, a random forest, k-nearest neighbours) and k-nearest neighbours on tf-idf.
3. The standard bag-of-words grid: a vectoriser (word counts, word or word-bigram tf-idf,
   character n-gram tf-idf; several vocabulary sizes; with and without lowercasing) over the
   whole message, the headers, the body or the subject line, followed by a linear model
   (multinomial or Bernoulli naive Bayes, logistic regression with C 0.01, 1 or 100, SGD, a
   linear SVM), each trained on a fixed random 5%, 10%, 30% and 100% of train; the vectoriser
   only ever sees that sample.
4. Strong pipelines, what a careful Kaggle entrant builds. Text representations, fitted once on
   all of train (they see no labels):
   - "word12": sublinear tf-idf of word unigrams and bigrams of the whole message;
   - "char": sublinear tf-idf of character 2-5-grams of the first 3,000 body characters, which
     catches spellings that words miss (V1AGRA, f r e e, HTML entities);
   - "headers": a bag of header-aware tokens: which header fields are present, the number of
     Received hops, the sender, reply-to, return-path and message-id domains and top-level
     domains, the shape of the local part and of the message-id, the relays and software in
     the Received chain, the mailer, content type, charset and encodings, priority and list
     headers, time zone, hour and month of the Date, subject traits (reply, list tag, capitals,
     "!", "$", a trailing tracking id, encoded words), link domains, IP links, mailto domains,
     HTML tag names and the number of links in the body;
   - "hand": 63 standardised hand-made statistics (the ones above and more: HTML share, fonts,
     colours, forms, scripts, quoted lines, signatures, PGP, MIME parts, attachments...);
   - "nb": binary word12 (and header) features scaled by the naive Bayes log-count ratio,
     computed inside each training fold (NB-SVM, Wang & Manning 2012).
   On them:
   - logistic regression and linear SVMs on word12, headers, word12 + headers, char + headers,
     word12 + char + headers and word12 + headers + hand over a grid of C; NB-LR and NB-SVM;
     ridge; SGD with the modified Huber loss over a grid of alpha and five seeds (and their
     average). Every grid point is an entry (refit on all of train); for every family the C
     with the best cross-validated AUC is also an entry as its five fold models averaged;
   - xgboost on 150 SVD components of word12, 50 of the header tokens and the hand
     statistics, six fixed settings, rounds by early stopping on the folds' AUC; each setting
     is two entries (fold models averaged; a refit with the folds' mean round count), and the
     best by CV is refit with three more seeds;
   - blends over the library of each family's best model: equal rank averages of every pair
     of the twelve best by CV AUC and of the top 3, 5 and 8, greedy forward selection on the
     out-of-fold rank-average AUC, and stacking (logistic regression over a grid of C on the
     standardised out-of-fold scores; xgboost on them and the hand statistics).

Runtime: single-threaded (OMP/BLAS threads pinned to 1); this version's running time has not been
measured on an idle machine (the earlier 277-entry generator took five to seven minutes on two cores).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c spam-assassin --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/spam-assassin/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from itertools import combinations  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.stats import rankdata  # noqa: E402
from sklearn.decomposition import TruncatedSVD  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression, RidgeClassifier, SGDClassifier  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, GaussianNB, MultinomialNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
FOLDS = 5
BUDGETS = [0.05, 0.1, 0.3, 1.0]
# Character n-grams of long messages (up to 300 kB) are slow and add little: they see a prefix only.
CHAR_PREFIX = 2000
STRONG_CHAR_PREFIX = 3000
WORD_TOKENS = r"(?u)\b\w[\w'$.-]*\w\b|[$!]"
PART_NAMES = {"full": "whole message", "headers": "headers", "body": "body", "subject": "subject line"}
# A hand-written list of words common in 2002-era spam, for the keyword-count statistic.
SPAM_WORDS = (r"(?i)\b(?:free|click|money|offer|remove|removal|guarantee[d]?|credit|cash|income|"
              r"opportunity|unsubscribe|limited|order|save|winner|investment|mortgage|viagra|"
              r"million|dollars|act now|no obligation)\b")
# The statistics that stand alone as trivial entries (column of `hand_statistics`, meaning).
SINGLE = {
    "log_len": "length in characters", "n_url": "number of links", "caps": "share of uppercase letters in the body",
    "bang": "number of exclamation marks in the body", "n_tags": "number of HTML tags", "spam_words": "number of typical spam words",
    "n_recv": "number of Received headers", "list": "presence of List-* headers", "reply": "presence of In-Reply-To or References",
    "mailer": "presence of an X-Mailer or User-Agent", "ct_html": "text/html content type", "url_domains": "number of distinct link domains",
    "html_share": "share of the body inside HTML tags", "quoted": "share of quoted (>) body lines", "subj_caps": "share of capitals in the subject",
    "dollar": "number of dollar signs in the body", "remove": "an unsubscribe / remove / opt-out phrase",
    "from_free": "a free-mail sender domain", "n_hdr": "number of header fields", "tz_hours": "time zone offset of the Date header",
}
# Headers whose values are short vocabularies worth tokenising whole.
VALUE_HEADERS = ("x-mailer", "user-agent", "x-mimeole", "content-type", "content-transfer-encoding", "precedence",
                 "x-priority", "x-msmail-priority", "mime-version", "list-id", "x-beenthere", "x-mailman-version",
                 "importance", "x-loop")
ADDRESS_HEADERS = ("from", "return-path", "reply-to", "sender", "errors-to", "to", "cc", "message-id", "in-reply-to",
                   "references", "delivered-to")


def split_message(texts):
    """Header block and body (after the first blank line) of every message."""
    split = texts.str.split("\n\n", n=1, expand=True).reindex(columns=[0, 1]).fillna("")
    return split[0], split[1]


def parts(texts):
    """The whole message, its header block, its body and its subject line."""
    headers, body = split_message(texts)
    subject = headers.str.extract(r"(?im)^subject:[ \t]*(.*)$")[0].fillna("")
    return {"full": texts, "headers": headers, "body": body, "subject": subject}


def header_fields(block):
    """(lower-case name, value) of every header field, folded continuation lines joined."""
    block = re.sub(r"\n[ \t]+", " ", block)
    return [(m.group(1).lower(), m.group(2)) for m in re.finditer(r"(?m)^([!-9;-~]+):[ \t]*(.*)$", block)]


def header_tokens(block, body):
    """Header-aware tokens of one message: what a mail administrator would look at first."""
    fields = header_fields(block)
    names = [k for k, _ in fields]
    toks = ["has=" + k for k in sorted(set(names))]
    toks.append("received-hops=%d" % min(names.count("received"), 12))
    for k, v in fields:
        low = v.lower()
        if k in ADDRESS_HEADERS:
            for domain in re.findall(r"@([\w.-]+)", low):
                labels = domain.strip(".").split(".")
                toks += [f"{k}@{'.'.join(labels[-2:])}", f"{k}@tld.{labels[-1]}"]
            if k in ("from", "reply-to", "return-path"):
                # Digits collapsed: spam senders are often random names with numbers.
                toks += [f"{k}-user={re.sub(r'[0-9]', '9', u)[:12]}" for u in re.findall(r"([\w.+-]+)@", low)]
            if k == "message-id":
                toks.append("msgid-shape=" + re.sub(r"[a-z]+", "a", re.sub(r"[0-9]+", "9", low))[:40])
        elif k == "received":
            toks += ["relay=" + w.strip("[]").split(".")[-1][:20] for w in re.findall(r"\b(?:from|by|via)\s+([\w.\-\[\]]+)", low)]
            toks += ["relay-note=" + re.sub(r"[0-9]", "9", w)[:30] for w in re.findall(r"\(([\w.\-/ ]+?)\)", low)[:3]]
            toks += ["relay-software=" + w for w in re.findall(r"\b(esmtp|smtp|imap|postfix|sendmail|exim|qmail|microsoft)\b", low)]
            if "unknown" in low:
                toks.append("relay-unknown")
        elif k in VALUE_HEADERS:
            toks += [f"{k}~{w}" for w in re.findall(r"[a-z][a-z\-]+", low)[:6]]
            toks.append(f"{k}={re.sub(r'[0-9]', '9', low)[:30]}")
        elif k == "subject":
            letters = re.findall(r"[A-Za-z]", v)
            traits = {"subject-reply": re.match(r"\s*(re|fw|fwd):", low), "subject-list-tag": re.search(r"\[[^\]]+\]", v),
                      "subject-bang": "!" in v, "subject-dollar": "$" in v, "subject-encoded": "=?" in v,
                      "subject-trailing-id": re.search(r"\s{3,}[\w-]{3,}\s*$", v),
                      "subject-caps": letters and sum(c.isupper() for c in letters) > len(letters) / 2}
            toks += [name for name, hit in traits.items() if hit]
            toks += ["subject:" + w for w in re.findall(r"[a-z]{3,}", low)]
        elif k == "date":
            for pattern, tag in [(r"([+-]\d{4}|\b[A-Z]{3})\s*(?:\(|$)", "zone"), (r"\b([A-Z][a-z]{2}) (\d{4})", "month"),
                                 (r"\b(\d\d):\d\d(?::\d\d)?\b", "hour")]:
                m = re.search(pattern, v)
                if m:
                    toks.append(f"date-{tag}=" + "".join(m.groups()))
    low = body.lower()
    for host in re.findall(r"https?://([\w.-]+)", low)[:30]:
        toks.append("link@" + ".".join(host.split(".")[-2:]))
        if re.match(r"\d+\.\d+\.\d+\.\d+$", host):
            toks.append("link-ip")
    toks += ["tag=" + w for w in re.findall(r"<\s*([a-z]+)", low)[:200]]
    toks += ["mailto@" + w for w in re.findall(r"mailto:[\w.+-]*@([\w.-]+)", low)[:5]]
    links = low.count("http://") + low.count("https://")
    toks.append("links=%d" % (links if links < 10 else 10 + int(np.log2(links))))
    return toks


def hand_statistics(texts):
    """63 hand-made numbers per message, counts log-scaled."""
    headers, body = split_message(texts)
    hdr = headers.str.replace(r"\n[ \t]+", " ", regex=True)
    low = body.str.lower()
    subject = hdr.str.extract(r"(?im)^subject:[ \t]*(.*)$")[0].fillna("")
    count = lambda s, p: s.str.count(p).astype(float)  # noqa: E731
    has = lambda s, p: s.str.contains(p).astype(float)  # noqa: E731
    log = np.log1p
    F = {
        "log_len": log(texts.str.len()), "log_hlen": log(headers.str.len()), "log_blen": log(body.str.len()),
        "n_recv": count(hdr, r"(?im)^received:"), "n_hdr": count(hdr, r"(?m)^[!-9;-~]+:"),
        "list": has(hdr, r"(?im)^list-(?:id|unsubscribe|post|help):"), "reply": has(hdr, r"(?im)^(?:in-reply-to|references):"),
        "subj_re": has(hdr, r"(?im)^subject:\s*(?:re|fw|fwd):"), "precedence_bulk": has(hdr, r"(?im)^precedence:\s*(?:bulk|list|junk)"),
        "mailer": has(hdr, r"(?im)^(?:x-mailer|user-agent):"), "outlook_express": has(hdr, r"(?im)^x-mailer:.*outlook express"),
        "msmail_prio": has(hdr, r"(?im)^x-msmail-priority:"),
        "x_priority": hdr.str.extract(r"(?im)^x-priority:\s*(\d)")[0].astype(float).fillna(0),
        "ct_html": has(hdr, r"(?im)^content-type:\s*text/html"), "ct_alternative": has(hdr, r"(?im)^content-type:\s*multipart/alternative"),
        "ct_mixed": has(hdr, r"(?im)^content-type:\s*multipart/mixed"),
        "charset_asian_cyrillic": has(hdr, r"(?i)charset=\"?(?:ks_c|euc|gb2312|big5|windows-1251|koi8)"),
        "base64": count(texts, r"(?i)content-transfer-encoding:\s*base64"),
        "quoted_printable": count(texts, r"(?i)content-transfer-encoding:\s*quoted-printable"),
        "subj_encoded": has(hdr, r"(?im)^subject:.*=\?"),
        "subj_caps": count(subject, r"[A-Z]") / np.maximum(count(subject, r"[A-Za-z]"), 1),
        "subj_bang": count(subject, "!"), "subj_dollar": count(subject, r"\$"), "subj_len": subject.str.len().astype(float),
        "subj_tail_id": has(subject, r"\s{3,}[\w-]{3,}\s*$"), "subj_tag": has(subject, r"\[[^\]]+\]"),
        "to_undisclosed": has(hdr, r"(?im)^to:.*undisclosed"), "no_to": 1 - has(hdr, r"(?im)^to:"),
        "no_date": 1 - has(hdr, r"(?im)^date:"), "no_msgid": 1 - has(hdr, r"(?im)^message-id:"),
        "reply_to": has(hdr, r"(?im)^reply-to:"), "from_digits": has(hdr, r"(?im)^from:.*\d{3,}.*@"),
        "from_free": has(hdr, r"(?im)^from:.*@(?:hotmail|yahoo|msn|aol|excite|netscape)\."),
        "tz_hours": hdr.str.extract(r"(?im)^date:.*([+-]\d\d)\d\d")[0].astype(float).fillna(0),
        "recv_unknown": count(hdr, r"(?i)\(unknown\b"),
        "html_share": body.str.findall(r"<[^>]{0,200}>").str.join("").str.len() / np.maximum(body.str.len(), 1),
        "n_tags": log(count(low, r"<[a-z!/]")), "font": log(count(low, r"<font")), "img": log(count(low, r"<img")),
        "table": log(count(low, r"<table")), "form": count(low, r"<form").clip(upper=5), "script": count(low, r"<script").clip(upper=5),
        "color": log(count(low, r"color=|#[0-9a-f]{6}")), "n_url": log(count(low, r"https?://")),
        "url_ip": log(count(low, r"https?://\d+\.\d+\.\d+\.\d+")),
        "url_domains": low.str.findall(r"https?://([\w.-]+)").map(lambda hosts: np.log1p(len(set(hosts)))),
        "mailto": log(count(low, r"mailto:")), "remove": has(low, r"\b(?:remove|unsubscribe|opt[- ]?out)\b"),
        "click": has(low, r"click here"), "spam_words": log(count(texts, SPAM_WORDS)),
        "caps": count(body, r"[A-Z]") / np.maximum(count(body, r"[A-Za-z]"), 1), "caps_runs": log(count(body, r"[A-Z]{6,}")),
        "bang": log(count(body, "!")), "dollar": log(count(body, r"\$")),
        "digits": count(body, r"\d") / np.maximum(body.str.len(), 1), "replacement_chars": log(count(texts, "\ufffd")),
        "quoted": count(body, r"(?m)^>") / np.maximum(count(body, "\n"), 1), "signature": has(body, r"(?m)^-- ?$"),
        "pgp": has(texts, "BEGIN PGP"), "mime_parts": log(count(body, r"(?m)^--\S{8,}")),
        "attachments": count(texts, r"(?i)content-disposition:\s*attachment").clip(upper=5), "lines": log(count(body, "\n")),
        "blank_share": count(body, r"\n\s*\n") / np.maximum(count(body, "\n"), 1),
    }
    return pd.DataFrame({k: np.asarray(v, dtype=float) for k, v in F.items()})


def vectorizers():
    """(name, factory, parts) for every text representation of the standard grid."""
    word = dict(token_pattern=WORD_TOKENS, dtype=np.float32)
    yield "count-word-1k", lambda: CountVectorizer(max_features=1000, **word), ["full", "headers", "body", "subject"]
    yield "count-word-10k", lambda: CountVectorizer(max_features=10000, **word), ["full", "body"]
    yield "count-word-cased-10k", lambda: CountVectorizer(max_features=10000, lowercase=False, **word), ["full"]
    yield "tfidf-word-5k", lambda: TfidfVectorizer(max_features=5000, sublinear_tf=True, **word), ["full", "headers", "body", "subject"]
    yield "tfidf-word12-50k", lambda: TfidfVectorizer(ngram_range=(1, 2), max_features=50000, min_df=2, sublinear_tf=True, **word), ["full", "body"]
    yield "tfidf-char25-20k", lambda: TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), max_features=20000, sublinear_tf=True, dtype=np.float32), ["body", "subject"]


def grid_models(vectorizer):
    """(name, factory) for every classifier of the grid that suits this representation."""
    if vectorizer.startswith("count"):
        yield "multinomial-nb", lambda: MultinomialNB(alpha=1.0)
        # Complement NB ranks exactly like multinomial NB when there are two classes; Bernoulli NB differs.
        yield "bernoulli-nb", lambda: BernoulliNB(alpha=1.0)
    else:
        yield "multinomial-nb-a0.1", lambda: MultinomialNB(alpha=0.1)
    for c in [0.01, 1.0, 100.0]:
        yield f"logreg-C{c:g}", lambda c=c: LogisticRegression(C=c, max_iter=2000)
    yield "sgd-hinge", lambda: SGDClassifier(loss="hinge", alpha=1e-4, max_iter=50, tol=None, random_state=0)
    # On raw counts liblinear does not converge; the SVM only runs on the normalised tf-idf features.
    if vectorizer.startswith("tfidf"):
        yield "linear-svm-C0.1", lambda: LinearSVC(C=0.1, max_iter=5000, random_state=0)


def decision(model, x):
    """A spam score in the model's order: its decision function or, for naive Bayes, its log-odds.

    Probabilities of confident models round to exactly 0 or 1 and would tie messages the model
    tells apart."""
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(x), dtype=float).ravel()
    if hasattr(model, "predict_joint_log_proba"):
        joint = model.predict_joint_log_proba(x)
        return joint[:, 1] - joint[:, 0]
    return model.predict_proba(x)[:, 1]


class NBScaled:
    """A linear model on binary features scaled by the naive Bayes log-count ratio of the rows it is fitted on."""

    def __init__(self, base, alpha=1.0):
        self.base, self.alpha = base, alpha

    def fit(self, x, y):
        spam = self.alpha + np.asarray(x[y == 1].sum(axis=0)).ravel()
        ham = self.alpha + np.asarray(x[y == 0].sum(axis=0)).ravel()
        self.ratio = np.log(spam / spam.sum()) - np.log(ham / ham.sum())
        self.base.fit(sp.csr_matrix(x.multiply(self.ratio)), y)
        return self

    def decision_function(self, x):
        return self.base.decision_function(sp.csr_matrix(x.multiply(self.ratio)))


def ranks(s):
    """Scores replaced by their rank in (0, 1], ties averaged: the currency of rank-average blends."""
    return rankdata(s) / len(s)


def main(data_dir):
    started = time.process_time()
    prepared = os.path.join(data_dir, "spam-assassin", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"))
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left").label.to_numpy()
    if np.isnan(truth.astype(float)).any():
        sys.exit("the answers do not cover every test id; prepare the competition again")
    y = train.label.to_numpy()
    n, n_test = len(train), len(test)
    rows, seen = [], {}

    def add(team, pipeline, s):
        s = np.asarray(s, dtype=float)
        assert s.shape == truth.shape and np.isfinite(s).all(), team
        # Two pipelines that rank the test set identically are one entry twice: say so.
        key = hash(rankdata(s).tobytes())
        if key in seen:
            print(f"  warning: {team} ranks the test set exactly as {seen[key]}", file=sys.stderr)
        seen.setdefault(key, team)
        s = (s - s.min()) / max(s.max() - s.min(), 1e-300)
        rows.append({"teamName": team, "score": roc_auc_score(truth, s), "pipeline": pipeline})

    def progress(stage):
        print(f"  {stage}: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)

    # 1. Trivial.
    add("constant-0.5", "0.5 for every message (the sample submission)", np.full(n_test, 0.5))
    for seed in range(2):
        add(f"random-{seed}", f"seeded uniform random scores (seed {seed})", np.random.default_rng(seed).random(n_test))
    stats_train, stats_test = hand_statistics(train.text), hand_statistics(test.text)
    for col, meaning in SINGLE.items():
        x_tr, x_te = stats_train[[col]].to_numpy(), stats_test[[col]].to_numpy()
        model = make_pipeline(StandardScaler(), LogisticRegression()).fit(x_tr, y)
        add(f"{col}/logreg", f"logistic regression on one statistic, the message's {meaning}", decision(model, x_te))
    progress("trivial")

    # 2. Standard models on the statistics together, and nearest neighbours on tf-idf.
    hand_models = {
        "logreg-C1": lambda: make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=5000)),
        "gaussian-nb": GaussianNB,
        "tree-d3": lambda: DecisionTreeClassifier(max_depth=3, random_state=0),
        "tree-d8": lambda: DecisionTreeClassifier(max_depth=8, min_samples_leaf=5, random_state=0),
        "tree-unpruned": lambda: DecisionTreeClassifier(random_state=0),
        "forest-300": lambda: RandomForestClassifier(n_estimators=300, min_samples_leaf=2, random_state=0, n_jobs=1),
        "knn-k15": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=15)),
    }
    for name, make in hand_models.items():
        add(f"{name}/hand-statistics", f"{name} on all {stats_train.shape[1]} hand-made statistics, 100% of train",
            decision(make().fit(stats_train, y), stats_test))
    vec = TfidfVectorizer(max_features=5000, sublinear_tf=True, token_pattern=WORD_TOKENS, dtype=np.float32)
    x_tr, x_te = vec.fit_transform(train.text), vec.transform(test.text)
    for k in [1, 5, 25]:
        # Brute-force cosine is a sparse product; the default Euclidean path is far slower on sparse rows.
        knn = KNeighborsClassifier(n_neighbors=k, metric="cosine", algorithm="brute").fit(x_tr, y)
        add(f"knn-k{k}/tfidf-word-5k/full", f"{k}-nearest neighbours (cosine) on tfidf-word-5k features of the whole message, 100% of train",
            knn.predict_proba(x_te)[:, 1])
    progress("hand-made statistics")

    # 3. The standard bag-of-words grid.
    test_parts = parts(test.text)
    for budget in BUDGETS:
        pct = int(round(budget * 100))
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        ys = sub.label.to_numpy()
        train_parts = parts(sub.text)
        for vec_name, make_vec, fields in vectorizers():
            for part in fields:
                prefix = CHAR_PREFIX if "char" in vec_name and part != "subject" else None
                tr_text, te_text = train_parts[part], test_parts[part]
                if prefix:
                    tr_text, te_text = tr_text.str.slice(0, prefix), te_text.str.slice(0, prefix)
                vec = make_vec()
                x_tr, x_te = vec.fit_transform(tr_text), vec.transform(te_text)
                where = f"the first {prefix} characters of the {PART_NAMES[part]}" if prefix else f"the {PART_NAMES[part]}"
                for model_name, make_model in grid_models(vec_name):
                    model = make_model().fit(x_tr, ys)
                    add(f"{vec_name}/{part}/{model_name}/{pct}pct", f"{model_name} on {vec_name} features of {where}, {pct}% of train",
                        decision(model, x_te))
        progress(f"grid at {pct}%")

    # 4. Strong pipelines. The representations are fitted once on all of train; the folds refit the models only.
    headers_tr, body_tr = split_message(train.text)
    headers_te, body_te = split_message(test.text)
    word = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, token_pattern=WORD_TOKENS, dtype=np.float32)
    W, Wt = word.fit_transform(train.text), word.transform(test.text)
    char = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=3, max_features=100000, sublinear_tf=True, dtype=np.float32)
    C, Ct = char.fit_transform(body_tr.str.slice(0, STRONG_CHAR_PREFIX)), char.transform(body_te.str.slice(0, STRONG_CHAR_PREFIX))
    hdr = TfidfVectorizer(analyzer=lambda toks: toks, min_df=2, sublinear_tf=True, dtype=np.float32)
    Hd = hdr.fit_transform([header_tokens(h, b) for h, b in zip(headers_tr, body_tr)])
    Hdt = hdr.transform([header_tokens(h, b) for h, b in zip(headers_te, body_te)])
    scaler = StandardScaler().fit(stats_train)
    # Scaled down so that 63 dense columns do not outweigh a unit-norm tf-idf row.
    S, St = (sp.csr_matrix(scaler.transform(s) * 0.1) for s in (stats_train, stats_test))
    B, Bt = (sp.csr_matrix((m > 0).astype(np.float32)) for m in (W, Wt))
    BH, BHt = (sp.csr_matrix((m > 0).astype(np.float32)) for m in (Hd, Hdt))
    stack = lambda *ms: sp.hstack(ms).tocsr()  # noqa: E731
    sets = {
        "word12": (W, Wt), "headers": (Hd, Hdt), "word12+headers": (stack(W, Hd), stack(Wt, Hdt)),
        "char+headers": (stack(C, Hd), stack(Ct, Hdt)), "word12+char+headers": (stack(W, C, Hd), stack(Wt, Ct, Hdt)),
        "word12+headers+hand": (stack(W, Hd, S), stack(Wt, Hdt, St)),
        "binary-word12": (B, Bt), "binary-word12+headers": (stack(B, BH), stack(Bt, BHt)),
    }
    described = {
        "word12": "word uni+bigram tf-idf of the whole message", "headers": "header-aware tokens",
        "word12+headers": "word uni+bigram tf-idf and header-aware tokens",
        "char+headers": f"char 2-5-gram tf-idf of the first {STRONG_CHAR_PREFIX} body characters and header-aware tokens",
        "word12+char+headers": "word uni+bigram tf-idf, body char 2-5-gram tf-idf and header-aware tokens side by side",
        "word12+headers+hand": "word uni+bigram tf-idf, header-aware tokens and the 63 standardised hand statistics",
        "binary-word12": "binary word uni+bigrams", "binary-word12+headers": "binary word uni+bigrams and header-aware tokens",
    }
    print(f"  representations: word12 {W.shape[1]}, char {C.shape[1]}, headers {Hd.shape[1]} columns; "
          f"{time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=42).split(np.zeros(n), y))
    library, chosen_setting = {}, {}

    def cross_validate(make, x, xt):
        """Out-of-fold scores, the fold models' scores averaged on test, and a refit's test scores."""
        oof, fold_avg = np.zeros(n), np.zeros(n_test)
        for a, b in folds:
            m = make().fit(x[a], y[a])
            oof[b] = decision(m, x[b])
            fold_avg += decision(m, xt) / FOLDS
        return oof, fold_avg, decision(make().fit(x, y), xt)

    liblinear = dict(solver="liblinear", max_iter=5000, random_state=0)
    families = [
        # (family, model description, setting name, settings, factory(setting), feature sets)
        ("logreg", "logistic regression", "C", [10, 30, 100, 300], lambda c: LogisticRegression(C=c, **liblinear), ["word12", "word12+headers"]),
        ("logreg", "logistic regression", "C", [3, 10, 30, 100], lambda c: LogisticRegression(C=c, **liblinear), ["headers"]),
        ("logreg", "logistic regression", "C", [10, 30, 100], lambda c: LogisticRegression(C=c, **liblinear),
         ["char+headers", "word12+char+headers", "word12+headers+hand"]),
        ("svm", "linear SVM", "C", [0.3, 1, 3, 10], lambda c: LinearSVC(C=c, max_iter=20000, random_state=0), ["word12", "word12+headers"]),
        ("svm", "linear SVM", "C", [0.3, 1, 3], lambda c: LinearSVC(C=c, max_iter=20000, random_state=0),
         ["headers", "char+headers", "word12+char+headers"]),
        ("nb-logreg", "NB-LR (logistic regression on naive-Bayes-scaled features)", "C", [0.3, 1, 3, 10],
         lambda c: NBScaled(LogisticRegression(C=c, **liblinear)), ["binary-word12", "binary-word12+headers"]),
        ("nb-svm", "NB-SVM (linear SVM on naive-Bayes-scaled features)", "C", [0.03, 0.1, 0.3],
         lambda c: NBScaled(LinearSVC(C=c, max_iter=20000, random_state=0)), ["binary-word12", "binary-word12+headers"]),
        ("ridge", "ridge classifier", "alpha", [0.3, 1, 3], lambda a: RidgeClassifier(alpha=a, solver="sparse_cg", random_state=0),
         ["word12+headers"]),
        ("sgd-mhuber", "SGD with the modified Huber loss (50 epochs, seed 0)", "alpha", [1e-5, 3e-5, 1e-4],
         lambda a: SGDClassifier(loss="modified_huber", alpha=a, max_iter=50, tol=None, random_state=0), ["word12+headers"]),
    ]
    for family, what, knob, settings, factory, feature_sets in families:
        for fs in feature_sets:
            x, xt = sets[fs]
            results = {}
            for v in settings:
                oof, fold_avg, refit = cross_validate(lambda v=v: factory(v), x, xt)
                auc = roc_auc_score(y, oof)
                results[v] = (auc, oof, fold_avg)
                add(f"{family}-{knob}{v:g}/{fs}", f"{what}, {knob}={v:g}, on {described[fs]}; refit on all of train "
                    f"(CV AUC {auc:.5f})", refit)
            best = max(settings, key=lambda v: (results[v][0], -settings.index(v)))
            auc, oof, fold_avg = results[best]
            team = f"{family}-cv/{fs}"
            add(team, f"{what} on {described[fs]}, {knob}={best:g} chosen by {FOLDS}-fold CV from {', '.join(f'{v:g}' for v in settings)} "
                f"(CV AUC {auc:.5f}); the {FOLDS} fold models averaged", fold_avg)
            library[team] = (oof, fold_avg)
            chosen_setting[team] = best
        progress(f"{family} on {', '.join(feature_sets)}")
    # More seeds of the SGD at its cross-validated alpha, and their average.
    alpha = chosen_setting["sgd-mhuber-cv/word12+headers"]
    x, xt = sets["word12+headers"]
    oofs, preds = [library["sgd-mhuber-cv/word12+headers"][0]], [library["sgd-mhuber-cv/word12+headers"][1]]
    for seed in range(1, 5):
        make = lambda seed=seed: SGDClassifier(loss="modified_huber", alpha=alpha, max_iter=50, tol=None, random_state=seed)  # noqa: E731
        oof, fold_avg, refit = cross_validate(make, x, xt)
        add(f"sgd-mhuber-cv/word12+headers/seed{seed}", f"SGD (modified Huber, CV-chosen alpha={alpha:g}) on {described['word12+headers']}, "
            f"seed {seed}, refit on all of train (CV AUC {roc_auc_score(y, oof):.5f})", refit)
        oofs.append(oof)
        preds.append(fold_avg)
    oof = np.mean(oofs, axis=0)
    add("sgd-mhuber-cv/word12+headers/5-seed-bag", f"SGD (modified Huber, alpha={alpha:g}) bagged over 5 seeds x {FOLDS} folds "
        f"(CV AUC {roc_auc_score(y, oof):.5f})", np.mean(preds, axis=0))
    progress("linear models")

    # xgboost on SVD components and the hand statistics.
    svd_word = TruncatedSVD(150, random_state=0).fit(W)
    svd_hdr = TruncatedSVD(50, random_state=0).fit(Hd)
    D = np.hstack([svd_word.transform(W), svd_hdr.transform(Hd), stats_train.to_numpy()])
    Dt = np.hstack([svd_word.transform(Wt), svd_hdr.transform(Hdt), stats_test.to_numpy()])
    progress("SVD")
    settings = [
        dict(learning_rate=0.05, max_depth=4, min_child_weight=1, subsample=0.8, colsample_bytree=0.5),
        dict(learning_rate=0.05, max_depth=3, min_child_weight=1, subsample=0.8, colsample_bytree=0.3),
        dict(learning_rate=0.05, max_depth=6, min_child_weight=3, subsample=0.8, colsample_bytree=0.3),
        dict(learning_rate=0.1, max_depth=4, min_child_weight=1, subsample=0.7, colsample_bytree=0.5, reg_lambda=5.0),
        dict(learning_rate=0.03, max_depth=5, min_child_weight=2, subsample=0.9, colsample_bytree=0.2),
        dict(learning_rate=0.05, max_depth=2, min_child_weight=1, subsample=0.8, colsample_bytree=0.5),
    ]
    common = dict(n_jobs=1, tree_method="hist", eval_metric="auc")
    draws = []
    for i, params in enumerate(settings):
        oof, fold_avg, rounds = np.zeros(n), np.zeros(n_test), []
        for a, b in folds:
            m = xgb.XGBClassifier(n_estimators=1500, early_stopping_rounds=60, random_state=0, **common, **params)
            m.fit(D[a], y[a], eval_set=[(D[b], y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            rounds.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(D[b], iteration_range=it)[:, 1]
            fold_avg += m.predict_proba(Dt, iteration_range=it)[:, 1] / FOLDS
        auc = roc_auc_score(y, oof)
        desc = ", ".join(f"{k}={v:g}" for k, v in params.items())
        team = f"xgb-setting{i}/svd+hand"
        add(team, f"xgboost ({desc}; ~{int(np.mean(rounds))} rounds by early stopping) on 150 word12 SVD components, 50 header-token "
            f"SVD components and 63 hand statistics; the {FOLDS} fold models averaged (CV AUC {auc:.5f})", fold_avg)
        library[team] = (oof, fold_avg)
        total = max(20, int(np.mean(rounds) * 1.1))
        refit = xgb.XGBClassifier(n_estimators=total, random_state=0, **common, **params).fit(D, y).predict_proba(Dt)[:, 1]
        add(f"{team}/refit", f"xgboost setting {i} ({desc}) refit on all of train for {total} rounds (CV AUC {auc:.5f})", refit)
        draws.append((auc, i, params, total))
        progress(f"xgboost setting {i}")
    auc, i, params, total = max(draws, key=lambda d: (d[0], -d[1]))
    seeds = [xgb.XGBClassifier(n_estimators=total, random_state=s, **common, **params).fit(D, y).predict_proba(Dt)[:, 1] for s in range(1, 4)]
    add(f"xgb-setting{i}/svd+hand/refit-3-more-seeds", f"xgboost setting {i} (best by CV AUC {auc:.5f}) refit on all of train with seeds "
        "1-3, averaged", np.mean(seeds, axis=0))
    progress("xgboost")

    # Blends and stacking over the library (one model per family: its CV-chosen setting, fold-averaged).
    ranked = sorted(library, key=lambda k: (-roc_auc_score(y, library[k][0]), k))
    oof_ranks = {k: ranks(library[k][0]) for k in ranked}
    test_ranks = {k: ranks(library[k][1]) for k in ranked}
    for a, b in combinations(ranked[:12], 2):
        auc = roc_auc_score(y, oof_ranks[a] + oof_ranks[b])
        add(f"blend/rank-avg/{a}+{b}", f"equal rank average of {a} and {b} (CV AUC {auc:.5f})", test_ranks[a] + test_ranks[b])
    for top in [3, 5, 8]:
        members = ranked[:top]
        auc = roc_auc_score(y, sum(oof_ranks[k] for k in members))
        add(f"blend/rank-avg/top{top}", f"equal rank average of the {top} best by CV AUC: {', '.join(members)} (CV AUC {auc:.5f})",
            sum(test_ranks[k] for k in members))
    for steps in [5, 10, 20]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            pick = max(ranked, key=lambda k: (roc_auc_score(y, total + oof_ranks[k]), -ranked.index(k)))
            chosen.append(pick)
            total = total + oof_ranks[pick]
        counts = pd.Series(chosen).value_counts()
        add(f"blend/greedy-{steps}", f"greedy forward rank-average blend ({steps} steps, with replacement) on the out-of-fold AUC "
            f"(CV AUC {roc_auc_score(y, total):.5f}): " + ", ".join(f"{k} x{c}" for k, c in counts.items()),
            sum(test_ranks[k] for k in chosen))
    O = np.column_stack([library[k][0] for k in ranked])
    T = np.column_stack([library[k][1] for k in ranked])
    mean, std = O.mean(axis=0), O.std(axis=0) + 1e-12
    Oz, Tz = (O - mean) / std, (T - mean) / std
    for c in [0.01, 0.1, 1.0]:
        meta = LogisticRegression(C=c, max_iter=5000).fit(Oz, y)
        add(f"stack/logreg-C{c:g}", f"stacking: logistic regression (C={c:g}) on the standardised out-of-fold scores of {len(ranked)} models",
            meta.decision_function(Tz))
    for depth, eta, trees in [(2, 0.05, 300), (3, 0.03, 400)]:
        meta = xgb.XGBClassifier(n_estimators=trees, learning_rate=eta, max_depth=depth, subsample=0.8, colsample_bytree=0.5,
                                 n_jobs=1, tree_method="hist", random_state=0)
        meta.fit(np.hstack([O, stats_train.to_numpy()]), y)
        add(f"stack/xgb-d{depth}", f"stacking: xgboost (depth {depth}, {trees} rounds at {eta:g}) on the out-of-fold scores of "
            f"{len(ranked)} models and the 63 hand statistics", meta.predict_proba(np.hstack([T, stats_test.to_numpy()]))[:, 1])

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
