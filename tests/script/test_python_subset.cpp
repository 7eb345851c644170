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
