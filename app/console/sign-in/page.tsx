import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/console/sign-in-form';
import { currentStaff } from '../_lib/auth';

export const metadata = { title: 'Sign in · Corridor console' };

export default async function SignInPage() {
  if (await currentStaff()) redirect('/console');
  return (
    <main className="mx-auto max-w-sm px-6 py-16">
      <p className="text-sm text-slate-700">
        <Link href="/" className="underline">
          Corridor
        </Link>
      </p>
      <h1 className="mt-2 mb-6 text-2xl font-semibold">Sign in to the console</h1>
      <SignInForm />
      <p className="mt-6 text-sm text-slate-700">
        Staff accounts are created by an admin. The first one is printed when the server starts for the first time.
      </p>
    </main>
  );
}
