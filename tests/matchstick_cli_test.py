"""End-to-end tests of `levelforge solve matchstick`: the report and its art, the JSON
object field by field, the rules options, bad equations and options of the wrong kernel.

Expected solutions come from a model of the puzzle written here (every true equation of the
puzzle's shape with its stick count, the distance counted segment by segment), not from the
C++ solvers, and each solution's moved sticks are replayed on the segment patterns.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import random
import textwrap
import unittest

from cli_support import SolveTest, levelforge

# Segments a..g as bits 0..6 per digit; the operator slot's horizontal stick is bit 0, its
# vertical one bit 1 (kernels/matchstick/equation.hpp).
DIGITS = [0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F]
OPERATORS = {"+": 0x03, "-": 0x01}


def split(equation):
    """(A, op, B, C) of "A op B = C" as strings."""
    left, c = equation.split("=")
    op = "+" if "+" in left else "-"
    a, b = left.split(op)
    return a, op, b, c


def patterns(equation):
    """The pattern of each position: digits of A, the operator, digits of B, digits of C."""
    a, op, b, c = split(equation)
    return [DIGITS[int(d)] for d in a] + [OPERATORS[op]] + [DIGITS[int(d)] for d in b + c]


def sticks(cells):
    return sum(bin(cell).count("1") for cell in cells)


def holds(equation, leading_zeros):
    a, op, b, c = split(equation)
    if leading_zeros == "forbid" and any(len(n) > 1 and n[0] == "0" for n in (a, b, c)):
        return False
    return (int(a) + int(b) if op == "+" else int(a) - int(b)) == int(c)


def model_solutions(puzzle, moves=1, count="up_to", leading_zeros="allow"):
    """{equation: distance} of every solution: a true equation of the puzzle's digit counts,
    not the puzzle, with its stick count, `distance` places filled that the puzzle has
    empty, 1..moves of them (up_to) or exactly `moves` (exact)."""
    a, _, b, c = split(puzzle)
    before = patterns(puzzle)
    found = {}
    for x in range(10 ** len(a)):
        for y in range(10 ** len(b)):
            for op in "+-":
                z = x + y if op == "+" else x - y
                if not 0 <= z < 10 ** len(c):
                    continue
                equation = f"{x:0{len(a)}d}{op}{y:0{len(b)}d}={z:0{len(c)}d}"
                if equation == puzzle or not holds(equation, leading_zeros):
                    continue
                after = patterns(equation)
                if sticks(after) != sticks(before):
                    continue
                distance = sum(bin(n & ~p).count("1") for n, p in zip(after, before))
                if (1 <= distance <= moves) if count == "up_to" else distance == moves:
                    found[equation] = distance
    return found


def bit(place, operator_position):
    """(position, bit) of a place name "P.S"."""
    position, segment = place.split(".")
    position = int(position)
    if position == operator_position:
        return position, "hv".index(segment)
    return position, "abcdefg".index(segment)


def replay(puzzle, moved):
    """The patterns after moving the sticks `moved` ("P.S>Q.T ...") in `puzzle`; every move
    must take a stick that is there to a place that is empty."""
    cells = patterns(puzzle)
    operator_position = len(split(puzzle)[0])
    for pair in moved.split(" "):
        source, destination = (bit(place, operator_position) for place in pair.split(">"))
        assert cells[source[0]] >> source[1] & 1, f"{pair}: no stick at the source"
        cells[source[0]] &= ~(1 << source[1])
        assert not cells[destination[0]] >> destination[1] & 1, f"{pair}: the destination is full"
        cells[destination[0]] |= 1 << destination[1]
    return cells


def art(text):
    return textwrap.dedent(text).lstrip("\n")


# The puzzle of docs/cli.md and its two one-move solutions, as kernels/matchstick/drawing.hpp
# draws them.
SIX_PLUS_FOUR = art("""
     --
    |      |   |  |  --  |  |
     --   -+-   --        --
    |  |   |      |  --     |
     --
     0     1    2         3
""")
ZERO_PLUS_FOUR = art("""
     --
    |  |   |   |  |  --  |  |
          -+-   --        --
    |  |   |      |  --     |
     --
""")
EIGHT_MINUS_FOUR = art("""
     --
    |  |       |  |  --  |  |
     --   ---   --        --
    |  |          |  --     |
     --
