// Python's format mini-language, '%' formatting, round() and sequence slicing, as
// CPython 3.11 and NumPy 1.24 give them (every expected text below was printed by them).
#include <catch2/catch.hpp>

#include "engine/script/py_format.h"
#include "script_test_util.h"

using namespace ts::script;

TEST_CASE("format(): integer presentation types, flags and grouping", "[format]") {
  CHECK(format_int(255, "x") == "ff");
  CHECK(format_int(255, "#x") == "0xff");
  CHECK(format_int(255, "X") == "FF");
  CHECK(format_int(255, "b") == "11111111");
  CHECK(format_int(8, "#o") == "0o10");
  CHECK(format_int(65, "c") == "A");
  CHECK(format_int(65, "3c") == "  A");
  CHECK(format_int(1234567, ",") == "1,234,567");
  CHECK(format_int(1234567, "_") == "1_234_567");
  CHECK(format_int(0xabcdef, "_x") == "ab_cdef");
  CHECK(format_int(255, "#010x") == "0x000000ff");
  CHECK(format_int(-42, "=+8") == "-     42");
  CHECK(format_int(42, "+") == "+42");
  CHECK(format_int(42, " ") == " 42");
  CHECK(format_int(42, "*^8") == "***42***");
  CHECK(format_int(3, ".2f") == "3.00");
  CHECK(format_int(1, ">5", "bool") == "    1");
  CHECK(format_int(INT64_MIN, "") == "-9223372036854775808");
  CHECK_THROWS_WITH(format_int(3, ".3"), "Precision not allowed in integer format specifier");
  CHECK_THROWS_WITH(format_int(3, "q"), "Unknown format code 'q' for object of type 'int'");
  CHECK_THROWS_WITH(format_int(3, ",x"), "Cannot specify ',' with 'x'.");
  CHECK_THROWS_WITH(format_int(3, "+c"), "Sign not allowed with integer format specifier 'c'");
}

TEST_CASE("format(): float presentation types, and no type with a precision", "[format]") {
  CHECK(format_float(2.0, ".3") == "2.0");
  CHECK(format_float(1234.5, ".3") == "1.23e+03");
  CHECK(format_float(0.0001234, ".3") == "0.000123");
  CHECK(format_float(123.0, "#.3g") == "123.");
  CHECK(format_float(3.5, "n") == "3.5");
  CHECK(format_float(-0.0, "") == "-0.0");
  CHECK(format_float(0.1, "") == "0.1");
  CHECK(format_float(1e16, "") == "1e+16");
  CHECK(format_float(0.25, "%") == "25.000000%");
  CHECK(format_float(0.5, ".1%") == "50.0%");
  CHECK(format_float(3.14159, "10.3f") == "     3.142");
  CHECK(format_float(-3.14159, "=10.3f") == "-    3.142");
  CHECK(format_float(1234567.891, ",.2f") == "1,234,567.89");
  CHECK(format_float(12345.678, "e") == "1.234568e+04");
  CHECK(format_float(std::nan(""), ".2f") == "nan");
  CHECK(format_float(-INFINITY, "F") == "-INF");
  CHECK_THROWS_WITH(format_float(2.5, "d"), "Unknown format code 'd' for object of type 'float'");
  CHECK_THROWS_WITH(format_float(1.0, ".2fx"), "Invalid format specifier '.2fx' for object of type 'float'");
  CHECK_THROWS_WITH(format_float(1.0, "."), "Format specifier missing precision");
  CHECK_THROWS_WITH(format_float(1.0, ".99999999"), "Too many decimal digits in format string");
}

