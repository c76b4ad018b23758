# Python's datetime: naive datetimes, dates and timedeltas built from fields,
# their text, attributes and arithmetic; now()/today() only by type and the
# shape of what they print. Expected output: CPython 3.11.
import datetime
from datetime import timedelta
from datetime import datetime as DateTime

d = datetime.datetime(2026, 11, 27, 19, 30, 1, 123456)
print(d)
print(repr(d))
print(d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond)
print(repr(datetime.datetime(2020, 1, 1)), repr(datetime.datetime(2020, 1, 1, 5, 0, 7)), datetime.datetime(2020, 1, 1))
print(d.strftime("%Y%m%d-%H%M%S"), d.strftime("%Y-%m-%d %H:%M:%S.%f"), d.strftime("%a %b %d %j %A %B %%"))
print(d.isoformat(), d.isoformat(" "), d.isoformat(timespec="minutes"), d.isoformat(timespec="milliseconds"))
print(d.weekday(), d.isoweekday(), d.toordinal(), d.date(), repr(d.date()))

t = timedelta(seconds=1, microseconds=500000)
print(t, repr(t), t.total_seconds())
for x in [timedelta(days=1, hours=2), timedelta(seconds=-1), timedelta(), timedelta(weeks=1, minutes=-3),
          timedelta(milliseconds=1.5), timedelta(days=-2, seconds=3), timedelta(hours=1.5), timedelta(days=2.25),
          timedelta(microseconds=0.5), timedelta(microseconds=1.5), timedelta(seconds=0.1, microseconds=-0.5),
          timedelta(minutes=10**6), timedelta(days=999999999, hours=23, minutes=59, seconds=59, microseconds=999999)]:
    print(str(x), repr(x), x.days, x.seconds, x.microseconds)

a = timedelta(hours=3)
b = timedelta(minutes=45)
print(a + b, a - b, b - a, -a, +b, abs(-a), a * 2, 3 * b, a * 0.5, 1.5 * b, a / b, a // b, a % b, a / 4, a // 7)
print(a / 0.1, b * 1.1, timedelta(microseconds=7) / 2, timedelta(microseconds=5) / 2, timedelta(seconds=1) / 3)
print(a > b, a < b, a == timedelta(minutes=180), a != b, a >= a, b <= a, a == 3, bool(timedelta()), bool(b))
print(sorted([a, b, timedelta(0)]), max(a, b))

e = DateTime(2024, 2, 28, 23, 0)
print(e + timedelta(hours=2), e + timedelta(days=1), timedelta(days=366) + e, e - timedelta(weeks=9))
print(DateTime(2024, 3, 1) - e, e - DateTime(2024, 3, 1), (d - e).total_seconds())
print(e < d, e == DateTime(2024, 2, 28, 23), e != d, max(d, e))
print(isinstance(d, datetime.datetime), isinstance(d, datetime.date), isinstance(t, timedelta))

day = datetime.date(2000, 2, 29)
print(day, repr(day), day.year, day.month, day.day, day.weekday(), day.isoformat(), day.strftime("%d/%m/%y"))
print(day + timedelta(days=1), day - timedelta(days=60), day + timedelta(hours=30), datetime.date(2001, 1, 1) - day)
print(datetime.date(1, 1, 1).toordinal(), datetime.date(9999, 12, 31), datetime.MINYEAR, datetime.MAXYEAR)

now = datetime.datetime.now()
print(type(now).__name__, type(datetime.datetime.today()).__name__, type(datetime.date.today()).__name__)
print(len(now.strftime("%Y%m%d-%H%M%S")), len(str(datetime.date.today())), now.year >= 2024)
log_dir = "logs/fit/" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
print(len(log_dir))
later = datetime.datetime.now()
print(later >= now, (later - now).days >= 0)

for bad in [lambda: datetime.datetime(2020, 13, 1), lambda: datetime.datetime(2021, 2, 29),
            lambda: datetime.datetime(0, 1, 1), lambda: datetime.datetime(2020, 1, 1, 24),
            lambda: datetime.datetime(2020, 1, 1, 0, 60), lambda: datetime.datetime(2020, 1, 1, 0, 0, 60),
            lambda: datetime.datetime(2020, 1, 1, 0, 0, 0, 1000000), lambda: datetime.datetime(2020.0, 1, 1),
            lambda: datetime.date(2020, 4, 31), lambda: timedelta("a"), lambda: timedelta(hours=[1]),
            lambda: datetime.datetime(2020, 1, 1) + 1, lambda: 1 - timedelta(1), lambda: timedelta(1) < 1,
            lambda: datetime.datetime(9999, 12, 31) + timedelta(1), lambda: datetime.date(1, 1, 1) - timedelta(1),
            lambda: timedelta(1) / 0, lambda: timedelta(1) // timedelta(0), lambda: timedelta(1) // 0,
            lambda: timedelta(days=1000000000), lambda: d < datetime.date(2020, 1, 1), lambda: d.strftime(5),
            lambda: datetime.date(2020, 1, 1) - d, lambda: timedelta(1) * "x", lambda: d * 2]:
    try:
        print(bad())
    except Exception as ex:
        print(type(ex).__name__ + ":", ex)
