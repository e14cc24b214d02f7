"""Numbers with their units, read from an answer: "320 KiB", "0.32 MB", "6 ms", "43%", "3/7", "400 Gb/s",
"258,048 B", "3.7×", "~300 FLOPs/byte", "1.2e12", "2^30", "8k tokens", "2·126·8·128·2 = 516,096 bytes";
a series shares the unit written at its end ("0.26, 0.53 and 0.79 s", "3-5 ms": series.py).

Arithmetic the answer writes out (·, ×, *, /, ÷, ^, +, " - ", parentheses, "over", "times") is evaluated with
units by pint, so "1000 TFLOP/s ÷ 3.35 TB/s" is 298.5 FLOP/byte. The value of an expression is what the
candidate claims; the numbers inside it are its operands (the inputs they started from). Numbers glued to a
name (H100, TP8, FP8, DeepSeek-V3, top-8) are names, not quantities.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from coach.grading.numeric.series import read_series
from coach.units import DimensionalityError, Quantity, base_of, base_unit, parse_unit, quantity, registry

_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?"
_TOKEN = re.compile(
    rf"(?P<num>{_NUM})"
    r"|(?P<op>\*\*|[·×*/÷^+]|(?<=\s)[-−](?=\s)|\b(?:over|times|divided by)\b)"
    r"|(?P<lp>\()|(?P<rp>\))"
    r"|(?P<word>[A-Za-zµμ%×][A-Za-zµμ%×]*(?:/[A-Za-zµμ]+)?)"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)",
    re.DOTALL,
)
_OPS = {"·": "*", "×": "*", "*": "*", "x": "*", "times": "*", "/": "/", "÷": "/", "over": "/", "divided by": "/",
        "^": "^", "**": "^", "+": "+", "-": "-", "−": "-"}
# after "2 x": a number, a bracket, or a symbol that is itself multiplied ("2 x hidden x 2 bytes") makes "x" a
# product sign rather than a ratio ("7.34× larger")
_PRODUCT_FOLLOWS = re.compile(r"\s*(?:[\d(]|[A-Za-z_][\w-]*\s*[x×*·])")
_GLUED_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}  # "8k tokens", "1.25M", "70B" (parameters)
_SCALE_WORDS = {"thousand", "million", "billion", "trillion"}


@dataclass(frozen=True)
class Found:
    """One quantity the text states: an expression's value or one of its operands."""

    text: str  # as written, e.g. "258,048 B" or "1000e12/3.35e12"
    start: int
    end: int
    magnitude: float  # in `unit`
    unit: str  # "" for a bare number
    base: float  # in base units (bytes, seconds, FLOPs; % as a fraction)
    dims: str  # dimensionality, e.g. "[information]"; "dimensionless" for counts, ratios and bare numbers
    operand: bool = False  # a number inside a larger expression (an input the candidate started from)
    derived: bool = False  # the value of arithmetic the answer writes out (the working is shown)
    equated: bool = False  # arithmetic followed by "= <number>" or "is <number>": working; its claim is that number

    @property
    def bare(self) -> bool:
        return not self.unit

    def in_unit(self, unit: str) -> float:
        """Its value in `unit` (a bare number is read in it as written)."""
        return self.magnitude if self.bare else float(quantity(self.base, base_unit(self.dims)).to(unit).magnitude)

    def said(self, unit: str) -> str:
        """How to quote it back: as written, with the value of any working ("1000e12/3.35e12 (= 299)")."""
        if not self.derived:
            return self.text
        shown = self.in_unit(unit)
        number = f"{shown:,.0f}" if abs(shown) >= 1000 else f"{shown:.3g}"
        return f"{self.text} (= {number}{' ' + unit if unit and not self.bare else ''})"


@dataclass
class _Atom:
    q: Quantity
    unit: str
    start: int
    end: int


@dataclass
class _Tok:
    kind: str  # atom | op | lp | rp | unit (a unit after ")")
    start: int
    end: int
    atom: _Atom | None = None
    op: str = ""