TEST_CASE("format(): strings", "[format]") {
  CHECK(format_str("ab", ">5") == "   ab");
  CHECK(format_str("ab", "^6") == "  ab  ");
  CHECK(format_str("abc", ".2") == "ab");
  CHECK(format_str("ab", "05") == "ab000");
  CHECK(format_str("\xc3\xa9t\xc3\xa9", ">5") == "  \xc3\xa9t\xc3\xa9");  // width counts characters, not bytes
  CHECK_THROWS_WITH(format_str("abc", "d"), "Unknown format code 'd' for object of type 'str'");
  CHECK_THROWS_WITH(format_str("abc", "+"), "Sign not allowed in string format specifier");
}

TEST_CASE("printf-style conversions", "[format]") {
  CHECK(percent_int(255, "", 'x') == "ff");
  CHECK(percent_int(3, "-5", 'd') == "3    ");
  CHECK(percent_int(5, "+", 'd') == "+5");
  CHECK(percent_int(5, ".3", 'd') == "005");
  CHECK(percent_int(8, "#", 'o') == "0o10");
  CHECK(percent_float(3.14159, "05.1", 'f') == "003.1");
  CHECK(percent_float(0.0001, "", 'g') == "0.0001");
  CHECK(percent_text("ab", "5") == "   ab");
  CHECK(percent_text("ab", "-5") == "ab   ");
  CHECK(percent_text("abc", ".2") == "ab");
}

TEST_CASE("scripts: f-strings, % and format() through the interpreter", "[format]") {
  // A float32 scalar (tensor or NumPy) formats through a Python float; str() stays short.
  CHECK(out("import numpy as np\n"
            "t = tf.constant(0.1)\n"
            "print(f'{t}', '{}'.format(t), f'{t.numpy()}', str(t.numpy()), f'{tf.constant([0.1, 0.2])}')\n"
            "print(f'{np.mean(np.array([0.1, 0.2], dtype=np.float32))}', f'{tf.constant(3)}', f'{tf.constant(True)}')\n"
            "print(f'{255:x}', f'{tf.constant(255):#x}', '%x' % 255, '%d' % 3.7, '%i' % -3.7, '%.3f' % tf.constant(1.23456))\n"
            "print(format(2.0, '.3'), f'{True:>5}|', '%-5d|' % 3, '%5s|' % 'ab')\n") ==
        Lines{"0.10000000149011612 0.10000000149011612 0.10000000149011612 0.1 [0.1 0.2]",
              "0.15000000596046448 3 True", "ff 0xff ff 3 -3 1.235", "2.0     1| 3    |    ab|"});
  CHECK(error_of("f'{None:.2f}'\n") == "TypeError: unsupported format string passed to NoneType.__format__");
  CHECK(error_of("f'{[1]:>3}'\n") == "TypeError: unsupported format string passed to list.__format__");
  CHECK(error_of("'%d' % 'x'\n") == "TypeError: %d format: a real number is required, not str");
  CHECK(error_of("'%x' % 2.5\n") == "TypeError: %x format: an integer is required, not float");
  CHECK(error_of("'%d %d' % (1,)\n") == "TypeError: not enough arguments for format string");
  CHECK(error_of("'%d' % (1, 2)\n") == "TypeError: not all arguments converted during string formatting");
  CHECK(error_of("f'{3:.3}'\n") == "ValueError: Precision not allowed in integer format specifier");
}

TEST_CASE("round() as CPython and NumPy round", "[format]") {
  CHECK(out("import numpy as np\n"
            "print(round(2.675, 2), round(15, -1), round(25, -1), round(7, -1), round(-15, -1))\n"
            "print(round(2.5), round(3.5), round(-2.5), round(1234.5678, -2), round(0.125, 2))\n"
            "print(round(tf.constant(2.675).numpy(), 2), round(np.float64(2.675), 2), round(np.float32(2.5)))\n"
            "print(type(round(np.float32(2.5))).__name__, round(True))\n") ==
        Lines{"2.67 20 20 10 -20", "2 4 -2 1200.0 0.12", "2.68 2.68 2", "int 1"});
  CHECK(out("import numpy as np\nprint(np.round(np.array([2.675, 1.5, 2.5], dtype=np.float32), 2), np.round(12345, -2))\n") ==
        Lines{"[2.68 1.5  2.5 ] 12300"});
  CHECK(error_of("round(tf.constant(0.1))\n") ==
        "TypeError: type tensorflow.python.framework.ops.EagerTensor doesn't define __round__ method");
  CHECK(error_of("round('x')\n") == "TypeError: type str doesn't define __round__ method");
  CHECK(error_of("round(float('inf'))\n") == "OverflowError: cannot convert float infinity to integer");
}

