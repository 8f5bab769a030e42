"""text-normalization-challenge-russian-language: synthetic raw files and upstream's preparation steps."""
import _text_normalization as tn

# (before, after) pairs per class, in the style of Kaggle's ru_train.csv: Cyrillic text, Latin words
# spelled out letter by letter with "_trans", and a few tokens pandas reads as missing values.
VOCAB = {
    "PLAIN": [("Привет", "Привет"), ("мир", "мир"), ("ёж", "ёж"), ("в", "в"), ("и", "и"), ("Ubuntu", "у_trans б_trans у_trans н_trans т_trans у_trans"),
              ("NaN", "NaN"), ("NA", "NA"), ("null", "null"), ("None", "None"), ("Ёлка", "Ёлка"), ("съезд", "съезд")],
    "PUNCT": [(".", "."), (",", ","), ("«", "«"), ("»", "»"), ("—", "—"), ('"', '"'), ("(", "(")],
    "DATE": [("1 января 2000 года", "первого января двухтысячного года"), ("1999", "тысяча девятьсот девяносто девятый")],
    "LETTERS": [("США", "с ш а"), ("РФ", "р ф")],
    "CARDINAL": [("25", "двадцать пять"), ("1 000", "одна тысяча"), ("-7", "минус семь")],
    "VERBATIM": [("№", "номер"), ("&", "&"), ("α", "альфа")],
    "DECIMAL": [("3,14", "три целых четырнадцать сотых")],
    "MEASURE": [("5 км", "пять километров"), ("10 %", "десять процентов")],
    "MONEY": [("100 руб.", "сто рублей"), ("$5", "пять долларов")],
    "ORDINAL": [("XIV", "четырнадцатого"), ("2-й", "второй")],
    "TIME": [("10:30", "десять часов тридцать минут")],
    "ELECTRONIC": [("yandex.ru", "y_trans a_trans n_trans d_trans e_trans x_trans точка r_trans u_trans")],
    "DIGIT": [("007", "ноль ноль семь")],
    "TELEPHONE": [("8-800-555", "восемь sil восемьсот sil пятьсот пятьдесят пять")],
}


def make_raw(raw):
    tn.make_raw(raw, "ru", VOCAB, seed=37)


def prepare(raw, public, private):
    tn.prepare(raw, public, private, "ru")
