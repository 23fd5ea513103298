"""Short real snippets from the development data (shared/data/lid and real-sites; sources named),
and a helper that prepares a page from them the way page prep does."""
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.services.page_language import identify_page_language

# Tamara1987/tamarakrunic.github.io (Foča, Republika Srpska): ijekavian Serbian, html lang="bs".
IJEKAVIAN_SERBIAN = (
    "Postupak medijacije predstavlja jedan od alternativnih i mirnih načina rješavanja sporova, regulisan "
    "prije svega Zakonom o postupku medijacije. Zakon kao jedno od načela koja imaju primat u postupku "
    "medijacije i u skladu s kojim se tumači Zakon, navodi načelo dobrovoljnosti. Po samom jezičkom "
    "tumačenju, načelo dobrovoljnosti podrazumijeva da stranke ne mogu biti prisiljene da učestvuju.")
IJEKAVIAN_SERBIAN_CYRILLIC = (
    "Поступак медијације представља један од алтернативних и мирних начина рјешавања спорова, регулисан "
    "прије свега Законом о поступку медијације. Начело добровољности подразумијева да странке не могу "
    "бити присиљене да учествују у поступку.")
# IvanSibinovic/teatar-ulica (Serbia): ekavian Serbian, html lang="sr".
EKAVIAN_SERBIAN = (
    "Ako bih nekad morao što kraće opisati umetnost, do najsitnijih crta, toliko kratko da stane tek u "
    "jednu reč, onda bi to bila nostalgija. Nostalgija za prošlim vremenom, prošlim trenutkom, za prošlim "
    "osećanjem trenutka koje se u trenu desilo ili izrodilo.")
# CoaPro/Aleksandar: Serbian pages under a template that says lang="en" on every page.
SERBIAN_MENU_PAGE = ("Aleksandar Luković | Profil\nSRB ENG Početna Profil Fakultet Online kursevi i sertifikati "
                     "Galerija Kontakt\nStudent sam Saobraćajnog fakulteta u Beogradu, smer drumski i gradski "
                     "saobraćaj. Volim da učim nove stvari i da radim u timu.")
# Chainervk/Slavonian-trading and borna12/lzmk-demo (Croatia): Croatian.
CROATIAN = (
    "Slavonian Trading je nezavisna posrednička kompanija koja služi Vašem trgovanju žitaricama i "
    "uljaricama. Pružamo svu potrebnu logističku podršku kao i savjete za izvršenje ugovora. Poslujemo "
    "neovisno na Europskom tržištu od 2017. godine. Temeljna znanstvena i stručna djelatnost tvrtke je "
    "suradnja s obiteljskim gospodarstvima.")
CROATIAN_SHORT = "Kontakt\nPošaljite nam upit i javit ćemo vam se u najkraćem roku. Vaš Slavonian Trading tim."
ENGLISH = ("Slavonian Trading is an independent brokerage company serving your trade in grains and "
           "oilseeds. We provide all the logistic support you need, and advice on carrying out contracts.")
# dorkyWolfie/national-parks-macedonia: Macedonian; spc.rs archive: Serbian Cyrillic.
MACEDONIAN = (
    "Добредојдовте во Пелистер национален парк, светски природен резерват во срцето на Македонија. "
    "Основан во 1948 година од Народна Република Македонија, со гордост го носи името најстар "
    "национален парк во земјата.")
SERBIAN_CYRILLIC = (
    "У петак, 16. марта 2018. године, у храму Светог Николе у Добановцима, светом архијерејском "
    "Литургијом пређеосвећених дарова началствовао је Преосвећени Епископ сремски г. Василије.")
# gontech-doo/website (Podgorica): Montenegrin, index-cnr.html declares lang="sr".
MONTENEGRIN = (
    "Profesionalna IT rješenja u Crnoj Gori. Web razvoj, mobilne aplikacije, 360° snimanje i usluge "
    "digitalne transformacije. Sveobuhvatna digitalna rješenja za vaše poslovanje. Kontaktirajte nas: "
    "+382 67 123 456.")


def html_page(text: str, lang: str | None = None, head: str = "") -> str:
    lang_attr = f' lang="{lang}"' if lang else ""
    body = "".join(f"<p>{line}</p>" for line in text.split("\n"))
    return f"<!DOCTYPE html><html{lang_attr}><head><meta charset='utf-8'>{head}</head><body>{body}</body></html>"


def prepared(url: str, text: str, lang: str | None = None, head: str = ""):
    """(language, script, observation) of a page, as page prep computes them."""
    return identify_page_language(parse_html(html_page(text, lang, head), url), url)
