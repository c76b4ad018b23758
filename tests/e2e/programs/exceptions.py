# Python's exception hierarchy in except clauses, isinstance and issubclass.
# Pure Python: exceptions.expected is what python3 prints for it.


def divide(a, b):
    return a / b


def lookup(container, key):
    return container[key]


class ConfigError(LookupError):
    pass


try:
    divide(1, 0)
except ArithmeticError as e:
    print('ArithmeticError caught', type(e).__name__, e)

try:
    lookup({'a': 1}, 'b')
except LookupError as e:
    print('LookupError caught', type(e).__name__, e)

try:
    lookup([1, 2], 5)
except LookupError as e:
    print('LookupError caught', type(e).__name__, e)

try:
    raise ConfigError('missing key')
except KeyError:
    print('wrong: a ConfigError is no KeyError')
except LookupError as e:
    print('LookupError caught', type(e).__name__, e, isinstance(e, LookupError), isinstance(e, KeyError))

try:
    raise NotImplementedError('later')
except RuntimeError as e:
    print('RuntimeError caught', type(e).__name__, e)

try:
    raise ArithmeticError
except (ValueError, ArithmeticError) as e:
    print('tuple caught', type(e).__name__, repr(e))

try:
    try:
        raise OverflowError('too big')
    except LookupError:
        print('wrong: an OverflowError is no LookupError')
except Exception as e:
    print('Exception caught', type(e).__name__, e)

print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(KeyError, LookupError),
      issubclass(IndexError, LookupError), issubclass(OverflowError, ArithmeticError))
print(issubclass(UnboundLocalError, NameError), issubclass(NotImplementedError, RuntimeError),
      issubclass(RecursionError, RuntimeError), issubclass(ArithmeticError, Exception))
print(issubclass(KeyError, ArithmeticError), issubclass(ValueError, (TypeError, LookupError)),
      issubclass(ConfigError, (TypeError, LookupError)), issubclass(bool, int))
print(ZeroDivisionError, LookupError, ConfigError)