def _glued_to_name(text: str, start: int) -> bool:
    """A number right after a letter or a letter-hyphen (H100, TP8, top-8) is part of a name."""
    before = text[start - 1] if start else " "
    if before in "x×" and start >= 2 and text[start - 2].isdigit():
        return False  # "8x7168": a product
    if before.isalpha() or before in "_.":
        return True
    return before in "-−" and start >= 2 and text[start - 2].isalpha()


def _unit_at(text: str, pos: int) -> tuple[str, int] | None:
    """The longest unit phrase starting at `pos` (after optional spaces): "GB/s", "bytes per token",
    "million tokens". Returns (unit text, end) or None."""
    m = re.compile(r"\s?(?P<u>[A-Za-zµμ%×][A-Za-zµμ%×]*(?:/[A-Za-zµμ]+)?)").match(text, pos)
    if m is None:
        return None
    unit, end = m.group("u"), m.end()
    if parse_unit(unit) is None:
        return None
    per = re.compile(r"\s+per\s+(?P<w>[A-Za-zµμ]+)\b").match(text, end)
    if per is not None and parse_unit(f"{unit}/{per.group('w')}") is not None:
        unit, end = f"{unit}/{per.group('w')}", per.end()
    elif unit in _SCALE_WORDS:
        nxt = re.compile(r"\s+(?P<w>[A-Za-zµμ]+(?:/[A-Za-zµμ]+)?)\b").match(text, end)
        if nxt is not None and parse_unit(nxt.group("w")) is not None:
            unit, end = f"{unit} {nxt.group('w')}", nxt.end()
    return unit, end


def _number_atom(text: str, m: re.Match[str]) -> tuple[_Atom | None, int]:
    """The atom a number token starts (with its unit), and where it ends; None for a name's digits."""
    start, end = m.start(), m.end()
    if _glued_to_name(text, start):
        return None, _skip_word(text, end)
    value = float(m.group().replace(",", ""))
    glued = re.compile(r"[A-Za-zµμ%×]+(?:/[A-Za-zµμ]+)?").match(text, end)
    unit = ""
    if glued is not None:
        suffix = glued.group()
        if suffix in ("x", "×") and re.compile(r"\s*[\d(]").match(text, glued.end()):
            return _Atom(registry().Quantity(value), "", start, end), end  # "8x7168": an operator follows
        if suffix in _GLUED_SCALE:
            value *= _GLUED_SCALE[suffix]
            end = glued.end()
            spaced = _unit_at(text, end)
            if spaced is not None:
                unit, end = spaced
        elif parse_unit(suffix) is not None:
            spaced = _unit_at(text, end)
            unit, end = spaced if spaced is not None else (suffix, glued.end())
        else:
            return None, _skip_word(text, end)  # "3rd", "8x400g": not a quantity
    elif text.startswith("-", end) and (hyphen := _unit_at(text, end + 1)) is not None:
        unit, end = hyphen  # "2-byte weights"
    elif (fold := _FOLD.match(text, end)) is not None:
        unit, end = "×", fold.end()  # "a 7.3-fold saving"
    elif (times := _TIMES.match(text, end)) is not None and not _PRODUCT_FOLLOWS.match(text, times.end()):
        unit, end = "×", times.end()  # "3.67 times larger" is a ratio, as "3.67× larger" is; "8 times 128" a product
    elif _MODIFIER.match(text, end):
        return None, _skip_word(text, end)  # "a 7,168-wide hidden state", "8-way": a size that names a thing
    else:
        spaced = _unit_at(text, end)
        if spaced is not None and not (spaced[0] in ("x", "×") and _PRODUCT_FOLLOWS.match(text, spaced[1])):
            unit, end = spaced
    q = registry().Quantity(value, parse_unit(unit)) if unit else registry().Quantity(value)
    return _Atom(q, unit, start, end), end


# A number hyphenated to a word that is no unit describes a thing ("7,168-wide", "8-way"): it names a size, it
# states no quantity of the answer (read bare, "7,168" would be 7,168 B where bytes are expected).
_MODIFIER = re.compile(r"[-‐][A-Za-z]")
_FOLD = re.compile(r"[-‐]fold\b", re.IGNORECASE)
_TIMES = re.compile(r"\s+times\b")


def _skip_word(text: str, pos: int) -> int:
    m = re.compile(r"[\w.-]*").match(text, pos)
    return m.end() if m else pos


