"""Pages in scripts that name their language (writing_systems.py) are that language, short or long,
with or without English words around them; Cyrillic and Latin languages answer as before."""
import pytest

from crawlweb.language.identify import identify_language
from crawlweb.language.writing_systems import script_language, writing_system

# A few sentences each, written for these tests (a city, its visitors).
SENTENCES = {
    "ja": "東京は日本の首都です。毎年多くの観光客が訪れ、古い寺院と新しい建物が並んでいます。",
    "zh": "北京是中国的首都，也是一座有三千多年历史的城市。每年都有很多游客来这里参观故宫和长城。",
    "ko": "서울은 대한민국의 수도이며 한강을 따라 펼쳐진 큰 도시입니다. 매년 많은 관광객이 이곳을 방문합니다.",
    "el": "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου.",
    "he": "ירושלים היא עיר עתיקה שבה חיים אנשים רבים. בכל שנה מגיעים אליה מבקרים מכל העולם.",
    "ar": "القاهرة هي عاصمة مصر وأكبر مدنها. يزورها كل عام عدد كبير من السياح لمشاهدة الأهرامات.",
    "fa": "تهران پایتخت ایران و بزرگترین شهر این کشور است. هر سال گردشگران زیادی از این شهر دیدن می‌کنند.",
    "ur": "لاہور پاکستان کا ایک بڑا شہر ہے۔ ہر سال بہت سے سیاح یہاں کی تاریخی عمارتیں دیکھنے آتے ہیں۔",
    "th": "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย ทุกปีมีนักท่องเที่ยวจำนวนมากมาเยี่ยมชมวัดและตลาดน้ำ",
    "ka": "თბილისი საქართველოს დედაქალაქია და ქვეყნის უდიდესი ქალაქია.",
    "hy": "Երևանը Հայաստանի մայրաքաղաքն է և երկրի ամենամեծ քաղաքը։",
    "hi": "दिल्ली भारत की राजधानी है और यहाँ हर साल बहुत से पर्यटक आते हैं।",
}
# A menu item or a heading: too short for any word-based identifier, enough for the script.
SHORT = {"ja": "お問い合わせ", "zh": "联系我们", "ko": "문의하기", "el": "Επικοινωνία", "he": "צור קשר",
         "ar": "اتصل بنا", "th": "ติดต่อเรา"}
ENGLISH_MENUS = ("Home About us Products News Careers Contact English Privacy policy Terms of use "
                 "Copyright 2024 Example Corporation. All rights reserved.")


@pytest.mark.parametrize("lang", sorted(SENTENCES))
def test_a_few_sentences_in_a_script_of_its_own_are_their_language(lang):
    guess = identify_language(SENTENCES[lang])
    assert guess.lang == lang
    assert guess.tag == lang and guess.confidence > 0.9


@pytest.mark.parametrize("lang", sorted(SHORT))
def test_a_short_page_is_its_scripts_language_not_und(lang):
    assert identify_language(SHORT[lang]).lang == lang


@pytest.mark.parametrize("lang", ["ja", "zh", "ko"])
def test_an_east_asian_body_outweighs_more_english_letters_around_it(lang):
    body = SENTENCES[lang] * 2  # a paragraph
    text = f"{ENGLISH_MENUS}\n{body}"
    latin_letters = sum(c.isascii() and c.isalpha() for c in text)
    assert latin_letters > sum(c.isalpha() for c in body)  # more Latin letters than the body has characters
    assert identify_language(text).lang == lang


def test_kana_makes_japanese_and_a_stray_kana_in_chinese_text_does_not():
    assert identify_language("東京の天気").lang == "ja"
    chinese = SENTENCES["zh"] * 3 + "の"
    assert identify_language(chinese).lang == "zh"


def test_kanji_only_japanese_is_japanese_when_declared_or_when_its_words_are_japanese():
    assert identify_language("会社概要", html_lang="ja").lang == "ja"
    assert identify_language("会社概要").lang == "ja"   # 会社, not the Chinese 公司
    assert identify_language("公司简介").lang == "zh"


def test_persian_and_urdu_are_told_from_arabic_by_their_letters():
    system = writing_system(SENTENCES["fa"])
    assert script_language(system, {}, {})[0] == "fa"
    assert script_language(writing_system(SENTENCES["ur"]), {}, {})[0] == "ur"
    assert script_language(writing_system(SENTENCES["ar"]), {}, {})[0] == "ar"


def test_an_arabic_script_text_without_telling_letters_takes_a_declared_persian():
    assert identify_language(SHORT["ar"], html_lang="fa").lang == "fa"
    assert identify_language(SHORT["ar"]).lang == "ar"


def test_a_greek_letter_in_an_english_page_is_no_greek_page():
    text = "The resistance is 100 Ω and the angle α is measured in degrees from the base line."
    assert identify_language(text).lang == "en"


def test_digits_and_punctuation_of_a_script_are_no_letters():
    assert identify_language("١٢٣٤٥٦ ، ؟ ٧٨٩").lang == "und"
    assert identify_language("12345 !!! 678 电话").lang == "und"


@pytest.mark.parametrize("lang,text", [
    ("ru", "Москва является столицей России и крупнейшим городом страны."),
    ("uk", "Київ є столицею України і найбільшим містом країни."),
    ("bg", "София е столицата на България и най-големият град в страната."),
    ("mk", "Скопје е главен град на Македонија и најголем град во државата."),
])
def test_cyrillic_languages_other_than_serbian_still_answer(lang, text):
    guess = identify_language(text)
    assert guess.lang == lang and guess.script == "Cyrl"


def test_the_evidence_names_the_scripts_counted():
    guess = identify_language(SENTENCES["th"])
    assert guess.evidence["writing_system"]["dominant"] == "Thai"
    assert guess.evidence["decision"] == "Thai letters"
