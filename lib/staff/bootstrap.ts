import { log } from '../core/log';
import { createUser, countUsers, normalizeEmail } from './service';
import * as repo from './repository';
import { hashPassword } from './password';
import { db } from '@/lib/core/db';

// The first staff user of a platform, made at server start when the platform has none: from
// CORRIDOR_STAFF_EMAIL and CORRIDOR_STAFF_PASSWORD when both are set, otherwise admin@<host> with
// a generated password that is printed once. Returns the lines to print.
export async function ensureFirstStaff(platformId: string, host: string): Promise<string[]> {
  const envEmail = process.env.CORRIDOR_STAFF_EMAIL?.trim();
  const envPassword = process.env.CORRIDOR_STAFF_PASSWORD;
  if ((envEmail && !envPassword) || (!envEmail && envPassword))
    log().warn('CORRIDOR_STAFF_EMAIL and CORRIDOR_STAFF_PASSWORD must be set together; ignoring them');
  const known = envEmail && envPassword ? { email: normalizeEmail(envEmail), password: envPassword } : undefined;

  if ((await countUsers(platformId)) === 0) {
    const created = await createUser(
      platformId,
      {
        email: known?.email ?? `admin@${host.includes('.') ? host : `${host}.local`}`,
        role: 'admin',
        ...(known ? { password: known.password } : {}),
      },
      db(),
    );
    if (known) return [`Console admin created: ${created.user.email} (password from CORRIDOR_STAFF_PASSWORD)`];
    return [
      'Console admin created — the password is shown only now:',
      `  email:         ${created.user.email}`,
      `  password:      ${created.password}`,
    ];
  }
  if (known) {
    // Automation asked for a known account: make sure it signs in with that password.
    const existing = await repo.findUserByEmail(known.email);
    if (!existing) {
      await createUser(platformId, { email: known.email, role: 'admin', password: known.password }, db());
    } else {
      await repo.resetPassword(existing.id, await hashPassword(known.password), new Date());
    }
    return [`Console admin: ${known.email} (password from CORRIDOR_STAFF_PASSWORD)`];
  }
  return ['Console staff sign in with the accounts created earlier (the first one was printed at first start).'];
}
