import * as customers from '@/lib/customers/service';
import { exportResponse } from '../../_lib/export';
import { customerFilters, customerQuery, searchOf } from '../../_lib/list-filters';

// GET /console/export/customers – the customers the list's filters select, as CSV.
export async function GET(req: Request) {
  const filters = customerFilters(searchOf(new URL(req.url)));
  return exportResponse({
    list: 'customers',
    filters,
    header: ['Name', 'Type', 'Email', 'Status', 'Platform customer id', 'Customer id', 'Created'],
    page: (actor, limit, cursor) => customers.list(actor.platformId, customerQuery(filters), limit, cursor),
    row: (c) => {
      const business = 'businessInfo' in c ? (c.businessInfo as { legalName?: string } | undefined) : undefined;
      const name = ('fullName' in c ? (c.fullName as string | undefined) : undefined) ?? business?.legalName ?? '';
      return [
        name,
        c.customerType,
        c.email ?? '',
        'kycStatus' in c ? c.kycStatus : c.kybStatus,
        c.platformCustomerId,
        c.id,
        c.createdAt,
      ];
    },
  });
}
