import { isEnrolled, recoveryCodesLeft } from '@/lib/staff/second-factor';
import { Facts, PageHeader, Section } from '@/components/ui';
import { SecondFactorDisable, SecondFactorSetup } from '@/components/console/second-factor';
import { requireStaff } from '../../_lib/session';

export const metadata = { title: 'Your account · Corridor console' };

// The signed-in member's own account: who they are and their second factor.
export default async function AccountPage() {
  const actor = await requireStaff();
  const enrolled = await isEnrolled(actor.staffUserId);
  return (
    <>
      <PageHeader title="Your account" description="Your sign-in and second factor." />
      <Section title="Account">
        <Facts
          items={[
            ['Email', actor.email],
            ['Role', actor.role],
            [
              'Staff id',
              <span key="i" className="font-mono break-all">
                {actor.staffUserId}
              </span>,
            ],
          ]}
        />
      </Section>
      <Section title="Second factor">
        {enrolled ? (
          <div className="space-y-3">
            <p>
              On: signing in asks for a code of your authenticator app after the password.{' '}
              {await recoveryCodesLeft(actor.staffUserId)} recovery codes left.
            </p>
            <SecondFactorDisable />
          </div>
        ) : (
          <div className="space-y-3">
            <p>Off: signing in takes your password alone.</p>
            <SecondFactorSetup />
          </div>
        )}
      </Section>
    </>
  );
}
