import { endpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { document, documentIdParams, documentReplace } from '@/lib/documents/schema';
import * as documents from '@/lib/documents/service';

// GET /documents/{documentId} – one document's metadata
const getDocument = endpoint(
  {
    method: 'GET',
    path: '/documents/{documentId}',
    summary: 'Get a document by ID',
    tags: ['Documents'],
    permission: 'VIEW',
    params: documentIdParams,
    responses: { 200: { description: 'Successful operation', schema: document }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await documents.get(actor.platformId, params.documentId)),
);

// PUT /documents/{documentId} – replace file and metadata of a document not yet submitted
const replaceDocument = endpoint(
  {
    method: 'PUT',
    path: '/documents/{documentId}',
    summary: 'Replace a document',
    tags: ['Documents'],
    permission: 'MANAGE',
    params: documentIdParams,
    body: documentReplace,
    bodyType: 'multipart',
    responses: {
      200: { description: 'Document replaced successfully', schema: document },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, params, body }) => ok(await documents.replace(actor.platformId, params.documentId, body)),
);

// DELETE /documents/{documentId} – delete a document not yet submitted for verification
const deleteDocument = endpoint(
  {
    method: 'DELETE',
    path: '/documents/{documentId}',
    summary: 'Delete a document',
    tags: ['Documents'],
    permission: 'MANAGE',
    params: documentIdParams,
    responses: { 204: { description: 'Document deleted successfully' }, ...errors(401, 403, 404, 409) },
  },
  async ({ actor, params }) => {
    await documents.remove(actor.platformId, params.documentId);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getDocument, replaceDocument, deleteDocument);