""")


class MatchstickTest(SolveTest):
    kernel = "matchstick"

    def assert_matches_model(self, puzzle, *args, moves=1, count="up_to", leading_zeros="allow"):
        """The JSON report of `puzzle` under the options `args` against the model; returns it."""
        report = self.solve_json(puzzle, *args)
        expected = model_solutions(puzzle, moves, count, leading_zeros)
        self.assertEqual(report["solutions"], sorted(expected))
        self.assertEqual([d["equation"] for d in report["details"]], report["solutions"])
        for detail in report["details"]:
            self.assertEqual(detail["distance"], expected[detail["equation"]], detail)
            self.assertEqual(len(detail["moved"].split(" ")), detail["distance"], detail)
            self.assertEqual(replay(puzzle, detail["moved"]), patterns(detail["equation"]), detail)
        self.assertEqual((report["moves"], report["count"], report["leading_zeros"]),
                         (moves, count, leading_zeros))
        return report


class Solve(MatchstickTest):
    def test_six_plus_four_report(self):
        result = levelforge("solve", "matchstick", "6+4=4")
        self.assert_ok(result)
        self.assertEqual(result.stderr, "")
        self.assertTrue(result.stdout.startswith("puzzle: 6+4=4 (false, 16 sticks)\n" + SIX_PLUS_FOUR +
                                                 "rules: move 1 stick, leading zeros allowed\n"
                                                 "solutions: 2\n  moved sticks are FROM>TO,"),
                        result.stdout)
        self.assertIn("\n\nsolution 1: 0+4=4, 1 stick moved: 0.g>0.b\n" + ZERO_PLUS_FOUR, result.stdout)
        self.assertTrue(result.stdout.endswith("\n\nsolution 2: 8-4=4, 1 stick moved: 1.v>0.b\n" +
                                               EIGHT_MINUS_FOUR), result.stdout)

    def test_six_plus_four_json(self):
        report = self.assert_matches_model("6+4=4")
        self.assertEqual(report, {
            "kernel": "matchstick", "puzzle": "6+4=4", "moves": 1, "count": "up_to",
            "leading_zeros": "allow", "puzzle_true": False, "solutions": ["0+4=4", "8-4=4"],
            "details": [{"equation": "0+4=4", "distance": 1, "moved": "0.g>0.b"},
                        {"equation": "8-4=4", "distance": 1, "moved": "1.v>0.b"}]})

    def test_more_moves_and_exact_count(self):
        # 9+3=5: three solutions one move away, three more two moves away.
        one = self.assert_matches_model("9+3=5")
        self.assertEqual(one["solutions"], ["3+3=6", "8-3=5", "9-3=6"])
        two = self.assert_matches_model("9+3=5", "--moves", "2", moves=2)
        self.assertEqual(len(two["solutions"]), 6)
        exact = self.assert_matches_model("9+3=5", "--moves", "2", "--count", "exact",
                                          moves=2, count="exact")
        self.assertEqual(exact["solutions"], ["0+3=3", "0+5=5", "5+0=5"])
        self.assertTrue(all(d["distance"] == 2 for d in exact["details"]))
        human = levelforge("solve", "matchstick", "9+3=5", "--moves", "2", "--count", "exact")
        self.assertIn("rules: move exactly 2 sticks, leading zeros allowed\n", human.stdout)
        self.assertIn("solution 3: 5+0=5, 2 sticks moved: ", human.stdout)
        up_to = levelforge("solve", "matchstick", "9+3=5", "--moves", "3")
        self.assertIn("rules: move 1 to 3 sticks, leading zeros allowed\n", up_to.stdout)
        self.assert_matches_model("6+4=4", "--moves", "3", "--count", "exact", moves=3, count="exact")

    def test_several_digits(self):
        self.assert_matches_model("87-7=14", "--moves", "2", moves=2)
        self.assert_matches_model("10+23=39")

    def test_leading_zeros(self):
        # 87-7=14: 07+7=14 (8 -> 0, the minus' new vertical from the 8's middle) needs a
        # leading zero; 81-7=74 does not.
        allowed = self.assert_matches_model("87-7=14")
        self.assertEqual(allowed["solutions"], ["07+7=14", "81-7=74"])
        forbidden = self.assert_matches_model("87-7=14", "--leading-zeros", "forbid",
                                              leading_zeros="forbid")
        self.assertEqual(forbidden["solutions"], ["81-7=74"])
        human = levelforge("solve", "matchstick", "87-7=14", "--leading-zeros", "forbid")
        self.assertIn("rules: move 1 stick, leading zeros forbidden\n", human.stdout)

    def test_true_puzzle_and_no_solution(self):
        # The document's own example, true with leading zeros allowed, not with them forbidden.
        self.assertIs(self.solve_json("0+3=09")["puzzle_true"], False)
        self.assertIs(self.solve_json("0+9=09")["puzzle_true"], True)
        self.assertIs(self.solve_json("0+9=09", "--leading-zeros", "forbid")["puzzle_true"], False)
        # 8+8=8 has no solution up to three moves.
        self.assertEqual(self.assert_matches_model("8+8=8", "--moves", "3", moves=3)["solutions"], [])
        human = levelforge("solve", "matchstick", "8+8=8")
        self.assert_ok(human)
        self.assertTrue(human.stdout.startswith("puzzle: 8+8=8 (false, 23 sticks)\n"))
        self.assertTrue(human.stdout.endswith("solutions: none\n"))
        self.assertIn("(already true, 26 sticks)", levelforge("solve", "matchstick", "0+9=09").stdout)

    def test_random_puzzles_against_the_model(self):
        rng = random.Random(7)
        for _ in range(12):
            a, b, c = (rng.randint(0, 10 ** rng.randint(1, 2) - 1) for _ in range(3))
            puzzle = f"{a}{rng.choice('+-')}{b}={c}"
            moves = rng.randint(1, 3)
            count = rng.choice(["up_to", "exact"])
            leading_zeros = rng.choice(["allow", "forbid"])
            with self.subTest(puzzle=puzzle, moves=moves, count=count, leading_zeros=leading_zeros):
                self.assert_matches_model(puzzle, "--moves", str(moves), "--count", count,
                                          "--leading-zeros", leading_zeros, moves=moves,
                                          count=count, leading_zeros=leading_zeros)

    def test_under_mpiexec_one_report(self):
        result = levelforge("solve", "matchstick", "6+4=4", ranks=2)
        self.assert_ok(result)
        self.assertEqual(result.stdout.count("puzzle: 6+4=4"), 1)


class SolveBadInput(MatchstickTest):
    def test_bad_equations_name_the_column(self):
        for equation, column in (("6x4=4", 2),  # unknown symbol
                                 ("6+44", 5),  # missing '=', one past the end
                                 ("6+=4", 3),  # empty operand
                                 ("1234567+1=2", 7)):  # a seventh digit
            for args in ((), ("--json",)):
                result = levelforge("solve", "matchstick", equation, *args)
                self.assert_refused(result, f"<puzzle>:{column}: ",
                                    f"\n  {equation}\n  {' ' * (column - 1)}^\n")

    def test_equation_beginning_with_minus_reaches_the_kernel(self):
        # Numbers are never negative (docs/matchstick.md): the kernel refuses a leading '-'
        # with its own message, however CLI11 would read the argument, also after `--`.
        for equation in ("-1+2=1", "-+2=1", "-=1", "-x"):
            for args in ((equation,), ("--", equation), ("--moves", "2", equation, "--json")):
                with self.subTest(args=args):
                    self.assert_refused(levelforge("solve", "matchstick", *args),
                                        "<puzzle>:1: the first operand is empty, found '-'",
                                        f"\n  {equation}\n  ^\n")
        # What is no equation stays refused as before.
        self.assert_refused(levelforge("solve", "matchstick", "6+4=4", "-x"),
                            "The following argument was not expected: -x")
        self.assert_refused(levelforge("solve", "matchstick", "--bogus"), "file is required")

    def test_option_of_the_other_kernel(self):
        self.assert_refused(levelforge("solve", "matchstick", "6+4=4", "--collect", "pass"),
                            "--collect is an option of `solve tiltmaze`; `solve matchstick` takes "
                            "only --moves, --count, --leading-zeros")
        for option, value in (("--moves", "2"), ("--count", "exact"), ("--leading-zeros", "forbid")):
            self.assert_refused(levelforge("solve", "tiltmaze", "level.maze", option, value),
                                f"{option} is an option of `solve matchstick`; `solve tiltmaze` "
                                "takes only --collect")

    def test_option_values(self):
        for args in (("--moves", "0"), ("--moves", "4"), ("--count", "all"),
                     ("--leading-zeros", "no")):
            self.assert_refused(levelforge("solve", "matchstick", "6+4=4", *args), args[0])

    def test_unknown_kernel_names_both(self):
        self.assert_refused(levelforge("solve", "matchstik", "6+4=4"),
                            "no solver for kernel 'matchstik'", "did you mean 'matchstick'")


if __name__ == "__main__":
    unittest.main(verbosity=2)
