-- The lists added with agents, cards and stablecoins, held to the rule of 20261126100000_lists_at_scale:
-- every list pages by ("createdAt", "id") and each filter it offers has an index ending in both
-- columns, so the cursor is an index bound, the order needs no sort and a filter reads only its
-- own rows (tests/list-plans.test.ts shows each plan).

-- Agents: the platform's live agents, all or one customer's.
DROP INDEX IF EXISTS "Agent_platformId_createdAt_idx";
CREATE INDEX "Agent_platformId_createdAt_id_idx" ON "Agent"("platformId", "createdAt", "id");
CREATE INDEX "Agent_platformId_customerId_createdAt_id_idx" ON "Agent"("platformId", "customerId", "createdAt", "id");

-- Agent actions (GET /agents/approvals, /agents/me/actions): all, by status, agent or customer.
DROP INDEX IF EXISTS "AgentAction_platformId_status_createdAt_idx";
DROP INDEX IF EXISTS "AgentAction_agentId_createdAt_idx";
CREATE INDEX "AgentAction_platformId_createdAt_id_idx" ON "AgentAction"("platformId", "createdAt", "id");
CREATE INDEX "AgentAction_platformId_status_createdAt_id_idx" ON "AgentAction"("platformId", "status", "createdAt", "id");
CREATE INDEX "AgentAction_agentId_createdAt_id_idx" ON "AgentAction"("agentId", "createdAt", "id");
CREATE INDEX "AgentAction_platformId_customerId_createdAt_id_idx" ON "AgentAction"("platformId", "customerId", "createdAt", "id");
-- The worker's sweep of actions whose quote expired reads only the pending ones (lib/agents/expiry.ts).
CREATE INDEX "AgentAction_pending_transactionId_idx" ON "AgentAction"("transactionId") WHERE "status" = 'PENDING_APPROVAL';

-- Cards: all, by cardholder or state; by funding account through the JSON array's containment
-- (a GIN index: a card has a handful of funding sources, an account funds a handful of cards).
DROP INDEX IF EXISTS "Card_platformId_createdAt_idx";
DROP INDEX IF EXISTS "Card_platformId_cardholderId_idx";
CREATE INDEX "Card_platformId_createdAt_id_idx" ON "Card"("platformId", "createdAt", "id");
CREATE INDEX "Card_platformId_cardholderId_createdAt_id_idx" ON "Card"("platformId", "cardholderId", "createdAt", "id");
CREATE INDEX "Card_platformId_state_createdAt_id_idx" ON "Card"("platformId", "state", "createdAt", "id");
CREATE INDEX "Card_fundingSources_idx" ON "Card" USING GIN ("fundingSources" jsonb_path_ops);

-- Card transactions, merged into GET /transactions with the same filters as payments.
DROP INDEX IF EXISTS "CardTransaction_platformId_createdAt_idx";
DROP INDEX IF EXISTS "CardTransaction_cardId_createdAt_idx";
CREATE INDEX "CardTransaction_platformId_createdAt_id_idx" ON "CardTransaction"("platformId", "createdAt", "id");
CREATE INDEX "CardTransaction_cardId_createdAt_id_idx" ON "CardTransaction"("cardId", "createdAt", "id");
CREATE INDEX "CardTransaction_platformId_customerId_createdAt_id_idx" ON "CardTransaction"("platformId", "customerId", "createdAt", "id");
CREATE INDEX "CardTransaction_platformId_platformCustomerId_createdAt_id_idx" ON "CardTransaction"("platformId", "platformCustomerId", "createdAt", "id");
CREATE INDEX "CardTransaction_platformId_status_createdAt_id_idx" ON "CardTransaction"("platformId", "status", "createdAt", "id");
CREATE INDEX "CardTransaction_platformId_accountId_createdAt_id_idx" ON "CardTransaction"("platformId", "accountId", "createdAt", "id");

-- Stablecoins: provider accounts, coins and a coin's operations.
DROP INDEX IF EXISTS "StablecoinProviderAccount_platformId_createdAt_idx";
DROP INDEX IF EXISTS "Stablecoin_platformId_createdAt_idx";
DROP INDEX IF EXISTS "StablecoinOperation_stablecoinId_createdAt_idx";
DROP INDEX IF EXISTS "StablecoinOperation_platformId_createdAt_idx";
CREATE INDEX "StablecoinProviderAccount_platformId_createdAt_id_idx" ON "StablecoinProviderAccount"("platformId", "createdAt", "id");
CREATE INDEX "Stablecoin_platformId_createdAt_id_idx" ON "Stablecoin"("platformId", "createdAt", "id");
CREATE INDEX "StablecoinOperation_stablecoinId_createdAt_id_idx" ON "StablecoinOperation"("stablecoinId", "createdAt", "id");
CREATE INDEX "StablecoinOperation_platformId_createdAt_id_idx" ON "StablecoinOperation"("platformId", "createdAt", "id");
