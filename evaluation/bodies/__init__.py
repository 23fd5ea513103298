"""How two page bodies compare, pure (no Django): the pairing filter's body check and the pair
classifier's body features read them.

- lexicon.py             a bilingual dictionary: how much of one body the other translates
- alignment.py           lines aligned in order with the dictionary
- sentence_alignment.py  paragraphs' sentences aligned (length-based, with the dictionary)
- page_body.py           what a page says beyond its site's template (SiteLines)
"""