TEST_CASE("slices with a step on strings and lists", "[format]") {
  CHECK(out("print('abc'[::-1], 'abcd'[::2], 'abc'[-1:0:-1], 'abcdef'[1:5:2], [1, 2, 3, 4][::-2], (1, 2, 3)[::2])\n") ==
        Lines{"cba ac cb bd [4, 2] (1, 3)"});
  CHECK(error_of("'abc'[::0]\n") == "ValueError: slice step cannot be zero");
}

TEST_CASE("exceptions: str and repr as CPython's", "[format]") {
  CHECK(out("try:\n  {}['x']\nexcept KeyError as e:\n  print(e, repr(e))\n"
            "try:\n  raise KeyError('k')\nexcept KeyError as e:\n  print(e, repr(e))\n"
            "try:\n  {}[1]\nexcept LookupError as e:\n  print(repr(e))\n"
            "try:\n  raise ValueError('bad', 3)\nexcept ValueError as e:\n  print(e, repr(e))\n") ==
        Lines{"'x' KeyError('x')", "'k' KeyError('k')", "KeyError(1)", "('bad', 3) ValueError('bad', 3)"});
  CHECK(error_of("raise KeyError('k')\n") == "KeyError: 'k'");
  // every error an op raises is a tf.errors.OpError
  CHECK(out("try:\n  tf.reshape(tf.ones([2, 3]), [4])\nexcept tf.errors.OpError as e:\n  print(type(e).__name__)\n") ==
        Lines{"InvalidArgumentError"});
}

TEST_CASE("errors name what CPython 3.11 names", "[format]") {
  CHECK(error_of("class A:\n  def m(self, x):\n    return x\nA().m(1, 2)\n") ==
        "TypeError: A.m() takes 2 positional arguments but 3 were given");
  CHECK(error_of("class A:\n  def m(self, x):\n    return x\nA().m()\n") ==
        "TypeError: A.m() missing 1 required positional argument: 'x'");
  CHECK(error_of("def f(x):\n  return x\nf(1, 2)\n") == "TypeError: f() takes 1 positional argument but 2 were given");
  CHECK(error_of("from numpy import foo\n") == "ImportError: cannot import name 'foo' from 'numpy' (unknown location)");
}

TEST_CASE("str methods for text: case, strip, padding, search, lines", "[format]") {
  // Printed by CPython 3.11 for the same lines.
  CHECK(out("s = 'Hello World  '\n"
            "print(s.upper(), s.lower(), s.title(), 'hello world'.capitalize(), s.swapcase())\n"
            "print(repr(s.strip()), repr(s.rstrip()), repr('xxhixx'.strip('x')), repr('  a'.lstrip()))\n"
            "print(repr('ab'.ljust(5, '*')), repr('ab'.rjust(5)), repr('ab'.center(5)), repr('abc'.center(6, '-')), "
            "'-42'.zfill(6))\n"
            "print('banana'.count('an'), 'banana'.find('na'), 'banana'.rfind('na'), 'banana'.index('b'), "
            "'banana'.find('x'), 'banana'.count(''))\n"
            "print('a\\nb\\r\\nc'.splitlines(), 'a\\nb\\n'.splitlines(True))\n"
            "print('123'.isdigit(), 'abc'.isalpha(), 'ABC'.isupper(), 'abc1'.islower(), ' '.isspace(), ''.isdigit())\n") ==
        Lines{"HELLO WORLD   hello world   Hello World   Hello world hELLO wORLD  ",
              "'Hello World' 'Hello World' 'hi' 'a'", "'ab***' '   ab' '  ab ' '-abc--' -00042", "2 2 4 0 -1 7",
              "['a', 'b', 'c'] ['a\\n', 'b\\n']", "True True True True True False"});
  CHECK(error_of("'abc'.index('z')\n") == "ValueError: substring not found");
}

