# Nested defs that call themselves: called in their frame, returned and called
# after it ended, two defs calling each other, and a name rebound after the
# def (the recursive call then follows the name, as in Python).


def factorial(n):
    def fact(k):
        if k <= 1:
            return 1
        return k * fact(k - 1)
    return fact(n)


def make_fib():
    def fib(k):
        return k if k < 2 else fib(k - 1) + fib(k - 2)
    return fib


def parity(n):
    def is_even(k):
        return True if k == 0 else is_odd(k - 1)

    def is_odd(k):
        return False if k == 0 else is_even(k - 1)
    return is_even(n), is_odd(n)


def rebound():
    def f(k):
        return 'done' if k == 0 else f(k - 1)
    first = f

    def f(k):
        return 'replaced ' + str(k)
    return first(3)


def countdown(n):
    out = []

    def step(k):
        if k > 0:
            out.append(k)
            step(k - 1)
    step(n)
    return out


print(factorial(6))
fib = make_fib()
print([fib(i) for i in range(10)])
print(parity(7), parity(10))
print(rebound())
print(countdown(4))
