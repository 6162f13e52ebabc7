-- Job leases (lib/jobs/queue.ts): a claimed job is leased until "leaseUntil", renewed while its
-- handler runs; once it runs out, any worker may take the job over, whether or not the process
-- that claimed it still lives. Jobs claimed before this column existed keep the instance-key rule.
ALTER TABLE "Job" ADD COLUMN "leaseUntil" TIMESTAMP(3);
