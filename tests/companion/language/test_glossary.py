"""Every catalogue keeps to its language's glossary (docs/languages.md, "Glossary").

For each language: no other word for a glossary concept (a list of banned
synonyms per concept), one form of address (German *du*, French *tu*, Spanish
*tú*), no adjective agreeing with a player whose gender the sentence cannot
know (fr "Tu es sûr ?", es "¿Estás seguro?"), and a message that names a
concept in English names it with the glossary's word (unless the translation
keeps the English word itself: a record's keyword such as ``snoop:``).
Placeholders, the command and its options, and paths are taken out of a
translation before it is read, so a name never counts as a word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.language.areas import AREAS
from companion.language.catalogues import ROOT

TRANSLATED = ("de", "fr", "es")


@dataclass(frozen=True)
class Rule:
    """A concept's banned wording: ``pattern`` must not match a translation (after placeholders are removed)."""

    concept: str
    pattern: str


# Other words for a glossary concept. Card names (Musikzimmer, Salle de bal, Sala de billar, Sala) are names,
# not the room word, so the patterns leave them alone.
BANNED: dict[str, tuple[Rule, ...]] = {
    "de": (
        Rule("suggestion: Verdacht", r"Verdächtigung|\bVermutung"),
        Rule("accusation: Anklage", r"[Bb]eschuldig"),
        Rule("snoop: Spionagefeld, spionieren", r"[Ss]chnüffel|[Ss]päh|erspäh|\bSpitzel"),
        Rule("host: Gastgeber", r"Spielleit|\bHost\b|Host-|-Host\b"),
        Rule("companion: Begleiter", r"\bCompanion\b"),
        Rule("room: Raum", r"\bZimmer[ns]?\b"),
        Rule("game: Spiel", r"\bPartie"),
        Rule("reader: Leser", r"\bPad\b|-Pad\b|Lesefeld"),
    ),
    "fr": (
        Rule("suggestion: hypothèse", r"(?i)\bsuggestion|\bsugg[éè]r|\bsuppos"),
        Rule("suggestion answered: montrer/réfuter", r"(?i)\brépondue"),
        Rule("snoop: espionner", r"(?i)\bfouin"),
        Rule("host: hôte", r"(?i)\banimateur|\borganisat|\bhost\b"),
        Rule("companion: compagnon", r"(?i)\bcompanion\b"),
        Rule("room: pièce", r"(?i)\bsalles?\b(?! (?:de bal|à manger|de billard))"),
        Rule("notebook: bloc-notes", r"(?i)\bcarnet"),
        Rule("reader: lecteur", r"(?i)\btapis\b"),
        Rule("no adjective agreeing with the player", r"(?i)\b(?:tu es|es-tu)\s+(?:sûr|certain|éliminé|entré|sorti|"
                                                       r"prêt|assis|connecté|seul|arrivé)\b"),
    ),
    "es": (
        Rule("suggestion: sospecha", r"(?i)\bsugerenci|\bsuger[iíí]|\bsugier"),
        Rule("room: habitación", r"\bsalas?\b(?! de billar)|\bSalas\b|\bcuartos?\b"),
        Rule("snoop: espiar", r"(?i)\bfisgon"),
        Rule("host: anfitrión", r"(?i)\borganizador|\bhost\b"),
        Rule("companion: compañero", r"(?i)\bcompanion\b"),
        Rule("seat: puesto", r"(?i)\basientos?\b"),
        Rule("no adjective agreeing with the player", r"(?i)\b(?:estás|eres)\s+(?:seguro|eliminado|listo|sentado|"
                                                       r"unido|solo)\b"),
    ),
}

# Nouns that end like a vosotros imperative (-ad/-ed/-id).
_NOT_IMPERATIVES = {"red", "pared", "sed", "usted", "huésped", "césped", "madrid", "id", "ad", "ed", "vid", "lid",
                    "david", "cid"}


def _vosotros(text: str) -> list[str]:
    """Vosotros (and usted) forms in a Spanish translation."""
    found = re.findall(r"(?i)\b(?:vuestr[oa]s?|os|sois|usted(?:es)?)\b|\b\w+(?:áis|éis)\b", text)
    for word in re.findall(r"\b\w+(?:ad|ed|id)\b", text):
        lower = word.lower()
        if lower in _NOT_IMPERATIVES or lower.endswith(("dad", "tad")):
            continue
        found.append(word)
    return found


def _vous(text: str) -> list[str]:
    """Vous forms in a French translation: the pronoun, its possessives, and -ez imperatives or verbs."""
    found = re.findall(r"(?i)\b(?:vous|votre|vos)\b", text)
    found += [word for word in re.findall(r"\b\w+ez\b", text) if word.lower() not in {"chez", "assez", "nez"}]
    return found


def _sie(text: str) -> list[str]:
    """Formal Sie (capitalised where no sentence starts) and plural ihr/euch in a German translation."""
    formal = r"(?<![.!?:;\n—–-]\s)(?<!^)(?<!\()\b(Sie|Ihnen|Ihre[mnrs]?|Ihr)\b"
    found = [match.group(1) for match in re.finditer(formal, text)]
    found += re.findall(r"\b(?:euch|eure[mnrs]?)\b", text)
    return found


ADDRESS = {"de": _sie, "fr": _vous, "es": _vosotros}

