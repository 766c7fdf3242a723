"""Names in the order readers expect, whatever their accents, case or letters from other alphabets."""

from tournaments.collation import alphabetical, sort_key


def test_accented_and_special_letters_sort_beside_their_base_letters():
    names = ["Zoë Kovač", "Íñigo Peña", "Ólafur Sigurðsson", "Łukasz Wiśniewski", "Anna Bauer", "Oscar Lind"]
    assert sorted(names, key=sort_key) == [
        "Anna Bauer",
        "Íñigo Peña",
        "Łukasz Wiśniewski",
        "Ólafur Sigurðsson",
        "Oscar Lind",
        "Zoë Kovač",
    ]


def test_lower_case_particles_sort_by_letter_not_by_code_point():
    assert alphabetical(["Núria Sánchez-Vicario", "Núria de la Fuente"]) == [
        "Núria de la Fuente",
        "Núria Sánchez-Vicario",
    ]


def test_alphabetical_takes_a_key_and_keeps_exact_ties_in_a_total_order():
    rows = [("b", "Eve"), ("a", "Émile"), ("c", "eve")]
    assert [row[0] for row in alphabetical(rows, key=lambda row: row[1])] == ["a", "c", "b"]