def _unit_tok(unit: tuple[str, int], start: int) -> _Tok:
    """A unit that applies to what precedes it: "(16.1 + 34.4) GB", "10^12 FLOP/s"."""
    q = registry().Quantity(1, parse_unit(unit[0]))
    return _Tok("unit", start, unit[1], atom=_Atom(q, unit[0], start, unit[1]))


def _tokens(text: str) -> list[_Tok | None]:
    """Expression tokens; None marks a break (words, punctuation, "=" and "≈" between claims)."""
    out: list[_Tok | None] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None  # the pattern's last branch matches any character
        kind = m.lastgroup
        if kind == "num" and out and out[-1] is not None and out[-1].op == "^":
            # an exponent takes no unit: in "10^12 FLOP/s" the unit applies to the power
            bare = registry().Quantity(float(m.group().replace(",", "")))
            out.append(_Tok("atom", m.start(), m.end(), atom=_Atom(bare, "", m.start(), m.end())))
            pos = m.end()
            if (unit := _unit_at(text, pos)) is not None:
                out.append(_unit_tok(unit, pos))
                pos = unit[1]
            continue
        if kind == "num":
            atom, pos = _number_atom(text, m)
            out.append(_Tok("atom", atom.start, atom.end, atom=atom) if atom else None)
            continue
        if kind == "op":
            out.append(_Tok("op", m.start(), m.end(), op=_OPS[m.group()]))
        elif kind in ("lp", "rp"):
            out.append(_Tok(kind, m.start(), m.end()))
            if kind == "rp" and (unit := _unit_at(text, m.end())) is not None:
                out.append(_unit_tok(unit, m.end()))
                pos = unit[1]
                continue
        elif kind == "word" and m.group() in ("x", "×") and out:
            # after a number a product sign; after a name ("top-8 x 7,168") too: the run that follows then starts
            # with an operator, which marks it as a piece of a larger formula
            out.append(_Tok("op", m.start(), m.end(), op="*"))
        elif kind == "word" or (kind == "other" and m.group() != "`"):  # code quotes do not break arithmetic
            out.append(None)
        pos = m.end()
    return out


class _Parser:
    """Recursive descent over one run of tokens: expr := term (+|- term)*; term := power (*|/ power)*;
    power := primary [^ primary] [unit]; primary := atom | ( expr )."""

    def __init__(self, toks: list[_Tok]) -> None:
        self.toks, self.i = toks, 0

    def parse(self) -> Quantity | None:
        try:
            q = self._expr()
        except (DimensionalityError, ZeroDivisionError, OverflowError, IndexError, ValueError, TypeError):
            return None
        return q if self.i == len(self.toks) else None

    def _peek(self, *ops: str) -> bool:
        return self.i < len(self.toks) and self.toks[self.i].kind == "op" and self.toks[self.i].op in ops

    def _binary(self, ops: str, operand: Callable[[], Quantity]) -> Quantity:
        q = operand()
        while self._peek(*ops):
            op = self.toks[self.i].op
            self.i += 1
            right = operand()
            q = {"+": lambda a, b: a + b, "-": lambda a, b: a - b,
                 "*": lambda a, b: a * b, "/": lambda a, b: a / b}[op](q, right)
        return q

    def _expr(self) -> Quantity:
        return self._binary("+-", self._term)

    def _term(self) -> Quantity:
        return self._binary("*/", self._power)

    def _power(self) -> Quantity:
        q = self._primary()
        if self._peek("^"):
            self.i += 1
            exponent = self._primary()
            if not exponent.dimensionless or abs(float(exponent.magnitude)) > 64:
                raise ValueError("not a power")
            q = q ** float(exponent.magnitude)
        if self.i < len(self.toks) and self.toks[self.i].kind == "unit":
            unit = self.toks[self.i].atom
            self.i += 1
            assert unit is not None
            q = q * unit.q
        return q

    def _primary(self) -> Quantity:
        tok = self.toks[self.i]
        self.i += 1
        if tok.kind == "atom" and tok.atom is not None:
            return tok.atom.q
        if tok.kind == "lp":
            q = self._expr()
            if self.toks[self.i].kind != "rp":
                raise ValueError("unbalanced")
            self.i += 1
            return q
        raise ValueError(f"unexpected {tok.kind}")


