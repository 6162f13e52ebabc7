import { describe, expect, it } from 'vitest';
import { checkReviewReason } from './review-reasons';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as { code: string; details: { errors: { field: string }[] } };
  }
  throw new Error('accepted');
};

describe('checkReviewReason', () => {
  it('takes an approval with its code and an optional note, a rejection with its code and a note', () => {
    expect(checkReviewReason('APPROVED', { reasonCode: 'DOCUMENTS_VERIFIED', note: '' })).toEqual({
      reasonCode: 'DOCUMENTS_VERIFIED',
      note: '',
    });
    expect(checkReviewReason('REJECTED', { reasonCode: 'DOCUMENT_EXPIRED', note: ' Expired 2020 ' })).toEqual({
      reasonCode: 'DOCUMENT_EXPIRED',
      note: 'Expired 2020',
    });
  });

  it('refuses a rejection without a note, OTHER without a note, and a code of the other decision', () => {
    expect(refusal(() => checkReviewReason('REJECTED', { reasonCode: 'DOCUMENT_EXPIRED', note: '  ' }))).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'note' }] },
    });
    expect(refusal(() => checkReviewReason('APPROVED', { reasonCode: 'OTHER', note: '' }))).toMatchObject({
      details: { errors: [{ field: 'note' }] },
    });
    expect(refusal(() => checkReviewReason('APPROVED', { reasonCode: 'SUSPECTED_FRAUD', note: 'x' }))).toMatchObject({
      details: { errors: [{ field: 'reasonCode' }] },
    });
    expect(refusal(() => checkReviewReason('REJECTED', { reasonCode: 'DOCUMENTS_VERIFIED', note: 'x' }))).toMatchObject(
      { details: { errors: [{ field: 'reasonCode' }] } },
    );
  });
});
