import { customerCreate, type CustomerCreate } from '../customers/schema';
import { DomainError, type FieldError } from '../core/errors';
import { toFieldErrors } from '../core/validation';
import type { Column, FileRow } from './file';

// One file row as a customer: the CSV columns become the same CustomerCreate input that
// POST /customers takes, validated by the same schema and created by the same service; the
// errors are translated back into the file's column names.

/** A row's error entry as BulkCustomerImportErrorEntry shows it. */
export interface RowError {
  correlationId: string;
  code: string;
  message: string;
  details: { row: number; field?: string; errors: FieldError[] };
}

/** The columns each customer type must fill (reference: "Required columns for ..."). */
const REQUIRED_BY_TYPE: Record<string, Column[]> = {
  INDIVIDUAL: ['fullName', 'birthDate', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
  BUSINESS: ['businessLegalName', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
};

// Input field path -> the file column it came from.
const COLUMN_OF: Record<string, Column> = {
  'address.line1': 'addressLine1',
  'address.line2': 'addressLine2',
  'address.city': 'city',
  'address.state': 'state',
  'address.postalCode': 'postalCode',
  'address.country': 'country',
  address: 'addressLine1',
  'businessInfo.legalName': 'businessLegalName',
  'businessInfo.registrationNumber': 'businessRegistrationNumber',
  'businessInfo.taxId': 'businessTaxId',
  'businessInfo.incorporatedOn': 'businessIncorporatedOn',
  'businessInfo.country': 'country',
};

// Service errors that carry no field, and the column they are about.
const FIELD_OF_CODE: Record<string, Column> = { UMA_ADDRESS_EXISTS: 'umaAddress', CONFLICT: 'platformCustomerId' };

const columnOf = (field: string) => COLUMN_OF[field] ?? field;

function toInput(d: FileRow['data']): Record<string, unknown> {
  const address =
    d.addressLine1 || d.city || d.state || d.postalCode || d.country
      ? {
          line1: d.addressLine1,
          line2: d.addressLine2,
          city: d.city,
          state: d.state,
          postalCode: d.postalCode,
          country: d.country,
        }
      : undefined;
  const common = {
    customerType: d.customerType,
    platformCustomerId: d.platformCustomerId,
    umaAddress: d.umaAddress,
    email: d.email,
    address,
  };
  if (d.customerType === 'BUSINESS') {
    return {
      ...common,
      businessInfo: {
        legalName: d.businessLegalName,
        registrationNumber: d.businessRegistrationNumber,
        taxId: d.businessTaxId,
        incorporatedOn: d.businessIncorporatedOn,
        // The file has one country column: the business's address is taken as where it is registered.
        country: d.country,
      },
    };
  }
  return { ...common, fullName: d.fullName, birthDate: d.birthDate };
}

function rowError(row: FileRow, code: string, message: string, errors: FieldError[]): RowError {
  return {
    correlationId: row.data.platformCustomerId ?? `row_${row.rowNumber}`,
    code,
    message: `Row ${row.rowNumber}: ${message}`,
    details: { row: row.rowNumber, ...(errors[0] ? { field: errors[0].field } : {}), errors },
  };
}

/** The row as a validated create input, or its per-row error. */
export function toCustomerCreate(row: FileRow): { input: CustomerCreate } | { error: RowError } {
  const errors: FieldError[] = [];
  const required = [
    'umaAddress',
    'platformCustomerId',
    'customerType',
    ...(REQUIRED_BY_TYPE[row.data.customerType ?? ''] ?? []),
  ] as Column[];
  for (const column of required)
    if (row.data[column] === undefined) errors.push({ field: column, message: 'is required' });
  const input = toInput(row.data);
  const parsed = customerCreate.safeParse(input);
  if (!parsed.success) {
    for (const e of toFieldErrors(parsed.error, input)) {
      const field = columnOf(e.field);
      if (!errors.some((x) => x.field === field)) errors.push({ ...e, field });
    }
  }
  if (errors.length || !parsed.success) {
    return { error: rowError(row, 'INVALID_INPUT', errors.map((e) => `${e.field} ${e.message}`).join('; '), errors) };
  }
  return { input: parsed.data };
}

/** The per-row error for an DomainError that create() raised for this row. */
export function fromApiError(row: FileRow, err: DomainError): RowError {
  const listed = (err.details?.errors as FieldError[] | undefined) ?? [];
  const errors = listed.length
    ? listed.map((e) => ({ ...e, field: columnOf(e.field) }))
    : FIELD_OF_CODE[err.code]
      ? [{ field: FIELD_OF_CODE[err.code], message: err.message }]
      : [];
  return rowError(row, err.code, err.message, errors);
}

/** The per-row error for a row that kept failing for reasons outside the row's data. */
export function internalError(row: FileRow, message: string): RowError {
  return rowError(row, 'INTERNAL_ERROR', message, []);
}