# arithmetic followed by the result it claims: "= 258,048", "≈ 300", "is 2.4 ms", ", which comes to about 71 s"
_EQUATED = re.compile(r"\s*`?\s*(?:[=≈→]|->|,?\s*(?:which\s+)?(?:is|gives|comes\s+to|works\s+out\s+to)\b)"
                      r"\s*`?\s*(?:(?:about|roughly|approximately|around|only|just)\s+)?~?\d", re.IGNORECASE)


def _found(text: str, q: Quantity, unit: str, start: int, end: int, operand: bool, derived: bool = False) -> Found:
    base, dims = base_of(q)
    magnitude = float(q.to(parse_unit(unit)).magnitude) if unit else base
    return Found(text=text[start:end], start=start, end=end, magnitude=magnitude, unit=unit, base=base,
                 dims=dims, operand=operand, derived=derived,
                 equated=derived and _EQUATED.match(text, end) is not None)


def _runs(toks: list[_Tok | None]) -> list[list[_Tok]]:
    runs: list[list[_Tok]] = [[]]
    for t in toks:
        if t is None:
            runs.append([])
        else:
            runs[-1].append(t)
    return [r for r in runs if any(t.kind == "atom" for t in r)]


def _trim(run: list[_Tok]) -> list[_Tok]:
    """Drop dangling operators and unmatched parentheses at the edges ("(about 300)", "× 2 ...")."""
    while run and (run[0].kind in ("op", "rp", "unit") or (run[0].kind == "lp" and _depth(run) > 0)):
        run = run[1:]
    while run and (run[-1].kind in ("op", "lp") or (run[-1].kind == "rp" and _depth(run) < 0)):
        run = run[:-1]
    return run


def _depth(run: list[_Tok]) -> int:
    return sum(1 for t in run if t.kind == "lp") - sum(1 for t in run if t.kind == "rp")


# A list's markers ("(3) tensor parallelism ...", "2) ...", "1. ...") number the points and state no quantity;
# blanked out, so the offsets of everything else stand.
_LIST_MARKER = re.compile(r"(?:^|(?<=[\s:;,]))\(\d{1,2}\)(?=\s)|^[ \t]*\d{1,2}[.)](?=[ \t]+[A-Za-z])",
                          re.MULTILINE)


@lru_cache(maxsize=2048)
def extract(text: str) -> tuple[Found, ...]:
    """Every quantity the text states, in order: each expression's value, then its operands."""
    out: list[Found] = []
    for run in _runs(_tokens(_LIST_MARKER.sub(lambda m: " " * len(m.group()), text))):
        # an operator at an edge joins this run to a symbol or name ("tokens x top-8 x 7,168 x 2 bytes"): the run
        # is a piece of a larger formula, so nothing in it is a claimed result
        piece = run[0].kind == "op" or run[-1].kind == "op"
        run = _trim(run)
        atoms = [t.atom for t in run if t.kind == "atom" and t.atom is not None]
        if not atoms:
            continue
        value = _Parser(run).parse() if len(atoms) > 1 else None
        if value is None:  # a single number, or arithmetic that does not parse: each number stands alone
            out.extend(_found(text, a.q, a.unit, a.start, a.end, operand=piece) for a in atoms)
            continue
        units = [t.atom.unit for t in run if t.kind in ("atom", "unit") and t.atom is not None and t.atom.unit]
        unit = _result_unit(value, units)
        out.append(_found(text, value, unit, run[0].start, run[-1].end, operand=piece, derived=True))
        out.extend(_found(text, a.q, a.unit, a.start, a.end, operand=True) for a in atoms)
    return tuple(read_series(text, out))


def _result_unit(value: Quantity, units: list[str]) -> str:
    """A unit to state an expression's value in: the last written unit it converts to, else its own."""
    if not units:
        return ""
    for unit in reversed(units):
        parsed = parse_unit(unit)
        if parsed is not None and value.is_compatible_with(parsed):
            return unit
    return f"{value.units:~}" if not value.dimensionless else "ratio"
