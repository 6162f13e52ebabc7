import { notFound } from '../../core/errors';
import * as repo from './repository';
import { toQuote } from './presenter';
import { db } from '@/lib/core/db';

export async function getQuote(platformId: string, id: string) {
  const row = await repo.findById(platformId, id, db());
  if (!row) throw notFound('QUOTE_NOT_FOUND', `Quote ${id}`);
  return toQuote(row);
}
