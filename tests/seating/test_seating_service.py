"""The mixer through the app: each round drawn from the seats stored for the earlier ones, nothing else kept."""

import pytest

from tournaments.models import Round
from tournaments.models.rounds import RoundStatus
from tournaments.services.seating import meeting_history, seat_next_round


@pytest.mark.parametrize(("players", "table_size", "rounds"), [(28, 4, 9), (21, 3, 10)])
def test_an_event_seated_round_after_round_by_the_mixer_never_repeats_a_meeting(
    make_event, django_assert_max_num_queries, players, table_size, rounds
):
    event = make_event(
        "cheese-rescue", players=players, table_size=table_size, rounds_planned=rounds, seating_method="mixer"
    )
    for number in range(1, rounds + 1):
        with django_assert_max_num_queries(12):
            round_ = seat_next_round(event)
        assert round_.number == number
        assert round_.seating_method == ("random" if number == 1 else "mixer")
        assert round_.seating_quality["repeats_total"] == 0
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.COMPLETE)
    history, positions = meeting_history(event)
    assert len(history) == rounds * players * (table_size - 1) // 2
    assert set(history.values()) == {1}
    assert all(sum(counts.values()) == rounds for counts in positions.values())
