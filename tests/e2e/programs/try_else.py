# try/except/else/finally: `else` runs when the body completed, before
# `finally`; not after an exception, a break or a continue, and the handlers
# do not catch what it raises. try_else.expected is what python3 prints.
# (A return in the body of a converted function sets AutoGraph's do_return
# instead of leaving, so there `else` runs, in TF as in agc.)


def attempt(x):
    log = []
    try:
        if x == 'raise':
            raise ValueError(x)
        log.append('body')
    except ValueError:
        log.append('handler')
    else:
        log.append('else')
    finally:
        log.append('finally')
    return log


for x in ['ok', 'raise']:
    print(x, attempt(x))

for i in range(3):
    try:
        if i == 1:
            continue
        if i == 2:
            break
    except KeyError:
        pass
    else:
        print('else ran for', i)

try:
    try:
        pass
    except ValueError:
        print('wrong: else is not guarded by the handlers')
    else:
        raise ValueError('from else')
except ValueError as e:
    print('outside', e)
