-- Room for HOT updates on the rows every payment rewrites (issue 24, point 7). A ledger account's
-- balance, a list count and a running total are updated several times per payment, always on the
-- same few rows (a platform's FX, fee and outside-world accounts, its counters), and none of the
-- updated columns is indexed: each update can stay on its page as a heap-only tuple (no new index
-- entries) as long as the page has room for the new version. Filled to 100% (the default), a page
-- has none until pruning frees it, and the update moves to another page with an entry in every
-- index. Half of each page is kept free for them. Only the storage parameter changes: pages written
-- from now on follow it, no table is rewritten.
ALTER TABLE "LedgerAccount" SET (fillfactor = 50);
ALTER TABLE "ListCount" SET (fillfactor = 50);
ALTER TABLE "RunningTotal" SET (fillfactor = 50);
