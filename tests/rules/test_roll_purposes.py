"""A roll's purpose reads in the page's language: the engine names it in English (``critical
hit``, ``rare items: Ulf``, ``i test``); ``rules.presenters.roll_purpose`` puts it in words, and
every engine message that carries a purpose (the given dice ran out…) shows it so."""

import pytest
from django.utils import translation

from rules.engine import Dice, DiceError
from rules.presenters import ROLL_PURPOSES, roll_purpose, translate_message


@pytest.mark.parametrize(
    ("purpose", "spanish"),
    [
        ("critical hit", "impacto crítico"),
        ("to hit", "para impactar"),
        ("rout test", "chequeo de retirada"),
        ("rare items: Ulf", "objetos raros: Ulf"),
        ("strike order: Beren", "orden de ataque: Beren"),
        ("price of espada", "precio"),
        ("i test", "chequeo de I"),
        ("a purpose the caller wrote", "a purpose the caller wrote"),
    ],
)
def test_a_purpose_reads_in_spanish(purpose, spanish):
    with translation.override("es"):
        assert roll_purpose(purpose) == spanish


def test_every_purpose_the_engine_names_has_spanish_words():
    with translation.override("es"):
        untranslated = [key for key, words in ROLL_PURPOSES.items() if str(words) == key]
    assert untranslated == []


def test_the_dice_that_ran_out_name_their_purpose_in_the_page_language():
    dice = Dice(faces=[5])
    dice.d6("to hit")
    with pytest.raises(DiceError) as caught:
        dice.d6("critical hit")
    error = caught.value
    with translation.override("es"):
        text = translate_message(error.template, error.params)
    assert "impacto crítico" in text and "critical hit" not in text
