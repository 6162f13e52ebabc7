import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import * as documents from '@/lib/documents/commands';
import { errors } from '@/lib/http/docs';
import { document, documentList, documentListQuery, documentUpload } from '@/lib/documents/schema';

// POST /documents – upload a verification document (multipart) for a customer or beneficial owner
const uploadDocument = commandEndpoint(
  {
    method: 'POST',
    path: '/documents',
    answer: created,
    summary: 'Upload a document',
    description: 'multipart/form-data; the file (PDF, JPEG or PNG, recognised by content, at most 10 MiB) in `file`.',
    tags: ['Documents'],
    body: documentUpload,
    bodyType: 'multipart',
    responses: {
      201: { description: 'Document uploaded successfully', schema: document },
      ...errors(400, 401, 403, 404),
    },
  },
  documents.upload,
  ({ body }) => body,
);

// GET /documents – documents, optionally of one holder, newest first
const listDocuments = commandEndpoint(
  {
    method: 'GET',
    path: '/documents',
    answer: ok,
    summary: 'List documents',
    tags: ['Documents'],
    query: documentListQuery,
    responses: { 200: { description: 'Successful operation', schema: documentList }, ...errors(400, 401, 403) },
  },
  documents.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(uploadDocument, listDocuments);
