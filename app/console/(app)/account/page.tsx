import { isEnrolled, recoveryCodesLeft } from '@/lib/staff/second-factor';
import { Facts, PageHeader, Section } from '@/components/ui';
import { ChangePasswordForm, SignOutEverywhere } from '@/components/console/account-security';
import { RecoveryCodesRegenerate, SecondFactorDisable, SecondFactorSetup } from '@/components/console/second-factor';
import { requireStaff } from '../../_lib/session';

export const metadata = { title: 'Your account · Corridor console' };

// The signed-in member's own account: who they are, their password, second factor and sessions.
export default async function AccountPage() {
  const actor = await requireStaff();
  const enrolled = await isEnrolled(actor.staffUserId);
  return (
    <>
      <PageHeader title="Your account" description="Your sign-in, password, second factor and sessions." />
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
            <RecoveryCodesRegenerate />
          </div>
        ) : (
          <div className="space-y-3">
            <p>Off: signing in takes your password alone.</p>
            <SecondFactorSetup />
          </div>
        )}
      </Section>
      <Section title="Password">
        <ChangePasswordForm needsCode={enrolled} />
      </Section>
      <Section title="Sessions">
        <div className="space-y-3">
          <p>Signed in somewhere you no longer use, or lost a device? End every console session of your account.</p>
          <SignOutEverywhere />
        </div>
      </Section>
    </>
  );
}
