-- Card authorization requests from the processor (lib/cards/asa.ts) name the card by the
-- processor's token and the transaction by the processor's token: both are looked up on every
-- authorization, within the processor's few-second deadline.
CREATE INDEX "Card_processorRef_idx" ON "Card"("processorRef");
CREATE INDEX "CardEvent_cardId_issuerTransactionToken_idx" ON "CardEvent"("cardId", "issuerTransactionToken");