TEST_CASE("int operators |, &, ^, <<, >> and 64-bit overflow as an error, never a wrong number", "[format]") {
  CHECK(out("a = 6\na |= 1\nprint(6 << 2, 6 >> 1, 6 | 3, 6 & 3, 6 ^ 3, True & False, True | False, -8 >> 1, a, ~6)\n"
            "t = tf.constant([True, False])\nu = tf.constant([True, True])\n"
            "print((t & u).numpy(), (t | u).numpy(), (t ^ u).numpy(), (~t).numpy())\n") ==
        Lines{"24 3 7 2 5 False True -4 7 -7", "[ True False] [ True  True] [False  True] [False  True]"});
  const std::string ovf = "OverflowError: integer overflow (tape-script ints are 64-bit)";
  CHECK(error_of("abs(-9223372036854775807 - 1)\n") == ovf);
  CHECK(error_of("int(9.3e18)\n") == ovf);
  CHECK(error_of("round(1e300)\n") == ovf);
  CHECK(error_of("1 << 63\n") == ovf);
  CHECK(error_of("1 << -1\n") == "ValueError: negative shift count");
  CHECK(error_of("1.5 | 2\n") == "TypeError: unsupported operand type(s) for |: 'float' and 'int'");
  CHECK(error_of("tf.constant([1, 2]) & tf.constant([3, 4])\n") ==
        "ValueError: bitwise & of int32 tensors (tf.bitwise) is not supported in tape scripts");
}

TEST_CASE("a NameError in a statement over several lines is reported at the name's line", "[format]") {
  auto line_of = [](const std::string& script) {
    const ts::RunResult r = ts::run_script(script, "t.py");
    return r.error ? r.error->line : 0;
  };
  CHECK(line_of("d = {\n  'a': 1,\n  'b': undefined_name,\n}\n") == 3);
  CHECK(line_of("x = 1\nif (x > 0 and\n    undefined_cond):\n  pass\n") == 3);
  CHECK(line_of("def f(a,\n      b=undefined_default):\n  return a\n") == 2);
  CHECK(line_of("def g():\n  return missing\ny = [1,\n     g()]\n") == 2);  // inside a call: the callee's line
}

TEST_CASE("python: nonlocal rebinds the enclosing function's name; print checks its keywords; !r takes a spec",
          "[py_format]") {
  CHECK(out("def outer():\n"
            "  count = 0\n"
            "  def inc():\n"
            "    nonlocal count\n"
            "    count += 1\n"
            "  inc()\n"
            "  inc()\n"
            "  return count\n"
            "print(outer())\n") == Lines{"2"});
  CHECK(error_of("def f():\n  def g():\n    nonlocal zz\n    zz = 1\n  g()\nf()\n") ==
        "SyntaxError: no binding for nonlocal 'zz' found");
  CHECK(error_of("print(1, foo=2)\n") == "TypeError: 'foo' is an invalid keyword argument for print()");
  CHECK(error_of("print('a', sep=5)\n") == "TypeError: sep must be None or a string, not int");
  CHECK(error_of("len([1], bar=3)\n") == "TypeError: len() takes no keyword arguments");
  CHECK(out("x = 'h\\u00e9llo'\nprint(f'{x!r:>12}|{x!s:>8}|{x!a}|{3.5!r:<6}|')\n") ==
        Lines{"     'h\u00e9llo'|   h\u00e9llo|'h\\xe9llo'|3.5   |"});
}
