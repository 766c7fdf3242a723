"""Italian dates: day, month in lower case, year ("22 novembre 2026"); no weekday, no leading zero."""

DATE_FORMAT = "j E Y"
DATETIME_FORMAT = "j E Y, H:i"
MONTH_DAY_FORMAT = "j E"
