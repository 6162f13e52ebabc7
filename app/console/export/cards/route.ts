import * as cards from '@/lib/cards/service';
import { amountCells } from '@/lib/core/csv';
import { exportResponse, withNames } from '../../_lib/export';
import { cardFilters, cardQuery, searchOf } from '../../_lib/list-filters';

// GET /console/export/cards – the cards the list's filters select, as CSV, newest first like the
// list: the card as people name it (brand and last four digits, never more of the number), its
// cardholder by name, its state and its limit per transaction in major units.
export async function GET(req: Request) {
  const filters = cardFilters(searchOf(new URL(req.url)));
  return exportResponse({
    list: 'cards',
    filters,
    header: [
      'Card',
      'Cardholder',
      'Cardholder id',
      'State',
      'State reason',
      'Form',
      'Expires',
      'Limit per transaction',
      'Currency',
      'Platform card id',
      'Card id',
      'Created',
    ],
    page: async (actor, limit, cursor) =>
      withNames(
        actor.platformId,
        await cards.list(actor.platformId, cardQuery(filters), limit, 'desc', cursor),
        (rows) => rows.map((c) => c.cardholderId),
      ),
    row: ({ r: c, names }) => [
      `${c.brand} •••• ${c.last4}`,
      names.get(c.cardholderId)?.name ?? '',
      c.cardholderId,
      c.state,
      c.stateReason ?? '',
      c.form,
      `${c.expYear}-${String(c.expMonth).padStart(2, '0')}`,
      amountCells(c.maxSpendPerTransaction, c.currency)[0],
      c.currency,
      c.platformCardId,
      c.id,
      c.createdAt,
    ],
  });
}
