-- ListCount slots by database session instead of at random per row. A statement that inserts
-- several rows (a customer with its accounts) adds to several counts; with a random slot per row,
-- two such statements running side by side took the same counters' rows in opposite orders and
-- deadlocked (measured: POST /customers at 16 concurrent on plain pooled connections, a deadlock
-- every few hundred requests, each held a second by deadlock detection). With one slot per
-- session a statement adds to one row per key, and two sessions meet on a row only when their
-- slots coincide (16 slots, as before; reads sum them all, whatever the slot).
CREATE OR REPLACE FUNCTION corridor_list_count(p TEXT, l TEXT, k TEXT, d INTEGER) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "ListCount" ("platformId", "list", "key", "slot", "n")
  VALUES (p, l, k, (pg_backend_pid() % 16)::smallint, d)
  ON CONFLICT ("platformId", "list", "key", "slot") DO UPDATE SET "n" = "ListCount"."n" + EXCLUDED."n"
$$;
