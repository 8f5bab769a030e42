"""text-normalization-challenge-english-language: synthetic raw files and upstream's preparation steps."""
import _text_normalization as tn

# (before, after) pairs per semiotic class, in the style of Kaggle's en_train.csv. Some tokens are
# pandas missing-value words ("NaN", "NA", "null", "None", "N/A"), which read back as missing;
# others look numeric ("007", "2006") but stay text because the column is text.
VOCAB = {
    "PLAIN": [("the", "the"), ("Brillantaccording", "Brillantaccording"), ("café", "café"), ("naïve", "naïve"),
              ("NaN", "NaN"), ("NA", "NA"), ("null", "null"), ("None", "None"), ("N/A", "N/A"), ("True", "True"),
              ("it's", "it's"), ("Zürich", "Zürich"), ("and", "and"), ("of", "of"), ("nan", "nan")],
    "PUNCT": [(".", "."), (",", ","), ('"', '"'), ("'", "'"), ("(", "("), (")", ")"), ("-", "-"), (":", ":"),
              ("—", "—"), ('""', '""')],
    "DATE": [("1999", "nineteen ninety nine"), ("July 4, 2011", "july fourth twenty eleven"),
             ("2006", "two thousand six"), ("12 May 1890", "the twelfth of may eighteen ninety")],
    "LETTERS": [("BBC", "b b c"), ("U.S.", "u s"), ("é", "e acute")],
    "CARDINAL": [("12", "twelve"), ("1,000", "one thousand"), ("-3", "minus three"), ("0", "zero")],
    "VERBATIM": [("α", "alpha"), ("&", "and"), ("🙂", "🙂"), ("§", "section")],
    "DECIMAL": [("3.14", "three point one four"), (".5", "point five")],
    "MEASURE": [("5 km", "five kilometers"), ("10%", "ten percent"), ('6"', "six inches")],
    "MONEY": [("$5", "five dollars"), ("£2.50", "two pounds fifty pence")],
    "ORDINAL": [("1st", "first"), ("XIV", "fourteenth")],
    "TIME": [("10:30", "ten thirty"), ("2:05 p.m.", "two o five p m")],
    "ELECTRONIC": [("google.com", "g o o g l e dot c o m"), ("http://x.org/a?b=c,d", "h t t p colon slash slash x dot o r g")],
    "DIGIT": [("007", "o o seven"), ("2", "two")],
    "FRACTION": [("1/2", "one half"), ("3 ⅝", "three and five eighths")],
    "TELEPHONE": [("0-89879-762-4", "o sil eight nine eight seven nine sil seven six two sil four")],
}


def make_raw(raw):
    tn.make_raw(raw, "en", VOCAB, seed=21)


def prepare(raw, public, private):
    tn.prepare(raw, public, private, "en")
