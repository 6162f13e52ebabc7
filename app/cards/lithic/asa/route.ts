import { lithicAsaAnswer } from '@/lib/http/lithic-asa';
import { logged } from '@/lib/http/request-log';

// POST /cards/lithic/asa – Lithic's Auth Stream Access authorization requests (docs/cards.md).
export const POST = logged('/cards/lithic/asa', lithicAsaAnswer);
