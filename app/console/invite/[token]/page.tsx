import Link from 'next/link';
import { DomainError } from '@/lib/core/errors';
import { findByToken, type Invitation } from '@/lib/staff/invitations';
import { AcceptInvitationForm } from '@/components/console/accept-invitation-form';

export const metadata = { title: 'Join the console · Corridor console' };

// The page of a one-time invitation link: whom it is for, and the form where the new member sets
// their own password. A used, revoked or expired link says so (and shows no form).
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let invitation: Invitation | null = null;
  let problem = '';
  try {
    invitation = await findByToken(decodeURIComponent(token));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    problem = err.message;
  }
  return (
    <main className="mx-auto max-w-sm px-6 py-16">
      <p className="text-sm text-slate-700">
        <Link href="/" className="underline">
          Corridor
        </Link>
      </p>
      <h1 className="mt-2 mb-6 text-2xl font-semibold">Join the console</h1>
      {invitation ? (
        <>
          <p className="mb-4 break-all">
            You are invited as <strong>{invitation.email}</strong> with the role {invitation.role}. Choose your
            password.
          </p>
          <AcceptInvitationForm token={token} />
        </>
      ) : (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900">
          {problem} Ask an admin for a new invitation.
        </p>
      )}
    </main>
  );
}
