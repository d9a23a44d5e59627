-- Velocity-limit counters are written on every API request and card attempt, and losing them in
-- a crash costs nothing but a window's count: an unlogged table skips the write-ahead log (and
-- the wait for it to reach disk) on each write.
ALTER TABLE "rate_limits" SET UNLOGGED;
