-- When each library's last scan finished: the scan scheduler counts a library's interval from it,
-- so a server restarted more often than the interval still scans on time (it used to count from
-- each start, and a daily restart meant a weekly scan never came).
ALTER TABLE library ADD COLUMN last_scan_date INTEGER;
