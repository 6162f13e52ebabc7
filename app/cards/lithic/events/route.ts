import { lithicEventsAnswer } from '@/lib/http/lithic-events';
import { logged } from '@/lib/http/request-log';

// POST /cards/lithic/events – Lithic's card_transaction.updated events: clearings, expiries, returns (docs/cards.md).
export const POST = logged('/cards/lithic/events', lithicEventsAnswer);
