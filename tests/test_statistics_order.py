"""The statistics page's leaders: tied players in alphabetical order, accents where the alphabet puts them."""

from tournaments.services.statistics import Movement


def test_tied_leaders_are_listed_in_alphabetical_order_with_accented_names_in_place():
    names = {1: "Zoe", 2: "Íñigo", 3: "Łukasz", 4: "Ólafur", 5: "Anna"}
    movement = Movement(rounds=[1], names=names, ranks={player: [1] for player in names})
    assert [names[p] for p in movement.leaders(5)] == ["Anna", "Íñigo", "Łukasz", "Ólafur", "Zoe"]
