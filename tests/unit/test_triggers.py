"""Fiction to move suggestions: English (lemmas, contractions, negation, people, questions),
the matcher learned from content, "no move", the words shown, alike examples."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.content.loader import Pack, load_pack
from engine.content.schema import Move
from engine.nlp.english import lemma, tokens, words
from engine.nlp.lexicon import Lexicon
from engine.triggers import (
    NO_MOVE_NAME,
    Matcher,
    alike_examples,
    matcher_for,
    name_variants,
    people_named,
)


@pytest.mark.parametrize(("word", "expected"), [
    ("punches", "punch"), ("punched", "punch"), ("hiding", "hide"), ("hid", "hide"),
    ("felt", "feel"), ("studies", "study"), ("wolves", "wolf"), ("lying", "lie"),
    ("ran", "run"), ("knocked", "knock"), ("flared", "flare"), ("children", "child"),
    ("is", "be"), ("were", "be"), ("did", "do"),
    ("Grabbign", "grabbign"),  # no dictionary knows it: kept as typed (lower case)
])
def test_lemma_is_a_dictionary_lemma_not_a_trimmed_suffix(word: str, expected: str) -> None:
    assert lemma(word) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I don't hit him", ["I", "do", "not", "hit", "him"]),
    ("I'm here, can't stay", ["I", "am", "here", ",", "can", "not", "stay"]),
    ("he's lying", ["he", "is", "lying"]),
    ("Dusk's grin", ["Dusk", "grin"]),  # a possessive, not "is"
    ("dont go", ["do", "not", "go"]),
    ("\u201cStop,\u201d I say", ['"', "Stop", ",", '"', "I", "say"]),
])
def test_words_open_contractions(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_negation_covers_its_clause_only() -> None:
    toks = tokens("I don't attack, I talk him down")
    negated = {t.lemma for t in toks if t.neg}
    assert negated == {"attack"}
    toks = tokens("I never hit him but I shout at him")
    assert {t.lemma for t in toks if t.neg} == {"hit", "PERSON"}
    assert any(t.lemma == "shout" and not t.neg for t in toks)


@pytest.mark.parametrize("text", ["is he lying to me", "Is he lying to me?",
                                  "What is she hiding", "I ask: who sent you?"])
def test_questions_are_marked(text: str) -> None:
    assert any(t.question for t in tokens(text))


def test_statements_are_not_questions() -> None:
    assert not any(t.question for t in tokens("He is lying. I know it."))


def test_people_pronouns_names_and_unknown_capitalised_words() -> None:
    toks = tokens("I study Dusk and watch her hands; Brannoc waits", [("dusk",)])
    people = [t.text for t in toks if t.person]
    assert people == ["Dusk", "her", "Brannoc"]
    # a name that is also a word counts only capitalised, unless the text is all lower case
    assert not any(t.person for t in tokens("At dusk I watch the Pier", [("dusk",)]))
    assert any(t.person for t in tokens("i study dusk", [("dusk",)]))


def test_name_variants_and_people_named() -> None:
    assert name_variants("Captain Renn Aldous") == [("captain", "renn", "aldous"), ("renn",),
                                                    ("aldous",)]
    assert name_variants('Tomasz "Tin" Wilk')[0] == ("tomasz", "tin", "wilk")
    people = [("dusk", "Dusk Meridian"), ("odile", "Odile Farrow"), ("renn", "Renn Aldous")]
    assert people_named("I ask Odile to fence it before Dusk hears", people) == ["odile", "dusk"]
    assert people_named("I read Dusk's face", people) == ["dusk"]
    assert people_named("Nobody here", people) == []


def move(id_: str, name: str, cues: list[str], examples: list[str] = ()) -> Move:  # type: ignore[assignment]
    return Move(id=id_, name=name, trigger="when it happens", cues=cues,
                examples=list(examples))


SMALL = [
    move("strike", "Strike", ["punch", "hit"], ["I slug the thug", "kick him in the ribs",
                                                "I swing my bat at the goon"]),
    move("guard", "Guard Someone", ["shield", "jump in front"],
         ["I throw myself between the kid and the car", "I cover her with my body"]),
    move("read", "Read a Person", ["read"], ["is he lying to me?", "what does she really want?",
                                             "I study his face for a tell"]),
    move("talk", "Talk Down", ["talk down", "calm"], ["I talk him down", "I calm the crowd"]),
]
PLAIN = ["I eat breakfast", "we walk home in the rain", "the sky is grey today",
         "I brush my teeth and go to bed", "I sit on the bench"]


def small(lexicon: Lexicon | None = None) -> Matcher:
    return Matcher(SMALL, {}, PLAIN, lexicon=lexicon if lexicon is not None else Lexicon())


@pytest.mark.parametrize(("text", "first"), [
    ("I punch him", "strike"),
    ("I'm punching the door down", "strike"),
    ("I slugged the goon", "strike"),  # from an example, in another tense
    ("I jump in front of the kid", "guard"),
    ("Is she lying?", "read"),  # a question about a person
    ("what is he really after", "read"),
    ("I talk her down from the ledge", "talk"),
])
def test_first_suggestion(text: str, first: str) -> None:
    assert small().suggest(text)[0].move == first


def test_negation_changes_the_move() -> None:
    got = small().suggest("I don't punch him, I talk him down")
    assert got[0].move == "talk"


def test_the_words_that_led_to_it_are_shown() -> None:
    [first, *_] = small().suggest("I slugged the goon hard")
    assert first.move == "strike"
    assert "slugged" in first.words
    d = first.to_dict()
    assert d["words"] == list(first.words) and d["move"] == "strike"
    assert d["cue"]  # the reason as one string


def test_a_cue_found_word_for_word_is_named() -> None:
    [first, *_] = small().suggest("I jump in front of the bus")
    assert first.cue == "jump in front"


def test_a_typo_is_corrected_to_a_word_the_pack_uses() -> None:
    assert small().suggest("I punhc him")[0].move == "strike"


def test_plain_description_gets_no_move_first_and_still_three_moves() -> None:
    got = small().suggest("I eat my breakfast on the bench")
    assert got[0].move is None and got[0].name == NO_MOVE_NAME
    assert [s.move for s in got[1:]] and len(got[1:]) == 3
    assert all(s.move is not None for s in got[1:])


def test_words_no_move_knows_read_as_no_move() -> None:
    got = small().suggest("Zzyzx qwv")
    assert got[0].move is None


def test_empty_text_suggests_nothing() -> None:
    assert small().suggest("") == []
    assert small().suggest("?!") == []


def test_allowed_and_limit() -> None:
    m = small()
    assert [s.move for s in m.suggest("I punch him", allowed=["guard"]) if s.move] == ["guard"]
    assert len([s for s in m.suggest("I punch him", limit=2) if s.move]) == 2


def test_a_lexicon_concept_carries_a_word_never_seen_in_the_examples() -> None:
    lexicon = Lexicon.from_groups({"strike": ["punch", "slug", "kick", "wallop", "clobber"]})
    assert small(Lexicon()).suggest("I wallop him")[0].move != "strike"
    assert small(lexicon).suggest("I wallop him")[0].move == "strike"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_a_short_deterministic_ranking(text: str) -> None:
    m = small()
    got = m.suggest(text)
    assert got == m.suggest(text)
    assert len(got) <= 4
    assert sum(s.move is None for s in got) <= 1
    assert all(0.0 <= s.score <= 1.0 for s in got)
    assert len({s.move for s in got}) == len(got)


# RULES.md A.3: fiction that fits each basic move's trigger, with the shipped Masks pack.
@pytest.mark.parametrize(("text", "expected"), [
    ("I punch the robot in the face", "directly_engage"),
    ("I charge straight at the villain", "directly_engage"),
    ("I jump in front of the bus to shield the kids", "defend_someone"),
    ("I look around and size up the battlefield", "assess_situation"),
    ("I taunt him until he loses his temper", "provoke"),
    ("I sit with her and try to comfort her", "comfort_support"),
    ("I watch his body language: is he lying?", "pierce_the_mask"),
    ("The giant's fist sends me flying and I'm slammed into a car", "take_powerful_blow"),
    ("That's not who I am, you're wrong about me", "reject_influence"),
    ("We enter battle as a team", "enter_battle"),
    ("Weeks later, after some downtime", "time_passes"),
    ("I study Dusk. What is he hiding behind that grin?", "pierce_the_mask"),
])
def test_masks_fiction_suggests_the_rules_move(masks: Pack, text: str, expected: str) -> None:
    got = matcher_for(masks).suggest(text, names=[("dusk",)])
    assert got[0].move == expected, [(s.move, s.words, s.score) for s in got]
    assert got[0].words  # the reason is shown


def test_masks_negated_attack_is_not_directly_engage(masks: Pack) -> None:
    got = matcher_for(masks).suggest("I don't attack, I talk him down")
    assert got[0].move != "directly_engage"


def test_masks_plain_fiction_is_no_move(masks: Pack) -> None:
    got = matcher_for(masks).suggest("I brush my teeth and go to bed")
    assert got[0].move is None
    assert len([s for s in got if s.move]) == 3


def test_matcher_is_built_once_per_pack_content(masks: Pack, masks_dir: Path) -> None:
    again = load_pack(masks_dir)
    assert matcher_for(masks) is matcher_for(masks)
    assert matcher_for(again) is matcher_for(masks)  # same content, same matcher


# ------------------------------------------------------------------ examples in content

def _pack_with(tmp_path: Path, masks_dir: Path, examples: str) -> Path:
    dst = tmp_path / "masks"
    shutil.copytree(masks_dir, dst)
    (dst / "examples.yaml").write_text(examples, encoding="utf-8")
    return dst


def test_examples_file_feeds_the_moves(tmp_path: Path, masks_dir: Path) -> None:
    path = _pack_with(tmp_path, masks_dir, "provoke:\n  - I flick a pebble at his nose\n"
                                           "none:\n  - I hum a tune\n")
    pack = load_pack(path)
    assert "I flick a pebble at his nose" in pack.examples_of("provoke")
    assert pack.examples["none"] == ["I hum a tune"]


def test_examples_of_an_unknown_move_are_refused_with_a_hint(tmp_path: Path,
                                                              masks_dir: Path) -> None:
    from engine.errors import ContentError

    path = _pack_with(tmp_path, masks_dir, "provok:\n  - I needle him\n")
    with pytest.raises(ContentError) as e:
        load_pack(path)
    assert any("examples.yaml:1: provok: unknown move 'provok'; did you mean 'provoke'?" in p
               for p in e.value.problems), e.value.problems


def test_examples_of_the_wrong_shape_are_refused(tmp_path: Path, masks_dir: Path) -> None:
    from engine.errors import ContentError

    path = _pack_with(tmp_path, masks_dir, "provoke: I needle him\n")
    with pytest.raises(ContentError) as e:
        load_pack(path)
    assert any("examples.yaml" in p and "provoke" in p for p in e.value.problems)


def test_alike_examples_of_two_moves_are_warned(tmp_path: Path, masks_dir: Path) -> None:
    path = _pack_with(tmp_path, masks_dir,
                      "provoke:\n  - I mock the guard about his tiny rusty sword\n"
                      "directly_engage:\n  - I mock the guard about his rusty tiny sword\n")
    warnings = alike_examples(load_pack(path))
    assert len(warnings) == 1
    assert "provoke and directly_engage" in warnings[0] or \
        "directly_engage and provoke" in warnings[0]
    assert "read alike" in warnings[0]


def test_shipped_packs_have_no_alike_examples(masks: Pack) -> None:
    assert alike_examples(masks) == []


def test_an_order_to_someone_is_a_feature_the_players_own_action_is_not() -> None:
    from engine.triggers import features

    def keys(text: str) -> set[str]:
        return {f.key for f in features(tokens(text, [("hester",)]), Lexicon())}

    assert "ORDER" in keys('"Hester, find me the minutes."')
    assert "ORDER" in keys("Hester, find me the minutes")
    assert "ORDER" in keys('"Open the gate!"')
    assert "ORDER" not in keys("grab the kid")  # the player's own action
    assert "ORDER" not in keys('"Hester, you look tired."')


def test_a_very_long_line_is_read_to_its_first_characters() -> None:
    # a 100,000-letter word used to take seconds in spelling correction (kept as a test)
    from engine.triggers import MAX_TEXT

    m = small()
    assert m.suggest("a" * 100_000) == m.suggest("a" * MAX_TEXT)
    long_typo = "punhc" + "x" * 30
    assert m.suggest(f"I {long_typo} him")[0].move != "strike"  # too long to correct


def test_validate_prints_a_warning_for_alike_examples(tmp_path: Path, masks_dir: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    from engine.cli import main

    path = _pack_with(tmp_path, masks_dir,
                      "provoke:\n  - I mock the guard about his tiny rusty sword\n"
                      "directly_engage:\n  - I mock the guard about his rusty tiny sword\n")
    assert main(["validate", str(path)]) == 0  # a warning, not an error
    out = capsys.readouterr().out
    assert "✓" in out and "⚠ examples: " in out and "read alike" in out
