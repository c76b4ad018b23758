# Closures that outlive the frame that made them, as Python runs them: a
# returned lambda, a returned def, a counter written through `nonlocal`,
# callbacks kept in a list and called later, late binding, and closures over
# closures.


def make_adder(n):
    return lambda x: x + n


def make_multiplier(k):
    def times(x):
        return x * k
    return times


def make_counter():
    count = 0

    def inc():
        nonlocal count
        count += 1
        return count
    return inc


callbacks = []


def register(name, times):
    def callback(x):
        return name + ':' + str(x * times)
    callbacks.append(callback)


def late_binding():
    x = 1
    get = lambda: x
    x = 2
    return get()


def loop_closures():
    fns = []
    for i in range(3):
        fns.append(lambda: i)
    print('after the loop i is', i)
    return fns


def comprehension_closures():
    return [lambda: x * 10 for x in range(3)]


def curry(a):
    return lambda b: lambda c: a + b + c


def make_account(balance):
    def deposit(amount):
        nonlocal balance
        balance += amount
        return balance

    def withdraw(amount):
        nonlocal balance
        if amount > balance:
            return 'insufficient'
        balance -= amount
        return balance
    return deposit, withdraw


def outer_counter():
    total = 0

    def middle():
        def inner():
            nonlocal total
            total += 10
            return total
        return inner
    return middle()


add3 = make_adder(3)
print(add3(4))
print(make_adder(10)(5), add3(0))
double = make_multiplier(2)
print(double(21), make_multiplier('ab')(3))
c = make_counter()
c()
print(c())
other = make_counter()
print(other(), c())
register('a', 1)
register('b', 100)
print([cb(7) for cb in callbacks])
print(late_binding())
print([f() for f in loop_closures()])
print([f() for f in comprehension_closures()])
print(curry(1)(20)(300))
deposit, withdraw = make_account(100)
print(deposit(50), withdraw(30), withdraw(500), deposit(0))
bump = outer_counter()
bump()
print(bump())