# What a message that names a concept in English must say: (English pattern, the glossary's word as a pattern).
SUGGESTS = r"(?i)(?<!answers )(?<!answer )suggest"  # "answers suggestions" may be said as "shows cards"
REQUIRED: dict[str, tuple[tuple[str, str], ...]] = {
    "de": ((SUGGESTS, r"Verdacht|[Vv]erdächtig"), (r"(?i)\baccus", r"(?i)anklag|angeklagt|\bklag"),
           (r"(?i)\bsnoop", r"(?i)spion"), (r"(?i)secret passage", r"Geheimg")),
    "fr": ((SUGGESTS, r"(?i)hypoth"), (r"(?i)\baccus", r"(?i)accus"),
           (r"(?i)\bsnoop", r"(?i)espion"), (r"(?i)secret passage", r"(?i)passage")),
    "es": ((SUGGESTS, r"(?i)sospech"), (r"(?i)\baccus", r"(?i)acus"),
           (r"(?i)\bsnoop", r"(?i)esp[ií]"), (r"(?i)secret passage", r"(?i)pasadizo")),
}


# French "de" before a person's name would need "d'" before a vowel (Amy, Howard): say it another way, or use
# the name's own form ("{seat:de}", companion/language/grammar.py).
FRENCH_DE = r"\bde \{(?:seat|name|suspect|asked|current|other|who|owner|first|chosen|claimed|target|piece)[}!]"


def _plain(text: str) -> str:
    """``text`` without its placeholders, commands, paths and options: what is left is the language's own words."""
    return re.sub(r"\{[^{}]*\}|clue-companion(?: [a-z][a-z-]*)?|(?<![\w.])/[\w/.-]+|--[\w-]+", " ", text)


def entries(path: Path, language: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of every translated message in one catalogue (a plural's forms joined)."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    found = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.append((" | ".join(str(i) for i in ids), " | ".join(str(s) for s in strings)))
    return found


def findings(language: str, messages: list[tuple[str, str]]) -> list[str]:
    """Every place ``messages`` leave ``language``'s glossary, one line each."""
    found = []
    for message_id, text in messages:
        plain = _plain(text)
        for rule in BANNED[language]:
            match = re.search(rule.pattern, plain)
            if match:
                found.append(f"[{rule.concept}] {match.group(0)!r} in {text!r}")
        if language == "fr" and re.search(FRENCH_DE, text):
            found.append(f"[de before a name] in {text!r}")
        english = set(re.findall(r"\w+", message_id.lower()))  # a keyword or field kept as in English ("seed")
        address = [word for word in ADDRESS[language](plain) if word.lower() not in english]
        if address:
            found.append(f"[address] {', '.join(address)!r} in {text!r}")
        for concept_pattern, wanted in REQUIRED[language]:
            concept = re.search(concept_pattern, _plain(message_id))
            if concept and not re.search(wanted, plain) and concept.group(0).lower() not in plain.lower():
                found.append(f"[{concept_pattern} -> {wanted}] missing in {text!r} (for {message_id!r})")
    return found


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("area", [area.name for area in AREAS])
def test_the_catalogue_keeps_to_the_glossary(area: str, language: str) -> None:
    path = ROOT / language / "LC_MESSAGES" / f"{area}.po"
    found = findings(language, entries(path, language))
    assert not found, f"{path.relative_to(ROOT.parent.parent)}: {len(found)} departures from the glossary " \
                      f"(docs/languages.md, Glossary):\n" + "\n".join(found[:60])


@pytest.mark.parametrize(("language", "message_id", "text"), [
    ("de", "Suggestion by {seat}", "Verdächtigung von {seat}"),
    ("de", "Snoop", "Spähen"),
    ("de", "Open the host page", "Öffnen Sie die Host-Seite"),
    ("de", "Your turn now", "Jetzt sind Sie am Zug"),
    ("de", "Show them your card", "Zeigen Sie Ihre Karte"),
    ("fr", "Suggest {suspect}", "Supposer {suspect}"),
    ("fr", "Roll the dice", "Lancez les dés"),
    ("fr", "Your cards", "Vos cartes"),
    ("fr", "{seat}'s turn", "Au tour de {seat}"),
    ("fr", "Are you sure?", "Tu es sûr ?"),
    ("es", "Are you sure?", "¿Estás seguro?"),
    ("es", "Correct the board", "Corregid el tablero"),
    ("es", "Your cards", "Vuestras cartas"),
    ("es", "Suggestion", "Sugerencia"),
    ("es", "in the room {room}", "en la sala {room}"),
    ("es", "Make a suggestion", "Haz una pregunta"),
])
def test_a_departure_is_caught(language: str, message_id: str, text: str) -> None:
    assert findings(language, [(message_id, text)])


@pytest.mark.parametrize(("language", "message_id", "text"), [
    ("de", "Suggestion by {seat}", "Verdacht von {seat}"),
    ("de", "{seat} is out. They still show cards.", "{seat} ist ausgeschieden. Sie zeigt weiter Karten."),
    ("de", "Run clue-companion host-login", "Führe clue-companion host-login aus"),
    ("fr", "Suggest {suspect}", "Hypothèse : {suspect}"),
    ("fr", "Roll the dice at {place}", "Lance les dés chez {place}"),
    ("fr", "Ballroom", "Salle de bal"),
    ("es", "Correct the board", "Corrige el tablero"),
    ("es", "Lounge and Billiard Room", "Sala y Sala de billar"),
    ("es", "Is it true?", "¿Es verdad? Revisa la red y la pared."),
])
def test_glossary_words_pass(language: str, message_id: str, text: str) -> None:
    assert findings(language, [(message_id, text)]) == []
