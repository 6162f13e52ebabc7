import { getConfig } from '@/lib/platform/service';
import { historyOf } from '@/lib/staff/audit';
import { hasRole } from '@/lib/staff/roles';
import { formatAmount } from '@/components/format';
import { Cell, Facts, PageHeader, Section, Table } from '@/components/ui';
import { AuditList } from '@/components/console/tables';
import { WebhookEndpointForm } from '@/components/console/forms';
import { requireStaff } from '../../_lib/session';
import { read } from '../../_lib/read';

export const metadata = { title: 'Configuration · Corridor console' };

export default async function SettingsPage() {
  const actor = await requireStaff();
  const config = await read(actor, () => getConfig(actor.platformId));
  const audit = await historyOf(actor.platformId, [actor.platformId]);
  const c = config as typeof config & Record<string, unknown>;
  return (
    <>
      <PageHeader
        title="Platform configuration"
        description="What GET /config answers; admins can change the webhook endpoint here."
      />
      <Section title="Platform">
        <Facts
          items={[
            [
              'Platform id',
              <span key="i" className="font-mono break-all">
                {config.id}
              </span>,
            ],
            ['UMA domain', config.umaDomain],
            ['Webhook endpoint', (c.webhookEndpoint as string | undefined) ?? 'none (events are recorded, not sent)'],
            ['Regulated institution', c.isRegulatedFinancialInstitution ? 'yes' : 'no'],
          ]}
        />
      </Section>
      {hasRole(actor.role, 'admin') ? (
        <Section title="Webhook endpoint">
          <WebhookEndpointForm current={(c.webhookEndpoint as string | undefined) ?? ''} />
        </Section>
      ) : null}
      <Section title="Currencies and limits">
        <Table caption="Supported currencies" head={['Currency', 'Minimum', 'Maximum', 'Transaction types']}>
          {config.supportedCurrencies.map((s) => (
            <tr key={s.currencyCode}>
              <Cell>{s.currencyCode}</Cell>
              <Cell>{formatAmount(s.minAmount, s.currencyCode)}</Cell>
              <Cell>{formatAmount(s.maxAmount, s.currencyCode)}</Cell>
              <Cell>{s.enabledTransactionTypes.join(', ')}</Cell>
            </tr>
          ))}
        </Table>
      </Section>
      <Section title="Webhook signing key">
        <pre className="overflow-auto rounded bg-slate-100 p-3 text-xs break-all whitespace-pre-wrap">
          {(c.webhookSigningPublicKey as string | undefined) ?? '—'}
        </pre>
      </Section>
      <Section title="Staff actions">
        <AuditList entries={audit} />
      </Section>
    </>
  );
}
