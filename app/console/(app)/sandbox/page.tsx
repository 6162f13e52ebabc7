import { now } from '@/lib/core/clock';
import { isSandbox } from '@/lib/core/mode';
import { outboxOf } from '@/lib/notify/sender';
import { hasRole } from '@/lib/staff/roles';
import { LocalTime } from '@/components/time';
import { Cell, Empty, Facts, PageHeader, Section, Table } from '@/components/ui';
import { ClockForm } from '@/components/console/forms';
import { requireStaff } from '../../_lib/session';
import { Forbidden } from '../../_lib/forbidden';
import { read } from '../../_lib/read';

export const metadata = { title: 'Sandbox · Corridor console' };

export default async function SandboxPage() {
  const actor = await requireStaff();
  if (!isSandbox())
    return (
      <>
        <PageHeader title="Sandbox" />
        <Empty>This installation runs in production mode: there is no sandbox clock and no development outbox.</Empty>
      </>
    );
  if (!hasRole(actor.role, 'operator')) return <Forbidden title="Sandbox" role="operator" />;
  const offsetSeconds = Number(actor.clockOffsetMs / 1000n);
  const sandboxNow = await read(actor, async () => now());
  // Newest first; the outbox lives in this server process's memory (never stored, never logged).
  const messages = outboxOf(actor.platformId).slice().reverse().slice(0, 50);
  return (
    <>
      <PageHeader
        title="Sandbox"
        description="The platform's sandbox clock, and the one-time codes the service would have sent."
      />
      <Section title="Clock">
        <Facts
          items={[
            ['Sandbox time', <LocalTime key="n" value={sandboxNow} />],
            ['Ahead of the real time by', `${offsetSeconds} s`],
          ]}
        />
        <div className="mt-4 max-w-md">
          <ClockForm />
        </div>
      </Section>
      <Section title="Outbox (email and SMS)">
        {messages.length ? (
          <Table
            caption="Messages sent by the development sender"
            head={['Sent', 'Channel', 'To', 'Purpose', 'Message']}
          >
            {messages.map((m, i) => (
              <tr key={i}>
                <Cell>
                  <LocalTime value={m.sentAt} />
                </Cell>
                <Cell>{m.channel}</Cell>
                <Cell>{m.to}</Cell>
                <Cell>{m.purpose}</Cell>
                <Cell>
                  <span className="whitespace-pre-wrap">{m.text}</span>
                </Cell>
              </tr>
            ))}
          </Table>
        ) : (
          <Empty>No message sent since this server process started (at {now().toISOString()}, sandbox time).</Empty>
        )}
      </Section>
    </>
  );
}
