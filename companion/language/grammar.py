"""How a sentence takes a name: its article, its gender, a preposition joined to it.

A translated template names a card or a seat with a placeholder and, after a
colon, what the sentence needs of it (docs/languages.md, "How sentences take
names")::

    {seat}               the name as printed:             Señorita Amapola
    {seat:the}           with its article, in a sentence: la señorita Amapola
    {seat:The}           the same, starting a sentence:   La señorita Amapola
    {suspect:de}         a preposition joined to it:      del coronel Rubio (de + el), du colonel Moutarde
    {room:en}            any other preposition:           en el comedor; German: {room:in} im Salon,
                         {room:ins} in den Salon (where to: the accusative)
    {seat:eliminado|eliminada}   words agreeing with its gender: masculine|feminine[|plural]
    acusa{seat:||n}      an ending agreeing with it (acusa, acusan for "Amy & Rory")

German persons take no article ("Fräulein Ming", "mit Oberst Gatow"); German
things take theirs in the case the preposition asks for ("mit dem Seil", "in
der Küche", "im Salon"); ``{x:acc}`` and ``{x:dat}`` give the accusative and
the dative alone. A name this module does not know (a house name) stands
without an article and agrees as masculine, unless it is a person it knows.

>>> f"{name('es', 'Coronel Rubio'):de}", f"{name('es', 'Señorita Amapola'):The}", f"{name('es', 'Comedor'):en}"
('del coronel Rubio', 'La señorita Amapola', 'en el comedor')
>>> f"{name('fr', 'Colonel Moutarde'):de}", f"{name('fr', 'Salle de bal'):à}", f"{name('fr', 'Evelyn Rose'):de}"
('du colonel Moutarde', 'à la salle de bal', "d'Evelyn Rose")
>>> f"{name('de', 'Seil'):mit}", f"{name('de', 'Salon'):in}", f"{name('de', 'Veranda'):in}", f"{name('de', 'Dolch'):acc}"
('mit dem Seil', 'im Salon', 'auf der Veranda', 'den Dolch')
>>> f"{name('de', 'Salon'):ins}", f"{name('de', 'Speisezimmer'):ins}", f"{name('de', 'Küche'):ins}"
('in den Salon', 'ins Speisezimmer', 'in die Küche')
>>> f"{name('fr', 'Madame Leblanc'):éliminé|éliminée}", f"{name('es', 'Onkel Fritz'):de}"
('éliminée', 'de Onkel Fritz')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Self

Form = tuple[str, str]  # the name with its article (as inside a sentence), and its gender: "m", "f", "n" or "pl"

# Spanish: every card with its article; a title is lower case inside a sentence ("la señorita Amapola").
ES: dict[str, Form] = {
    "Señorita Amapola": ("la señorita Amapola", "f"), "Coronel Rubio": ("el coronel Rubio", "m"),
    "Señora Blanco": ("la señora Blanco", "f"), "Padre Prado": ("el padre Prado", "m"),
    "Capitano Azurro": ("el capitano Azurro", "m"), "Dr. Mandarino": ("el Dr. Mandarino", "m"),
    "Señora Celeste": ("la señora Celeste", "f"), "Profesor Mora": ("el profesor Mora", "m"),
    "Candelabro": ("el candelabro", "m"), "Puñal": ("el puñal", "m"), "Tubería": ("la tubería", "f"),
    "Pistola": ("la pistola", "f"), "Soga": ("la soga", "f"), "Llave inglesa": ("la llave inglesa", "f"),
    "Cocina": ("la cocina", "f"), "Salón de baile": ("el salón de baile", "m"),
    "Invernadero": ("el invernadero", "m"), "Comedor": ("el comedor", "m"),
    "Sala de billar": ("la sala de billar", "f"), "Salón de billar": ("el salón de billar", "m"),
    "Biblioteca": ("la biblioteca", "f"), "Sala": ("la sala", "f"), "Vestíbulo": ("el vestíbulo", "m"),
    "Estudio": ("el estudio", "m"),
}
# French: Madame and Mademoiselle take no article; a colonel, a doctor, a professor do.
FR: dict[str, Form] = {
    "Mademoiselle Rose": ("Mademoiselle Rose", "f"), "Colonel Moutarde": ("le colonel Moutarde", "m"),
    "Madame Leblanc": ("Madame Leblanc", "f"), "Docteur Olive": ("le docteur Olive", "m"),
    "Révérend Olive": ("le révérend Olive", "m"), "Madame Pervenche": ("Madame Pervenche", "f"),
    "Professeur Violet": ("le professeur Violet", "m"), "Evelyn Rose": ("Evelyn Rose", "f"),
    "Madame Curry": ("Madame Curry", "f"), "Docteur Dunkel": ("le docteur Dunkel", "m"),
    "Chandelier": ("le chandelier", "m"), "Poignard": ("le poignard", "m"), "Matraque": ("la matraque", "f"),
    "Revolver": ("le revolver", "m"), "Corde": ("la corde", "f"), "Clé anglaise": ("la clé anglaise", "f"),
    "Cuisine": ("la cuisine", "f"), "Salle de bal": ("la salle de bal", "f"), "Véranda": ("la véranda", "f"),
    "Salle à manger": ("la salle à manger", "f"), "Salle de billard": ("la salle de billard", "f"),
    "Bibliothèque": ("la bibliothèque", "f"), "Salon": ("le salon", "m"), "Hall": ("le hall", "m"),
    "Bureau": ("le bureau", "m"),
}
# German: persons stand without an article (a title is enough); things with theirs, in the nominative.
DE: dict[str, Form] = {
    "Fräulein Ming": ("Fräulein Ming", "f"), "Oberst Gatow": ("Oberst Gatow", "m"),
    "Frau Weiß": ("Frau Weiß", "f"), "Frau Weiss": ("Frau Weiss", "f"), "Direktor Grün": ("Direktor Grün", "m"),
    "Baronin von Porz": ("Baronin von Porz", "f"), "Professor Bloom": ("Professor Bloom", "m"),
    "Fräulein Gloria": ("Fräulein Gloria", "f"), "Oberst von Gatow": ("Oberst von Gatow", "m"),
    "Reverend Grün": ("Reverend Grün", "m"), "Evelyn Rose": ("Evelyn Rose", "f"),
    "Madame Curry": ("Madame Curry", "f"), "Docteur Dunkel": ("Docteur Dunkel", "m"),
    "Leuchter": ("der Leuchter", "m"), "Dolch": ("der Dolch", "m"), "Heizungsrohr": ("das Heizungsrohr", "n"),
    "Pistole": ("die Pistole", "f"), "Seil": ("das Seil", "n"), "Rohrzange": ("die Rohrzange", "f"),
    "Küche": ("die Küche", "f"), "Musikzimmer": ("das Musikzimmer", "n"), "Veranda": ("die Veranda", "f"),
    "Speisezimmer": ("das Speisezimmer", "n"), "Billardzimmer": ("das Billardzimmer", "n"),
    "Bibliothek": ("die Bibliothek", "f"), "Salon": ("der Salon", "m"),
    "Eingangshalle": ("die Eingangshalle", "f"), "Arbeitszimmer": ("das Arbeitszimmer", "n"),
}
# A phrase a rule would get wrong: one is "auf der Veranda", not "in der Veranda".
IDIOMS: dict[str, dict[tuple[str, str], str]] = {
    "de": {("Veranda", "in"): "auf der Veranda", ("Veranda", "In"): "Auf der Veranda",
           ("Veranda", "ins"): "auf die Veranda", ("Veranda", "Ins"): "Auf die Veranda"},
}
FORMS: dict[str, dict[str, Form]] = {"es": ES, "fr": FR, "de": DE}
# The persons of every bundled edition, whose names no locale changes: their gender, for agreement.
PEOPLE: dict[str, str] = {
    "Miss Scarlet": "f", "Colonel Mustard": "m", "Mrs. White": "f", "Mr. Green": "m", "Mrs. Peacock": "f",
    "Professor Plum": "m", "Sergeant Gray": "m", "Madame Rose": "f", "Monsieur Brunette": "m", "Miss Peach": "f",
    "Penny": "f", "Raj": "m", "Leonard": "m", "Howard": "m", "Bernadette": "f", "Amy": "f",
    "Clara Oswald": "f", "Strax": "m", "Jenny": "f", "Madame Vastra": "f", "River Song": "f", "Amy & Rory": "pl",
}
# Article + preposition written as one word.
CONTRACTIONS: dict[str, dict[tuple[str, str], str]] = {
    "es": {("de", "el"): "del", ("a", "el"): "al"},
    "fr": {("de", "le"): "du", ("à", "le"): "au", ("de", "les"): "des", ("à", "les"): "aux"},
    "de": {("in", "dem"): "im", ("an", "dem"): "am", ("von", "dem"): "vom", ("zu", "dem"): "zum",
           ("zu", "der"): "zur", ("bei", "dem"): "beim", ("in", "das"): "ins"},
}
GERMAN_DATIVE = {"m": "dem", "n": "dem", "f": "der", "pl": "den"}
GERMAN_ACCUSATIVE = {"m": "den", "n": "das", "f": "die", "pl": "die"}
GERMAN_ARTICLES = ("der ", "die ", "das ")
GERMAN_WITH_ACCUSATIVE = ("acc", "ins", "für", "durch", "gegen", "ohne", "um")
# German "in" asks for the dative where something is ({room:in}: im Salon) and the accusative where it
# goes ({room:ins}: in den Salon, ins Speisezimmer).
GERMAN_PREPOSITIONS = {"ins": "in"}


class Name(str):
    """A name that a template can ask for its article, a preposition joined to it or its gender."""

    language: str
    form: str
    gender: str

    def __new__(cls, text: str, language: str = "en", form: str | None = None, gender: str = "m") -> Self:
        made = super().__new__(cls, text)
        made.language, made.form, made.gender = language, form or text, gender
        return made

    def __format__(self, spec: str) -> str:
        if "|" not in spec and (not spec or not spec[0].isalpha() or spec == "s"):  # "", ">12", "s": Python's
            return str.__format__(str(self), spec)
        if "|" in spec:  # "éliminé|éliminée", or endings: "sospecha{seat:||n}"
            choices = spec.split("|")
            index = {"f": 1, "pl": 2}.get(self.gender, 0)
            return choices[index] if index < len(choices) else choices[min(1, len(choices) - 1)]
        idiom = IDIOMS.get(self.language, {}).get((str(self), spec))
        if idiom is not None:
            return idiom
        said = self._with(spec.casefold())
        return said[:1].upper() + said[1:] if spec[:1].isupper() else said

    def _with(self, word: str) -> str:
        """The name after ``word``: "the" (its article), "acc"/"dat" (German cases) or a preposition."""
        form = self._german(word) if self.language == "de" else self.form
        if word in ("the", "acc", "dat"):
            return form
        if self.language == "de":
            word = GERMAN_PREPOSITIONS.get(word, word)
        article, _, rest = form.partition(" ")
        joined = CONTRACTIONS.get(self.language, {}).get((word, article))
        if joined is not None and rest:
            return f"{joined} {rest}"
        if self.language == "fr" and word == "de" and form[:1].casefold() in "aeiouéèêh":
            return f"d'{form}"
        return f"{word} {form}"

    def _german(self, word: str) -> str:
        if not self.form.startswith(GERMAN_ARTICLES) or word == "the":
            return self.form
        table = GERMAN_ACCUSATIVE if word in GERMAN_WITH_ACCUSATIVE else GERMAN_DATIVE
        return f"{table.get(self.gender, 'dem')} {self.form.split(' ', 1)[1]}"


def name(language: str, text: str) -> Name:
    """``text`` (a card or seat as shown) as a :class:`Name` of ``language``."""
    form, gender = FORMS.get(language, {}).get(text, (text, PEOPLE.get(text, "m")))
    return Name(text, language, form, gender)


def named(language: str, values: Mapping[str, Any], fields: tuple[str, ...] | None = None) -> dict[str, Any]:
    """``values`` with each string (or each of ``fields``) made a :class:`Name`, for a template's placeholders;
    a :class:`Name` already made (a place with its own form: "la casilla h24") stays as it is."""
    return {key: name(language, value) if isinstance(value, str) and not isinstance(value, Name)
            and (fields is None or key in fields) else value for key, value in values.items()}


ARTICLE_GENDERS: dict[str, dict[str, str]] = {
    "es": {"el": "m", "la": "f", "los": "pl", "las": "pl"},
    "fr": {"le": "m", "la": "f", "les": "pl"},
    "de": {"der": "m", "die": "f", "das": "n"},
}


def gender_of(language: str, form: str) -> str:
    """The gender a form's article shows ("la casilla h7": "f"); "m" when it has none.

    >>> gender_of("de", "das Feld h7"), gender_of("fr", "la case h7"), gender_of("es", "h7")
    ('n', 'f', 'm')
    """
    return ARTICLE_GENDERS.get(language, {}).get(form.split(" ", 1)[0].casefold(), "m")


SPEC = re.compile(r"\{\w+(?:![rs])?:([^{}]+)\}")
UNKNOWN = "%s"  # where an unknown name goes in page_forms' "unknown" patterns


def page_forms(language: str, texts: Iterable[str]) -> dict[str, Any]:
    """What a page script needs to word names as :class:`Name` does in ``texts`` (translated messages).

    ``forms``: each name this module knows in ``language``, in every form the texts ask for, choices of
    words by its gender included (``{"Señorita Amapola": {"de": "de la señorita Amapola", "||n": ""}}``);
    ``unknown``: the same for a name it does not know (a house name), with :data:`UNKNOWN` where the name
    goes. Worded here, so the script holds no grammar.

    >>> page_forms("es", ["Sospecha {seat:de}"])["forms"]["Coronel Rubio"], page_forms("es", ["{seat:de}"])["unknown"]
    ({'de': 'del coronel Rubio'}, {'de': 'de %s'})
    >>> page_forms("fr", ["{seat:éliminé|éliminée}"])["forms"]["Madame Leblanc"]
    {'éliminé|éliminée': 'éliminée'}
    """
    specs = sorted({spec for text in texts for spec in SPEC.findall(text)
                    if "|" in spec or (spec[:1].isalpha() and spec != "s")})
    if language not in FORMS or not specs:
        return {"forms": {}, "unknown": {}}
    marker = "\x00"
    return {"forms": {text: {spec: format(name(language, text), spec) for spec in specs}
                      for text in sorted(set(FORMS[language]) | set(PEOPLE))},
            "unknown": {spec: format(Name(marker, language), spec).replace(marker, UNKNOWN) for spec in specs}}
