// Python language features of tape scripts, against CPython 3: every expected text
// below is what /usr/bin/python3 printed for the same script.
#include "script_test_util.h"

TEST_CASE("builtin types are type objects", "[pysubset]") {
  CHECK(out("x = 2.5\n"
            "print(type(x) == float, type(x) is float, type([]) == list, type(None) == type(None))\n"
            "print(type({}) is dict, type(()) is tuple, type('') is str, type(True) is bool, type(True) == int)\n") ==
        Lines{"True True True True", "True True True True False"});
  CHECK(out("print(int, float, str, bool, list, tuple, dict, type, range)\n") ==
        Lines{"<class 'int'> <class 'float'> <class 'str'> <class 'bool'> <class 'list'> <class 'tuple'> "
              "<class 'dict'> <class 'type'> <class 'range'>"});
  CHECK(out("print(type(3)('5'), type(int), type(None), type(None)())\n") ==
        Lines{"5 <class 'type'> <class 'NoneType'> None"});
  CHECK(out("print(isinstance(True, int), isinstance(3, (float, int)), isinstance(int, type), isinstance('a', str))\n"
            "print(type('').__name__, int.__name__, callable(int), sorted(['10', '9'], key=int))\n") ==
        Lines{"True True True True", "str int True ['9', '10']"});
  CHECK(out("print(str.upper('abc'), list(map(str.strip, [' a ', 'b '])), str.join('-', ['a', 'b']))\n"
            "print(str.upper)\n") ==
        Lines{"ABC ['a', 'b'] a-b", "<method 'upper' of 'str' objects>"});
  CHECK(error_of("class D(dict):\n    pass\n") ==
        "TypeError: subclassing the builtin type 'dict' is not supported in tape scripts");
}

TEST_CASE("generator expressions and dict comprehensions", "[pysubset]") {
  CHECK(out("xs = [1, 2, 3]\n"
            "print(sum(x*x for x in xs))\n"
            "grads = [1, None]\n"
            "print(all(g is not None for g in grads), any(g is None for g in grads))\n"
            "print(', '.join(str(i) for i in range(4)))\n"
            "print(tuple(x for x in xs if x > 1), list(x for x in 'ab'))\n"
            "names = ['a', 'bcd', 'ef']\n"
            "print(max(len(s) for s in names), min((len(s) for s in names)))\n"
            "g = (x for x in xs)\n"
            "print(type(g).__name__, next(g), next(g), list(g), list(g))\n"
            "print(sorted((y, x) for x in [1, 2] for y in 'ab'))\n"
            "print(sum(x for x in range(10) if x % 3 == 0))\n") ==
        Lines{"14", "False True", "0, 1, 2, 3", "(2, 3) ['a', 'b']", "3 1", "generator 1 2 [3] []",
              "[('a', 1), ('a', 2), ('b', 1), ('b', 2)]", "18"});
  // Lazy: any() stops at the first true element, next() takes one.
  CHECK(out("def check(v):\n"
            "    print('check', v)\n"
            "    return v > 1\n"
            "print(any(check(v) for v in [1, 2, 3]))\n"
            "def first_pos(vals):\n"
            "    return next((v for v in vals if v > 0), None)\n"
            "print(first_pos([-1, 0, 5, 7]), first_pos([]))\n") ==
        Lines{"check 1", "check 2", "True", "5 None"});
  const Lines g = out("print((x for x in [1]))\n");
  REQUIRE(g.size() == 1);
  CHECK(g[0].rfind("<generator object <genexpr> at 0x", 0) == 0);
  CHECK(out("xs = [1, 2, 3]\n"
            "print({k: v for k, v in zip('abc', xs)})\n"
            "print({x: x * x for x in range(4) if x % 2})\n"
            "print(dict((k, 1) for k in 'xy'))\n") ==
        Lines{"{'a': 1, 'b': 2, 'c': 3}", "{1: 1, 3: 9}", "{'x': 1, 'y': 1}"});
  CHECK(error_of("print(sum(x for x in [1], 2))\n") == "SyntaxError: Generator expression must be parenthesized");
  CHECK(error_of("(x for x in [1]) = 3\n") == "SyntaxError: cannot assign to generator expression");
}

TEST_CASE("str.format: conversions, field indexing and attributes, missing arguments", "[pysubset]") {
  CHECK(out("class P:\n"
            "    x = 7\n"
            "print('{!r} {!s} {}'.format('a', 'b', 'c'))\n"
            "print('{0[1]} {1[k]} {p.x}'.format([1, 2], {'k': 'v'}, p=P()))\n"
            "print('{:>{w}}|{:{}}|'.format('x', 'y', 3, w=4))\n"
            "print('{0}{1}{0}'.format('a', 'b'), '{name!r:>8}'.format(name='hi'), '{{}} {{{0}}}'.format(5))\n") ==
        Lines{"'a' b c", "2 v 7", "   x|y  |", "aba     'hi' {} {5}"});
  CHECK(error_of("print('{} {}'.format(1))\n") == "IndexError: Replacement index 1 out of range for positional args tuple");
  CHECK(error_of("print('{x}'.format())\n") == "KeyError: 'x'");
  CHECK(error_of("print('{0} {}'.format(1, 2))\n") ==
        "ValueError: cannot switch from manual field specification to automatic field numbering");
  CHECK(error_of("print('{'.format())\n") == "ValueError: Single '{' encountered in format string");
  CHECK(error_of("print('}'.format())\n") == "ValueError: Single '}' encountered in format string");
  CHECK(error_of("print('{0!q}'.format(1))\n") == "ValueError: Unknown conversion specifier q");
  CHECK(error_of("print('{0'.format(1))\n") == "ValueError: expected '}' before end of string");
  CHECK(error_of("print('{0[5]}'.format([1]))\n") == "IndexError: list index out of range");
}
