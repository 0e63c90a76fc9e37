-- The iso_instant function as the migrated database holds it. Migrations still make every change
-- (drizzle/); a migration that changes this function must change this file too, and
-- lib/db/sql/definitions.test.ts fails until it does.
-- The instant an ISO 8601 text names, as Date.parse reads it in the service, for the segment conditions
-- "before" and "after" (lib/segments/compile-segment.ts): a date attribute's stored text, and the date a
-- rule compares with. The text the attribute and rule schemas take as a date: YYYY-MM-DD (midnight UTC),
-- or with a time to the minute, second or millisecond and Z or an offset. NULL for any other text, never an
-- error: a count must not fail on a stored value, whatever it is. A cast to timestamptz raises on text it
-- cannot read and on some that Date.parse reads: 2025-02-30 (2 March to Date.parse), the year 0000,
-- offsets past 15:59. So the parts are checked as Date.parse checks them (a day up to 31 in any month,
-- 24:00 only as the end of the day, offsets up to 23:59) and the instant is counted from them: the first
-- of the month 400 years on (make_date has no year 0) less the 146,097 days of 400 Gregorian years, plus
-- the days and the time, less the offset.
-- One expression, so that PostgreSQL inlines it into the query; it is dear all the same (a regular
-- expression, a dozen casts): the segment condition reads with it only stored text near the date compared
-- with, and decides the rest by comparing text.
CREATE OR REPLACE FUNCTION iso_instant(value text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN value ~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T(([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,3})?)?|24:00(:00(\.0{1,3})?)?)(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9]))?$'
  THEN (
    (make_date(substr(value, 1, 4)::int + 400, substr(value, 6, 2)::int, 1) - 146097 + (substr(value, 9, 2)::int - 1))::timestamp
    + CASE WHEN length(value) = 10 THEN interval '0' ELSE make_interval(
        hours => substr(value, 12, 2)::int,
        mins => substr(value, 15, 2)::int
          - CASE WHEN right(value, 1) = 'Z' THEN 0
                 ELSE (CASE WHEN substr(value, length(value) - 5, 1) = '-' THEN -1 ELSE 1 END)
                      * (substr(value, length(value) - 4, 2)::int * 60 + substr(value, length(value) - 1, 2)::int) END,
        secs => CASE WHEN substr(value, 17, 1) = ':'
                     THEN substr(value, 18, length(value) - 17 - CASE WHEN right(value, 1) = 'Z' THEN 1 ELSE 6 END)::float8
                     ELSE 0 END) END
  ) AT TIME ZONE 'UTC'
END;
