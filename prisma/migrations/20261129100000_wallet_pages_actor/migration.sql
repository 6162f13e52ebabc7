-- The wallet pages' server side no longer acts through an API token: it calls the API's route
-- handlers in process as an internal actor (app/wallet/_server/forward.ts), which no API call can
-- delete or change. It used to issue itself an all-permission token named "Wallet pages (server
-- side)" on first use; deleting that token through DELETE /tokens/{id} left every wallet sign-in
-- failing with 500, since the pages tried to issue it again under the same client id (issue 23,
-- finding 3). Those tokens are now unused credentials whose secret any holder of the master key
-- can derive, so they are revoked here (soft delete: the row stays for audit). Databases where
-- one was already deleted need nothing more: nothing looks such a token up any longer. Times are
-- stored as UTC without a zone, as Prisma writes them.
UPDATE "ApiToken"
SET "deletedAt" = now() AT TIME ZONE 'UTC', "updatedAt" = now() AT TIME ZONE 'UTC'
WHERE "name" = 'Wallet pages (server side)'
  AND "clientId" LIKE 'wallet-pages-%'
  AND "deletedAt" IS NULL;
