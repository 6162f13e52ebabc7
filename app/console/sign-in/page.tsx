import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/console/sign-in-form';
import { currentStaff } from '../_lib/auth';

export const metadata = { title: 'Sign in · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  if (await currentStaff()) redirect('/console');
  const invited = (await searchParams).invited === '1';
  return (
    <main className="mx-auto max-w-sm px-6 py-16">
      <p className="text-sm text-slate-700">
        <Link href="/" className="underline">
          Corridor
        </Link>
      </p>
      <h1 className="mt-2 mb-6 text-2xl font-semibold">Sign in to the console</h1>
      {invited ? (
        <p role="status" className="mb-4 rounded border border-green-300 bg-green-50 p-2 text-sm text-green-900">
          Your account is ready: sign in with your email and the password you chose.
        </p>
      ) : null}
      <SignInForm />
      <p className="mt-6 text-sm text-slate-700">
        Staff accounts are created by an admin&rsquo;s one-time invitation link. The first one is printed when the
        server starts for the first time.
      </p>
    </main>
  );
}
