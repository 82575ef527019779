"""Rules 13–16: the seeded generator, the draws, the start position."""

from __future__ import annotations

import pytest

from express import ExpressError, format_position, parse_position, start_position
from express.rng import SplitMix64
from express.rules import COLOURS, FACTORY_SPACES
from tests.express.support import SEED3, from_bag

START3 = ("Fb/X3gww/T1/Fg/T2/T2/Fn/T1/R/Fw/X2grr/Fr/X1gnr/X4nbr "
          "wnnnwgbngbnwwbbbggwngrrrgwbbnrwrb 10.08.18.12.02.07.01.09.04.17.11.14.03.15.05 "
          "A@12:-:-:06:-/A@10:-:-:13:-/A@1:-:-:16:- -/-/- -/-/- 2 1 c0 - x0.2")


def test_splitmix64_matches_the_reference_values() -> None:
    # The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
    r = SplitMix64(0)
    assert [r.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_the_notation_example_start_is_reproduced_bit_for_bit() -> None:
    assert format_position(start_position(3, SEED3)) == START3


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 99, 2**64 - 1])
def test_every_start_follows_rules_14_to_16(players: int, seed: int) -> None:
    p = start_position(players, seed)
    assert sorted(p.board[s] for s in FACTORY_SPACES) == ["Fb", "Fg", "Fn", "Fr", "Fw"]
    assert all(len(p.cars[x]) == 3 for x in ("X1", "X2", "X3", "X4"))
    assert len(p.bag) == 45 - 12
    assert all(p.shown_cars().count(c) + p.bag.count(c) == 9 for c in COLOURS)
    assert [len(o) for o in p.open] == [1] * players
    assert len(p.deck) == 18 - players
    for seat in range(1, players + 1):
        assert p.board[p.loc[seat - 1]] == f"X{seat}"
        assert p.engine[seat - 1] == 0
    assert 1 <= p.sm <= players and p.phase_token == "c0" and p.round == 1
    assert parse_position(format_position(p)) == p


def test_the_start_command_rejects_bad_numbers() -> None:
    with pytest.raises(ValueError):
        start_position(5, 1)
    with pytest.raises(ValueError):
        SplitMix64(2**64)


def test_a_start_position_parses_back_to_itself() -> None:
    assert format_position(parse_position(START3)) == START3


@pytest.mark.parametrize("change, what", [
    (("Fb/X3gww", "X3gww/Fb"), "factory"),
    (("X2grr", "X2grrw"), "more than 3"),
    (("Fr/", "Frg/"), "only a complex"),
    (("A@12:-", "A@8:-"), "refit"),
    (("-/-/- -/-/- 2", "Lo/Lo/- -/-/- 2"), "twice"),
    (("2 1 c0", "4 1 c0"), "stationmaster"),
    (("2 1 c0", "2 31 c0"), "round"),
    (("c0 -", "c0 e"), "bag is not empty"),
    (("c0 -", "c0 l"), "without e"),
    (("A@12:-:-:06:-", "A@12:-:-:06,01,02:-"), "contract"),
    (("-/-/- 2 1", "-/-/A1A2A3A1 2 1"), "twice"),
    (("x0.2", "x0.3"), "version"),
    (("x0.2", "x0.10"), "version"),
    (("x0.2", "X0.1"), "version"),
])
def test_malformed_positions_are_rejected_naming_the_fault(change: tuple[str, str],
                                                          what: str) -> None:
    text = START3.replace(*change, 1)
    assert text != START3
    with pytest.raises(ExpressError) as e:
        parse_position(text)
    assert what in str(e.value)
    assert e.value.at is None


def _with_done(cars: str) -> str:
    """START3 with seat 1's contract 06 fulfilled by these cars, taken from the bag."""
    p = parse_position(START3)
    from_bag(p, cars)
    p.open[0] = []
    p.done[0] = [("06", cars)]
    return format_position(p)


def test_a_fulfilled_contract_may_differ_by_one_car_only() -> None:
    with pytest.raises(ExpressError, match="differs from its card"):
        parse_position(_with_done("nnw"))  # 06 is rbg: two cars off
    with pytest.raises(ExpressError, match="differs from its card"):
        parse_position(_with_done("rbgn"))  # one car too many
    # One car off (the Manager's substitution) is well formed: 06 placed as rbn.
    assert "06=rbn" in format_position(parse_position(_with_done("rbn")))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_stationmaster_may_be_given_and_the_deal_stays_the_seeds(players: int
                                                                           ) -> None:
    """Setup step 9 (the start player): a tournament gives the card to seat 1."""
    drawn = start_position(players, SEED3)
    for first in range(1, players + 1):
        given = start_position(players, SEED3, first=first)
        assert given.sm == first
        assert format_position(given).split()[:-5] == format_position(drawn).split()[:-5]
    with pytest.raises(ValueError):
        start_position(players, SEED3, first=players + 1)


def test_a_game_given_its_first_stationmaster_records_its_start() -> None:
    """The seed no longer fixes the setup: the record carries the `Start` header, and it
    replays to the same game; a `first` that is the seed's own draw changes nothing."""
    from express.game import Game

    drawn = start_position(3, SEED3).sm
    other = drawn % 3 + 1
    game = Game.new(3, SEED3, first=other)
    assert game.position.sm == other and game.start.sm == other
    text = game.record()
    assert '[Start "' in text and f'[Seed "{SEED3}"]' in text
    again = Game.from_record(text)
    assert format_position(again.position) == format_position(game.position)
    assert '[Start "' not in Game.new(3, SEED3, first=drawn).record()
    assert Game.new(3, SEED3, first=drawn).record() == Game.new(3, SEED3).record()
    with pytest.raises(ExpressError):
        Game.new(3, SEED3, first=4)
