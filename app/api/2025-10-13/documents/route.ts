import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { document, documentList, documentListQuery, documentUpload } from '@/lib/documents/schema';
import * as documents from '@/lib/documents/service';

// POST /documents – upload a verification document (multipart) for a customer or beneficial owner
const uploadDocument = endpoint(
  {
    method: 'POST',
    path: '/documents',
    summary: 'Upload a document',
    description: 'multipart/form-data; the file (PDF, JPEG or PNG, recognised by content, at most 10 MiB) in `file`.',
    tags: ['Documents'],
    permission: 'MANAGE',
    body: documentUpload,
    bodyType: 'multipart',
    responses: {
      201: { description: 'Document uploaded successfully', schema: document },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, body }) => created(await documents.upload(actor.platformId, body)),
);

// GET /documents – documents, optionally of one holder, newest first
const listDocuments = endpoint(
  {
    method: 'GET',
    path: '/documents',
    summary: 'List documents',
    tags: ['Documents'],
    permission: 'VIEW',
    query: documentListQuery,
    responses: { 200: { description: 'Successful operation', schema: documentList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) =>
    ok(await documents.list(actor.platformId, query.documentHolder, query.limit, query.cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(uploadDocument, listDocuments);
