import { commandEndpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import * as documents from '@/lib/documents/commands';
import { errors } from '@/lib/http/docs';
import { document, documentIdParams, documentReplace } from '@/lib/documents/schema';

// GET /documents/{documentId} – one document's metadata
const getDocument = commandEndpoint(
  {
    method: 'GET',
    path: '/documents/{documentId}',
    answer: ok,
    summary: 'Get a document by ID',
    tags: ['Documents'],
    params: documentIdParams,
    responses: { 200: { description: 'Successful operation', schema: document }, ...errors(401, 403, 404) },
  },
  documents.get,
  ({ params }) => params,
);

// PUT /documents/{documentId} – replace file and metadata of a document not yet submitted
const replaceDocument = commandEndpoint(
  {
    method: 'PUT',
    path: '/documents/{documentId}',
    answer: ok,
    summary: 'Replace a document',
    tags: ['Documents'],
    params: documentIdParams,
    body: documentReplace,
    bodyType: 'multipart',
    responses: {
      200: { description: 'Document replaced successfully', schema: document },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  documents.replace,
  ({ params, body }) => ({ documentId: params.documentId, body }),
);

// DELETE /documents/{documentId} – delete a document not yet submitted for verification
const deleteDocument = commandEndpoint(
  {
    method: 'DELETE',
    path: '/documents/{documentId}',
    answer: noContent,
    summary: 'Delete a document',
    tags: ['Documents'],
    params: documentIdParams,
    responses: { 204: { description: 'Document deleted successfully' }, ...errors(401, 403, 404, 409) },
  },
  documents.remove,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getDocument, replaceDocument, deleteDocument);
